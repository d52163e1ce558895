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

    @Test("A large interlaced PNG gives blocky pass previews")
    func largeInterlaced() throws {
        let data = try Corpus.data("pngsuite/basi2c08.png")
        let final = try PNGDecoder().decode(data, options: DecodingOptions())
        let (_, previews) = try Self.feed(data, chunkSize: 16)
        let first = try #require(previews.first)
        // After the first pass every pixel repeats the top-left pixel of its 8x8 block, which is final.
        let a = first.converted(to: .rgba8).packedBytes(), b = final.converted(to: .rgba8).packedBytes()
        for y in 0 ..< first.height {
            for x in 0 ..< first.width {
                let here = (y * first.width + x) * 4, corner = ((y & ~7) * first.width + (x & ~7)) * 4
                #expect(a[here ..< here + 4] == b[corner ..< corner + 4])
            }
        }
        #expect(CodecTestHelpers.psnr(previews[previews.count / 2], final) > CodecTestHelpers.psnr(first, final))
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
