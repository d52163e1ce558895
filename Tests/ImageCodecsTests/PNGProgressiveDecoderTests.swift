import Foundation
import ImageCodecs
import ImageCore
import Testing
import TestSupport

@Suite("Progressive PNG decoder")
struct PNGProgressiveDecoderTests {
    static let interlaced = Corpus.files(in: "pngsuite", extensions: ["png"]).filter {
        $0.dropFirst(3).hasPrefix("i") && PngSuite.index[$0]?.valid == true
    }

    static func feed(_ data: Data, chunkSize: Int) throws -> (decoder: ProgressivePNGDecoder, previews: [Image]) {
        let decoder = ProgressivePNGDecoder()
        var previews: [Image] = []
        var offset = 0
        while offset < data.count {
            let chunk = data[offset ..< min(data.count, offset + chunkSize)]
            offset += chunk.count
            if decoder.append(Data(chunk)), let preview = try decoder.makePreview() { previews.append(preview) }
        }
        return (decoder, previews)
    }

    @Test("Interlaced files: a preview per pass, the last equals the plain decode", arguments: interlaced)
    func interlacedPasses(name: String) throws {
        let data = try Corpus.data("pngsuite/\(name)")
        let final = try PNGDecoder().decode(data, options: DecodingOptions())
        let (_, previews) = try Self.feed(data, chunkSize: 8)
        #expect(previews.count >= 2, "\(previews.count) previews")
        for preview in previews { #expect((preview.width, preview.height, preview.pixelFormat) == (final.width, final.height, final.pixelFormat)) }
        #expect(previews.last == final)
    }

    /// What a preview after `passes` Adam7 passes must look like: each pixel repeats the
    /// final pixel at the top-left corner of its block.
    static func blocky(_ final: Image, passes: Int) -> [UInt8] {
        let (blockWidth, blockHeight) = [(8, 8), (4, 8), (4, 4), (2, 4), (2, 2), (1, 2), (1, 1)][passes - 1]
        let pixels = final.converted(to: .rgba8).packedBytes()
        var result = pixels
        for y in 0 ..< final.height {
            for x in 0 ..< final.width {
                let corner = ((y / blockHeight * blockHeight) * final.width + x / blockWidth * blockWidth) * 4
                for channel in 0 ..< 4 { result[(y * final.width + x) * 4 + channel] = pixels[corner + channel] }
            }
        }
        return result
    }

    @Test("Pass previews are the decoded pixels replicated over their Adam7 blocks",
          arguments: ["basi2c08.png", "basi6a08.png", "basi0g04.png", "basi3p02.png"])
    func blockyPreviews(name: String) throws {
        let data = try Corpus.data("pngsuite/\(name)")
        let final = try PNGDecoder().decode(data, options: DecodingOptions())
        let (_, previews) = try Self.feed(data, chunkSize: 1)
        #expect(previews.count >= 2)
        var lastPasses = 0
        for preview in previews {
            let pixels = preview.converted(to: .rgba8).packedBytes()
            // Some images look the same after different pass counts: take the first one past the last preview's.
            let passes = try #require((lastPasses + 1 ... 7).first { Self.blocky(final, passes: $0) == pixels },
                                      "preview matches no pass count after \(lastPasses)")
            lastPasses = passes
        }
        #expect(lastPasses == 7)
    }

    @Test("Non-interlaced PNG: no preview until the end, then the whole image")
    func nonInterlaced() throws {
        let data = try Corpus.data("bench/png-rgba/kodim23.png")
        let (decoder, previews) = try Self.feed(data, chunkSize: 4096)
        #expect(previews.count == 1)
        #expect(previews.first == (try PNGDecoder().decode(data, options: DecodingOptions())))
        #expect(try decoder.makePreview() != nil)
    }

    @Test("Corrupt data makes the preview throw", arguments: PngSuite.invalid)
    func corrupt(name: String) throws {
        let (decoder, _) = try Self.feed(try Corpus.data("pngsuite/\(name)"), chunkSize: 64)
        #expect(throws: ImagePipelineError.self) { try decoder.makePreview() }
    }
}
