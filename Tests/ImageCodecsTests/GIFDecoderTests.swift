import Foundation
import ImageCodecs
import ImageCore
import Testing
import TestSupport

@Suite("GIF decoder")
struct GIFDecoderTests {
    @Test("frame counts, sizes, durations and loop counts", arguments: [
        ("gif/image-gif/samples/gifplayer-muybridge.gif", 380, 472, 298),
        ("gif/image-gif/samples/sample_big.gif", 259, 1000, 175),
        ("gif/image-gif/samples/moon_impact.gif", 14, 116, 100),
        ("bench/anim/kodak-8frames-384x256.gif", 8, 384, 256),
    ])
    func animations(path: String, frameCount: Int, width: Int, height: Int) throws {
        let data = try Corpus.data(path)
        let image = try GIFDecoder().decode(data, options: DecodingOptions())
        #expect(image.width == width && image.height == height)
        #expect(image.metadata.frames.count == frameCount)
        #expect(image.metadata.sourceFormat == .gif)
        #expect(image.metadata.frames.allSatisfy { $0.image.width == width && $0.image.height == height })
        #expect(image.metadata.frames.allSatisfy { $0.duration > 0 })
        let header = try GIFDecoder().readHeader(data)
        #expect(header.frameCount == frameCount && header.width == width && header.height == height)
        // Frames own their pixels.
        let storages = image.metadata.frames.dropFirst().filter { $0.image.sharesStorage(with: image.metadata.frames[0].image) }
        #expect(storages.isEmpty)
    }

    @Test("moon_impact loops 10 times and tolerates bytes after the trailer")
    func moonImpact() throws {
        let image = try GIFDecoder().decode(try Corpus.data("gif/image-gif/samples/moon_impact.gif"), options: DecodingOptions())
        #expect(image.metadata.loopCount == 10)
    }

    @Test("the Kodak animation: 8 frames of 0.5 s, looping forever")
    func kodakAnimation() throws {
        let image = try GIFDecoder().decode(try Corpus.data("bench/anim/kodak-8frames-384x256.gif"), options: DecodingOptions())
        #expect(image.metadata.loopCount == 0)
        #expect(image.metadata.frames.map(\.duration) == Array(repeating: 0.5, count: 8))
        // Each frame is a different photo: no two frames are equal.
        let frames = image.metadata.frames.map { $0.image.packedBytes() }
        #expect(Set(frames.map { $0.hashValue }).count == 8)
        // Same pictures as the lossless WebP of the same frames, up to GIF's 256-colour quantisation.
        let webp = try WebPDecoder().decode(try Corpus.data("bench/anim/kodak-8frames-384x256-lossless.webp"),
                                            options: DecodingOptions())
        for (gifFrame, webpFrame) in zip(image.metadata.frames, webp.metadata.frames) {
            let psnr = WebPGIFTestSupport.psnr(gifFrame.image.packedBytes(), webpFrame.image.packedBytes())
            #expect(psnr > 25)
        }
    }

    static let allSamples = ["gif/image-gif/samples", "gif/swift-libs"].flatMap { folder in
        Corpus.files(in: folder, extensions: ["gif"]).map { "\(folder)/\($0)" }
    }

    @Test("samples decode, consistent with their header", arguments: allSamples)
    func samples(path: String) throws {
        let data = try Corpus.data(path)
        let image = try GIFDecoder().decode(data, options: DecodingOptions())
        let header = try GIFDecoder().readHeader(data)
        #expect(image.width == header.width && image.height == header.height)
        #expect(max(1, image.metadata.frames.count) == header.frameCount)
        #expect(header.hasAlpha == false || image.metadata.hasAlpha)
    }

    @Test("alpha_gif_a has transparent pixels and says so")
    func transparency() throws {
        let image = try GIFDecoder().decode(try Corpus.data("gif/image-gif/samples/alpha_gif_a.gif"), options: DecodingOptions())
        #expect(image.metadata.hasAlpha)
        let pixels = image.packedBytes()
        #expect(stride(from: 3, to: pixels.count, by: 4).contains { pixels[$0] == 0 })
        #expect(stride(from: 3, to: pixels.count, by: 4).contains { pixels[$0] == 255 })
    }

    @Test("a GIF without a loop extension plays once")
    func noLoopExtension() throws {
        var builder = GIFTestBuilder(width: 2, height: 2, palette: [(0, 0, 0), (255, 255, 255)])
        builder.frames = [.init(width: 2, height: 2, indices: [0, 1, 1, 0]), .init(width: 2, height: 2, indices: [1, 0, 0, 1])]
        let image = try GIFDecoder().decode(try builder.encode(), options: DecodingOptions())
        #expect(image.metadata.frames.count == 2)
        #expect(image.metadata.loopCount == 1)
    }

    @Test("the pixel limit applies to the canvas and to all frames together")
    func limits() throws {
        let data = try Corpus.data("gif/image-gif/samples/gifplayer-muybridge.gif")
        #expect(throws: ImagePipelineError.imageTooLarge(width: 472, height: 298, maxPixelCount: 1000)) {
            try GIFDecoder().decode(data, options: DecodingOptions(maxPixelCount: 1000))
        }
        let tenFrames = 472 * 298 * 10
        #expect(throws: ImagePipelineError.imageTooLarge(width: 472, height: 298 * 11, maxPixelCount: tenFrames)) {
            try GIFDecoder().decode(data, options: DecodingOptions(maxPixelCount: tenFrames))
        }
        let first = try GIFDecoder().decode(data, options: DecodingOptions(maxPixelCount: tenFrames, decodesAllFrames: false))
        #expect(first.metadata.frames.isEmpty && first.width == 472)
    }

    @Test("a header claiming a 65535x65535 screen is refused before decoding")
    func hugeScreen() throws {
        // GIF89a, 65535x65535 logical screen, no colour table, then one 1x1 image.
        let bytes: [UInt8] = Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0, 0]
            + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x80, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        #expect(throws: ImagePipelineError.imageTooLarge(width: 65535, height: 65535,
                                                         maxPixelCount: DecodingOptions.defaultMaxPixelCount)) {
            try GIFDecoder().decode(Data(bytes), options: DecodingOptions())
        }
    }

    @Test("first frame only gives the same first frame")
    func firstFrameOnly() throws {
        let data = try Corpus.data("gif/image-gif/samples/moon_impact.gif")
        let all = try GIFDecoder().decode(data, options: DecodingOptions())
        let first = try GIFDecoder().decode(data, options: DecodingOptions(decodesAllFrames: false))
        #expect(first.metadata.frames.isEmpty)
        #expect(WebPGIFTestSupport.difference(first.packedBytes(), all.metadata.frames[0].image.packedBytes()) == nil)
    }

    @Test("a frame claiming 65535x65535 on a 1x1 screen fails on its missing data, allocating one row")
    func hugeFrame() {
        let bytes: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF]
            + [0x2C, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        #expect(throws: ImagePipelineError.self) { try GIFDecoder().decode(Data(bytes), options: DecodingOptions()) }
    }
}
