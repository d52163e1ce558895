import Foundation
import ImageCodecs
import ImageCore
import Testing
import TestSupport

@Suite("JPEG encoder")
struct JPEGEncoderTests {
    static let kodak = ["kodim03.png", "kodim15.png", "kodim23.png"]

    @Test("Round trip at quality 90 keeps PSNR >= 30 dB for every chroma subsampling",
          arguments: kodak, JPEGEncoder.ChromaSubsampling.allCases)
    func roundTrip(name: String, subsampling: JPEGEncoder.ChromaSubsampling) throws {
        let original = try PNGDecoder().decode(try Corpus.data("kodak/\(name)"), options: DecodingOptions())
        let data = try JPEGEncoder(quality: 90, chromaSubsampling: subsampling).encode(original)
        #expect(ImageFormat.sniff(data) == .jpeg)
        let decoded = try JPEGDecoder().decode(data, options: DecodingOptions())
        #expect((decoded.width, decoded.height) == (original.width, original.height))
        let psnr = CodecTestHelpers.psnr(original, decoded)
        #expect(psnr >= 30, "PSNR \(psnr) dB")
    }

    @Test("Quality changes size; progressive output is progressive")
    func qualityAndProgressive() throws {
        let original = try PNGDecoder().decode(try Corpus.data("kodak/kodim23.png"), options: DecodingOptions())
        let low = try JPEGEncoder(quality: 30).encode(original)
        let high = try JPEGEncoder(quality: 95).encode(original)
        #expect(low.count < high.count)
        let progressive = try JPEGEncoder(quality: 85, progressive: true).encode(original)
        #expect(try JPEGDecoder().readHeader(progressive).isProgressive)
        #expect(try !JPEGDecoder().readHeader(high).isProgressive)
    }

    @Test("Alpha is dropped: the stored colour is written, alpha reads back 255")
    func alphaDropped() throws {
        let pixels: [UInt8] = Array([[UInt8]](repeating: [200, 100, 50, 0], count: 32 * 32).joined())
        let image = Image(width: 32, height: 32, pixelFormat: .rgba8, packed: pixels)
        let decoded = try JPEGDecoder().decode(try JPEGEncoder(quality: 95).encode(image), options: DecodingOptions())
        let bytes = decoded.packedBytes()
        #expect(bytes[3] == 255)
        #expect(abs(Int(bytes[0]) - 200) <= 3 && abs(Int(bytes[1]) - 100) <= 3 && abs(Int(bytes[2]) - 50) <= 3)
    }

    @Test("An encode after a progressive encode is still valid (TurboJPEG handle state must not leak)")
    func encodeAfterProgressive() throws {
        let colour = try PNGDecoder().decode(try Corpus.data("pngsuite/basn2c08.png"), options: DecodingOptions())
        let gray = try PNGDecoder().decode(try Corpus.data("pngsuite/basn0g08.png"), options: DecodingOptions())
        for _ in 0 ..< 3 {
            _ = try JPEGEncoder(progressive: true).encode(colour)
            let decoded = try JPEGDecoder().decode(try JPEGEncoder(quality: 95).encode(gray), options: DecodingOptions())
            #expect(CodecTestHelpers.psnr(gray, decoded) >= 30)
        }
    }
}
