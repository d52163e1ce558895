import CGIF
import Foundation
import ImageCodecs
import ImageCore
import Testing
import TestSupport

/// Frames built with giflib's encoder, so every expected pixel is known.
@Suite("GIF compositing")
struct GIFCompositingTests {
    // Palette: 0 black, 1 red, 2 green, 3 blue.
    static let palette: [(UInt8, UInt8, UInt8)] = [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255)]
    static let transparent: [UInt8] = [0, 0, 0, 0]
    static let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255], blue: [UInt8] = [0, 0, 255, 255]

    static func pixel(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
        let bytes = image.packedBytes()
        let index = (y * image.width + x) * 4
        return Array(bytes[index ..< index + 4])
    }

    /// 4x4 canvas: frame 1 fills it red; frame 2 draws a green 2x2 at (1,1) with `disposal`;
    /// frame 3 draws one blue pixel at (0,0). Returns the three composited frames.
    static func threeFrames(disposal: Int32) throws -> [Image] {
        var builder = GIFTestBuilder(width: 4, height: 4, palette: palette, loopCount: 0)
        builder.frames = [
            .init(width: 4, height: 4, indices: Array(repeating: 1, count: 16)),
            .init(left: 1, top: 1, width: 2, height: 2, indices: [2, 2, 2, 2], disposal: disposal),
            .init(width: 1, height: 1, indices: [3]),
        ]
        let image = try GIFDecoder().decode(try builder.encode(), options: DecodingOptions())
        return image.metadata.frames.map(\.image)
    }

    @Test("unspecified and do-not-dispose keep the frame", arguments: [DISPOSAL_UNSPECIFIED, DISPOSE_DO_NOT])
    func keep(disposal: Int32) throws {
        let frames = try Self.threeFrames(disposal: disposal)
        #expect(frames.count == 3)
        #expect(Self.pixel(frames[1], 1, 1) == Self.green && Self.pixel(frames[1], 0, 0) == Self.red)
        #expect(Self.pixel(frames[2], 1, 1) == Self.green && Self.pixel(frames[2], 0, 0) == Self.blue)
    }

    @Test("background disposal clears the frame rectangle to transparent")
    func background() throws {
        let frames = try Self.threeFrames(disposal: DISPOSE_BACKGROUND)
        #expect(Self.pixel(frames[1], 2, 2) == Self.green)
        for (x, y) in [(1, 1), (2, 1), (1, 2), (2, 2)] { #expect(Self.pixel(frames[2], x, y) == Self.transparent) }
        #expect(Self.pixel(frames[2], 3, 3) == Self.red && Self.pixel(frames[2], 0, 0) == Self.blue)
    }

    @Test("previous disposal restores the canvas from before the frame")
    func previous() throws {
        let frames = try Self.threeFrames(disposal: DISPOSE_PREVIOUS)
        #expect(Self.pixel(frames[1], 1, 1) == Self.green)
        #expect(Self.pixel(frames[2], 1, 1) == Self.red && Self.pixel(frames[2], 2, 2) == Self.red)
        #expect(Self.pixel(frames[2], 0, 0) == Self.blue)
    }

    @Test("transparent indices leave the canvas showing through")
    func transparentIndex() throws {
        var builder = GIFTestBuilder(width: 2, height: 1, palette: Self.palette, loopCount: 0)
        builder.frames = [
            .init(width: 2, height: 1, indices: [1, 1]),
            .init(width: 2, height: 1, indices: [0, 3], transparentIndex: 0),
        ]
        let image = try GIFDecoder().decode(try builder.encode(), options: DecodingOptions())
        #expect(image.metadata.hasAlpha)
        let second = image.metadata.frames[1].image
        #expect(Self.pixel(second, 0, 0) == Self.red && Self.pixel(second, 1, 0) == Self.blue)
    }

    @Test("a first frame smaller than the screen leaves the rest transparent; frames past the edge are clipped")
    func partialAndClipped() throws {
        var builder = GIFTestBuilder(width: 3, height: 3, palette: Self.palette, loopCount: 0)
        builder.frames = [
            .init(left: 1, top: 1, width: 4, height: 4, indices: Array(repeating: 2, count: 16)),
            .init(left: 5, top: 5, width: 2, height: 2, indices: [3, 3, 3, 3]),   // entirely off the canvas
        ]
        let image = try GIFDecoder().decode(try builder.encode(), options: DecodingOptions())
        #expect(image.metadata.hasAlpha)
        #expect(Self.pixel(image, 0, 0) == Self.transparent && Self.pixel(image, 2, 2) == Self.green)
        #expect(WebPGIFTestSupport.difference(image.metadata.frames[1].image.packedBytes(), image.packedBytes()) == nil)
    }

    @Test("interlaced rows come back in order, equal to the same image stored progressively")
    func interlaced() throws {
        let height = 19   // not a multiple of 8, so every pass has a ragged end
        let indices = (0 ..< height).flatMap { row in [UInt8](repeating: UInt8(row % 4), count: 5) }
        func decode(interlaced: Bool) throws -> Image {
            var builder = GIFTestBuilder(width: 5, height: height, palette: Self.palette)
            builder.frames = [.init(width: 5, height: height, indices: indices, interlaced: interlaced)]
            return try GIFDecoder().decode(try builder.encode(), options: DecodingOptions())
        }
        let interlaced = try decode(interlaced: true), plain = try decode(interlaced: false)
        #expect(WebPGIFTestSupport.difference(interlaced.packedBytes(), plain.packedBytes()) == nil)
        let expected = [Self.palette[0], Self.palette[1], Self.palette[2], Self.palette[3]]
        for row in 0 ..< height {
            let colour = expected[row % 4]
            #expect(Self.pixel(interlaced, 4, row) == [colour.0, colour.1, colour.2, 255], "row \(row)")
        }
    }

    /// image-gif's checksums are of each frame's own rectangle before compositing; for a
    /// single frame covering the screen without transparency that is exactly our image.
    @Test("single-frame opaque samples match image-gif's checksums (interlaced.gif among them)",
          arguments: ["interlaced.gif", "2x2.gif", "sample_1.gif"])
    func imageGIFChecksum(name: String) throws {
        let image = try GIFDecoder().decode(try Corpus.data("gif/image-gif/samples/\(name)"), options: DecodingOptions())
        let expected = try #require(WebPGIFTestSupport.imageGIFChecksums[name])
        #expect(image.metadata.frames.isEmpty)
        #expect(WebPGIFTestSupport.crc32(image.packedBytes()) == expected)
    }

    @Test("delays of 0 and 1 centiseconds are shown for 0.1 s, others as written")
    func delays() throws {
        var builder = GIFTestBuilder(width: 1, height: 1, palette: Self.palette, loopCount: 3)
        builder.frames = [0, 1, 2, 50].map { .init(width: 1, height: 1, indices: [1], delayCentiseconds: $0) }
        let image = try GIFDecoder().decode(try builder.encode(), options: DecodingOptions())
        #expect(image.metadata.frames.map(\.duration) == [0.1, 0.1, 0.02, 0.5])
        #expect(image.metadata.loopCount == 3)
    }
}
