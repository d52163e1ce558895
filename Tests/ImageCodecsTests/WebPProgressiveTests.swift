import Foundation
import ImageCodecs
import ImageCore
import Testing
import TestSupport

@Suite("Progressive WebP")
struct WebPProgressiveTests {
    /// Feeds `data` in `chunkSize` pieces, making a preview whenever the decoder offers one.
    static func feed(_ data: Data, chunkSize: Int, decoder: ProgressiveWebPDecoder) throws -> [Image] {
        var previews: [Image] = []
        var offset = 0
        while offset < data.count {
            let end = min(data.count, offset + chunkSize)
            if decoder.append(data.subdata(in: offset ..< end)), let preview = try decoder.makePreview() {
                previews.append(preview)
            }
            offset = end
        }
        return previews
    }

    @Test("small chunks give growing previews; the last matches the full decode",
          arguments: ["gallery1/3.webp", "gallery1/5.webp", "gallery2/2_webp_a.webp", "gallery2/2_webp_ll.webp"])
    func previews(path: String) throws {
        let data = try Corpus.data("webp/image-webp/\(path)")
        let full = try WebPDecoder().decode(data, options: DecodingOptions())
        let decoder = ProgressiveWebPDecoder()
        let previews = try Self.feed(data, chunkSize: 1024, decoder: decoder)
        #expect(previews.count >= 2, "\(path): \(previews.count) previews")
        let rowLength = full.width * 4
        let fullPixels = full.packedBytes()
        var previousRows = 0
        for preview in previews {
            #expect(preview.width == full.width && preview.height == full.height)
            let pixels = preview.packedBytes()
            // Decoded rows are a prefix of the final image; the rest is transparent black.
            var decodedRows = 0
            while decodedRows < full.height,
                  pixels[decodedRows * rowLength ..< (decodedRows + 1) * rowLength]
                      == fullPixels[decodedRows * rowLength ..< (decodedRows + 1) * rowLength] {
                decodedRows += 1
            }
            #expect(pixels[(decodedRows * rowLength)...].allSatisfy { $0 == 0 } || decodedRows == full.height)
            #expect(decodedRows >= previousRows)
            previousRows = decodedRows
        }
        #expect(previousRows > 0)
        // With every byte in, a last preview (if offered) is the whole image.
        if let last = try decoder.makePreview() { #expect(WebPGIFTestSupport.difference(last.packedBytes(), fullPixels) == nil) }
    }

    @Test("animated WebP gives no previews")
    func animated() throws {
        let data = try Corpus.data("bench/anim/kodak-8frames-384x256-lossy.webp")
        let decoder = ProgressiveWebPDecoder()
        let previews = try Self.feed(data, chunkSize: 4096, decoder: decoder)
        #expect(previews.isEmpty)
        #expect(try decoder.makePreview() == nil)
    }

    @Test("a damaged VP8 start code is reported by makePreview")
    func corrupt() throws {
        var bytes = [UInt8](try Corpus.data("webp/image-webp/gallery1/1.webp"))
        #expect(bytes[23 ..< 26] == [0x9D, 0x01, 0x2A])   // the key frame start code
        bytes[23] = 0
        let decoder = ProgressiveWebPDecoder()
        #expect(decoder.append(Data(bytes)) == false)
        #expect(throws: ImagePipelineError.self) { try decoder.makePreview() }
    }
}
