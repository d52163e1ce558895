import Foundation
import ImageCodecs
import ImageCore
import Testing
import TestSupport

@Suite("WebP encoder")
struct WebPEncoderTests {
    @Test("lossless round trip is bit-exact, transparent pixels' colour included")
    func losslessExact() throws {
        let original = WebPGIFTestSupport.syntheticPhoto(width: 301, height: 97, alpha: true)
        #expect(original.packedBytes().enumerated().contains { $0.offset % 4 == 3 && $0.element == 0 })
        let data = try WebPEncoder(compression: .lossless).encode(original)
        let decoded = try WebPDecoder().decode(data, options: DecodingOptions())
        #expect(WebPGIFTestSupport.difference(decoded.packedBytes(), original.packedBytes()) == nil)
        #expect(decoded.metadata.hasAlpha)
    }

    @Test("lossless round trip of a decoded corpus photo", arguments: ["kodim05", "kodim23"])
    func losslessCorpus(name: String) throws {
        let original = try WebPDecoder().decode(try Corpus.data("bench/webp-q80/\(name).webp"), options: DecodingOptions())
        let decoded = try WebPDecoder().decode(try WebPEncoder(compression: .lossless).encode(original),
                                               options: DecodingOptions())
        #expect(WebPGIFTestSupport.difference(decoded.packedBytes(), original.packedBytes()) == nil)
    }

    /// 30 dB at quality 80 is well below what libwebp reaches on a photo (about 38–40 dB on
    /// these decoded Kodak images) and well above a broken encode (under 15 dB).
    @Test("lossy round trip at quality 80 stays above 30 dB PSNR", arguments: ["kodim05", "kodim23"])
    func lossyPSNR(name: String) throws {
        let original = try WebPDecoder().decode(try Corpus.data("bench/webp-q80/\(name).webp"), options: DecodingOptions())
        let data = try WebPEncoder().encode(original)
        let decoded = try WebPDecoder().decode(data, options: DecodingOptions())
        #expect(decoded.width == original.width && decoded.height == original.height)
        let psnr = WebPGIFTestSupport.psnr(original.packedBytes(), decoded.packedBytes())
        print("WebP q80 round trip \(name): \(String(format: "%.2f", psnr)) dB, \(data.count) bytes")
        #expect(psnr >= 30)
        #expect(data.count < original.width * original.height)   // under 8 bits per pixel
    }

    @Test("lower quality gives fewer bytes")
    func qualityMatters() throws {
        let image = WebPGIFTestSupport.syntheticPhoto(width: 256, height: 256, alpha: false)
        let small = try WebPEncoder(compression: .lossy(quality: 10)).encode(image)
        let large = try WebPEncoder(compression: .lossy(quality: 95)).encode(image)
        #expect(small.count < large.count)
    }

    @Test("gray and premultiplied input are converted before encoding")
    func otherPixelFormats() throws {
        let rgba = WebPGIFTestSupport.syntheticPhoto(width: 64, height: 48, alpha: true)
        let premultiplied = rgba.converted(to: .rgba8Premultiplied)
        let decoded = try WebPDecoder().decode(try WebPEncoder(compression: .lossless).encode(premultiplied),
                                               options: DecodingOptions())
        #expect(WebPGIFTestSupport.difference(decoded.packedBytes(), premultiplied.converted(to: .rgba8).packedBytes()) == nil)
        let gray = rgba.converted(to: .gray8)
        let grayDecoded = try WebPDecoder().decode(try WebPEncoder(compression: .lossless).encode(gray),
                                                   options: DecodingOptions())
        #expect(WebPGIFTestSupport.difference(grayDecoded.packedBytes(), gray.converted(to: .rgba8).packedBytes()) == nil)
    }

    @Test("an image wider than WebP allows is refused with a typed error")
    func tooWide() {
        let image = Image(width: 16_384, height: 1, pixelFormat: .gray8)
        #expect(throws: ImagePipelineError.self) { try WebPEncoder().encode(image) }
    }
}
