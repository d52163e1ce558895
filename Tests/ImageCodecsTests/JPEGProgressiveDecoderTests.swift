import Foundation
import ImageCodecs
import ImageCore
import Testing
import TestSupport

@Suite("Progressive JPEG decoder")
struct JPEGProgressiveDecoderTests {
    /// Feeds `data` in chunks of `chunkSize` and returns every preview made.
    static func previews(of data: Data, chunkSize: Int) throws -> [Image] {
        let decoder = ProgressiveJPEGDecoder()
        var previews: [Image] = []
        var offset = 0
        while offset < data.count {
            let chunk = data[offset ..< min(data.count, offset + chunkSize)]
            offset += chunk.count
            if decoder.append(Data(chunk)), let preview = try decoder.makePreview() { previews.append(preview) }
        }
        return previews
    }

    @Test("Progressive JPEG in small chunks: several previews of growing quality, the last equals the plain decode",
          arguments: ["kodim01.jpg", "kodim04.jpg", "kodim23.jpg"])
    func previewsImprove(name: String) throws {
        let data = try Corpus.data("bench/jpeg-q85-progressive/\(name)")
        let final = try JPEGDecoder().decode(data, options: DecodingOptions())
        let previews = try Self.previews(of: data, chunkSize: 2048)
        #expect(previews.count >= 3, "\(previews.count) previews")
        for preview in previews { #expect((preview.width, preview.height, preview.pixelFormat) == (final.width, final.height, final.pixelFormat)) }
        let quality = previews.map { CodecTestHelpers.psnr($0, final) }
        #expect(quality.first! < quality.dropLast().last!, "PSNR per preview: \(quality)")
        #expect(previews.last == final)
    }

    @Test("Chunk size does not change which scans are found")
    func chunkingIndependent() throws {
        let data = try Corpus.data("bench/jpeg-q85-progressive/kodim12.jpg")
        let byByte = try Self.previews(of: data, chunkSize: 1).count
        let whole = ProgressiveJPEGDecoder()
        #expect(whole.append(data))
        #expect(byByte >= 5)
        // Each scan is reported once when fed byte by byte; fed at once, one report covers all of them.
        let odd = try Self.previews(of: data, chunkSize: 977).count
        #expect(odd <= byByte && odd >= 3)
    }

    @Test("Baseline JPEG gives no previews")
    func baselineNoPreview() throws {
        let data = try Corpus.data("bench/jpeg-q85-baseline/kodim01.jpg")
        let decoder = ProgressiveJPEGDecoder()
        var any = false
        var offset = 0
        while offset < data.count {
            any = decoder.append(data[offset ..< min(data.count, offset + 4096)]) || any
            offset += 4096
        }
        #expect(!any)
        #expect(try decoder.makePreview() == nil)
    }

    @Test("Broken marker structure makes the preview throw")
    func brokenStructure() {
        let decoder = ProgressiveJPEGDecoder()
        _ = decoder.append(Data([0xFF, 0xD8, 0xFF, 0xC2, 0x00, 0x04, 0x00, 0x00, 0x12, 0x34]))
        #expect(throws: ImagePipelineError.self) { try decoder.makePreview() }
    }
}
