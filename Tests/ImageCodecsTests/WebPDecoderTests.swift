import Foundation
import ImageCodecs
import ImageCore
import Testing
import TestSupport

@Suite("WebP decoder")
struct WebPDecoderTests {
    static let libwebpFiles = Corpus.files(in: "webp/libwebp-test-data", extensions: ["webp"])

    @Test("libwebp-test-data decodes like dwebp, or fails with a typed error", arguments: libwebpFiles)
    func libwebpTestData(name: String) throws {
        let data = try Corpus.data("webp/libwebp-test-data/\(name)")
        let expectedMD5 = WebPGIFTestSupport.libwebpPAMChecksums[name]
        do {
            let image = try WebPDecoder().decode(data, options: DecodingOptions())
            #expect(image.pixelFormat == .rgba8)
            #expect(image.metadata.sourceFormat == .webp)
            if let expectedMD5 {
                #expect(WebPGIFTestSupport.pamMD5(image) == expectedMD5, "\(name) differs from dwebp's output")
            }
            let header = try WebPDecoder().readHeader(data)
            #expect(header.width == image.width && header.height == image.height)
            #expect(header.hasAlpha == image.metadata.hasAlpha)
        } catch {
            print("libwebp-test-data \(name): \(error)")
            // The error is typed (ImagePipelineError). dwebp produced an output for every file in the MD5 list, so those must decode.
            #expect(expectedMD5 == nil, "\(name) failed: \(error)")
        }
    }

    @Test("the checksum list covers most of the test data")
    func checksumListLoaded() {
        #expect(WebPGIFTestSupport.libwebpPAMChecksums.count >= 90)
    }

    /// lossless_vec_list.txt: every lossless_vec_1_* is the same RGBA grid of blue (0,0,255,255)
    /// and half-transparent red (255,0,0,128) pixels, alternating.
    @Test("lossless test vectors decode to the documented grid",
          arguments: libwebpFiles.filter { $0.hasPrefix("lossless_vec_1_") })
    func losslessGrid(name: String) throws {
        let image = try WebPDecoder().decode(try Corpus.data("webp/libwebp-test-data/\(name)"), options: DecodingOptions())
        let pixels = image.packedBytes()
        let blue: [UInt8] = [0, 0, 255, 255], red: [UInt8] = [255, 0, 0, 128]
        var mismatches = 0
        for y in 0 ..< image.height {
            for x in 0 ..< image.width {
                let index = (y * image.width + x) * 4
                let expected = (x + y) % 2 == 0 ? blue : red
                if Array(pixels[index ..< index + 4]) != expected { mismatches += 1 }
            }
        }
        #expect(mismatches == 0, "\(name): \(mismatches) pixels off the grid")
    }

    @Test("lossless test vectors of the second set all decode to the same opaque picture")
    func losslessPeak() throws {
        let names = Self.libwebpFiles.filter { $0.hasPrefix("lossless_vec_2_") }
        #expect(names.count >= 10)
        let images = try names.map { try WebPDecoder().decode(try Corpus.data("webp/libwebp-test-data/\($0)"),
                                                              options: DecodingOptions()) }
        for (name, image) in zip(names, images) {
            #expect(WebPGIFTestSupport.difference(image.packedBytes(), images[0].packedBytes()) == nil, "\(name) differs from \(names[0])")
        }
        let alpha = images[0].packedBytes().enumerated().filter { $0.offset % 4 == 3 }.map(\.element)
        #expect(alpha.allSatisfy { $0 == 255 })
    }

    static let referenced: [String] = ["gallery2", "regression"].flatMap { folder in
        Corpus.files(in: "webp/image-webp/\(folder)", extensions: ["webp"]).map { "\(folder)/\($0)" }
    }

    @Test("image-webp files match their dwebp reference PNGs exactly", arguments: referenced)
    func matchesReference(path: String) throws {
        let image = try WebPDecoder().decode(try Corpus.data("webp/image-webp/\(path)"), options: DecodingOptions())
        let reference = try WebPGIFTestSupport.referencePNG(
            "webp/image-webp/reference/\(path.dropLast(5)).png")
        #expect(image.width == reference.width && image.height == reference.height)
        #expect(WebPGIFTestSupport.difference(image.packedBytes(), reference.rgba) == nil)
    }

    @Test("lossy gallery files decode opaque at their size", arguments: [
        ("1.webp", 550, 368), ("2.webp", 550, 404), ("3.webp", 1280, 720), ("4.webp", 1024, 772), ("5.webp", 1024, 752),
    ])
    func gallery1(name: String, width: Int, height: Int) throws {
        let image = try WebPDecoder().decode(try Corpus.data("webp/image-webp/gallery1/\(name)"), options: DecodingOptions())
        #expect(image.width == width && image.height == height)
        #expect(!image.metadata.hasAlpha)
        #expect(image.bytesPerRow % 64 == 0)
    }

    @Test("alpha is reported from the bitstream features")
    func alphaFlag() throws {
        let withAlpha = try WebPDecoder().decode(try Corpus.data("webp/image-webp/gallery2/1_webp_a.webp"),
                                                 options: DecodingOptions())
        #expect(withAlpha.metadata.hasAlpha)
        let pixels = withAlpha.packedBytes()
        #expect(stride(from: 3, to: pixels.count, by: 4).contains { pixels[$0] < 255 })
    }

    @Test("the pixel limit is checked from the header")
    func pixelLimit() throws {
        let data = try Corpus.data("webp/image-webp/gallery1/3.webp")
        #expect(throws: ImagePipelineError.imageTooLarge(width: 1280, height: 720, maxPixelCount: 1000)) {
            try WebPDecoder().decode(data, options: DecodingOptions(maxPixelCount: 1000))
        }
    }

    static func le24(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { le24(value) + [UInt8(value >> 24 & 0xFF)] }
    static func riff(_ chunks: [UInt8]) -> Data {
        let body = Array("WEBP".utf8) + chunks
        return Data(Array("RIFF".utf8) + le32(body.count) + body)
    }

    /// An animated VP8X header declaring a 60000x60000 canvas, with an empty ANIM chunk and no frames.
    static func hugeAnimatedCanvas() -> Data {
        riff(Array("VP8X".utf8) + le32(10) + [0x02, 0, 0, 0] + le24(59_999) + le24(59_999)
             + Array("ANIM".utf8) + le32(6) + [0, 0, 0, 0, 0, 0])
    }

    /// A bare VP8L header declaring 16384x16384 (the format's maximum), with no image data.
    static func hugeLossless() -> Data {
        // Signature 0x2F, then 14 bits width-1, 14 bits height-1, alpha bit, 3 version bits.
        riff(Array("VP8L".utf8) + le32(5) + [0x2F, 0xFF, 0xFF, 0xFF, 0x0F, 0])
    }

    @Test("a huge canvas is refused from the header", arguments: [
        (hugeAnimatedCanvas(), 60000), (hugeLossless(), 16384),
    ])
    func hugeCanvas(data: Data, side: Int) {
        #expect(throws: ImagePipelineError.imageTooLarge(width: side, height: side,
                                                         maxPixelCount: DecodingOptions.defaultMaxPixelCount)) {
            try WebPDecoder().decode(data, options: DecodingOptions())
        }
        let progressive = ProgressiveWebPDecoder()
        #expect(progressive.append(data) == false)
        #expect(throws: ImagePipelineError.imageTooLarge(width: side, height: side,
                                                         maxPixelCount: DecodingOptions.defaultMaxPixelCount)) {
            try progressive.makePreview()
        }
    }

    @Test("empty and non-WebP data give typed errors")
    func garbage() {
        for bytes in [Data(), Data("RIFF".utf8), Data(repeating: 0, count: 64)] {
            #expect(throws: ImagePipelineError.self) { try WebPDecoder().decode(bytes, options: DecodingOptions()) }
            #expect(throws: ImagePipelineError.self) { try WebPDecoder().readHeader(bytes) }
        }
    }
}
