import Foundation
import ImageCodecs
import ImageCore
import Testing
import TestSupport

@Suite("JPEG decoder")
struct JPEGDecoderTests {
    static let exifFiles = Corpus.files(in: "exif-orientation", extensions: ["jpg"])
    static let benchFiles = Corpus.files(in: "bench/jpeg-q85-baseline", extensions: ["jpg"]).map { "bench/jpeg-q85-baseline/\($0)" }
        + Corpus.files(in: "bench/jpeg-q85-progressive", extensions: ["jpg"]).map { "bench/jpeg-q85-progressive/\($0)" }
    static let otherCorpusFiles = Corpus.files(in: "bench/http-50k", extensions: ["jpg"]).map { "bench/http-50k/\($0)" }
        + Corpus.files(in: "bench/jpeg-4000x3000-q90", extensions: ["jpg"]).map { "bench/jpeg-4000x3000-q90/\($0)" }

    @Test("EXIF orientation and stored size", arguments: exifFiles)
    func exifOrientation(name: String) throws {
        let data = try Corpus.data("exif-orientation/\(name)")
        let tag = Int(name.split(separator: "_").last!.prefix(while: \.isNumber))!
        let expected = ExifOrientation(exifValue: tag)
        let header = try JPEGDecoder().readHeader(data)
        let image = try JPEGDecoder().decode(data, options: DecodingOptions())
        #expect(header.orientation == expected)
        #expect(image.metadata.orientation == expected)
        #expect(image.metadata.sourceFormat == .jpeg)
        // Every file displays as 1800x1200 (Landscape) or 1200x1800 (Portrait) once the tag is applied.
        let landscape = name.hasPrefix("Landscape")
        let displayed = expected.swapsDimensions ? (image.height, image.width) : (image.width, image.height)
        #expect(displayed == (landscape ? (1800, 1200) : (1200, 1800)))
        #expect((header.width, header.height) == (image.width, image.height))
    }

    @Test("Kodak bench JPEGs, baseline and progressive", arguments: benchFiles)
    func benchJPEG(path: String) throws {
        let data = try Corpus.data(path)
        let header = try JPEGDecoder().readHeader(data)
        let image = try JPEGDecoder().decode(data, options: DecodingOptions())
        #expect(header.isProgressive == path.contains("progressive"))
        #expect(image.pixelFormat == .rgba8)
        #expect([(768, 512), (512, 768)].contains { $0 == (image.width, image.height) })
        #expect(image.metadata.hasAlpha == false)
    }

    @Test("Every other corpus JPEG decodes (no harmless warning turns into an error)", arguments: otherCorpusFiles)
    func otherCorpusJPEG(path: String) throws {
        let data = try Corpus.data(path)
        let header = try JPEGDecoder().readHeader(data)
        let image = try JPEGDecoder().decode(data, options: DecodingOptions())
        #expect((image.width, image.height) == (header.width, header.height))
    }

    @Test("DCT scaling picks the smallest scale that covers the minimum size")
    func dctScaling() throws {
        let data = try Corpus.data("bench/jpeg-4000x3000-q90/kodim05-baseline.jpg")
        let decoder = JPEGDecoder()
        let eighth = try decoder.decode(data, options: DecodingOptions(minimumSize: PixelSize(width: 400, height: 300)))
        #expect((eighth.width, eighth.height) == (500, 375))
        let quarter = try decoder.decode(data, options: DecodingOptions(minimumSize: PixelSize(width: 501, height: 300)))
        #expect((quarter.width, quarter.height) == (1000, 750))
        let full = try decoder.decode(data, options: DecodingOptions(minimumSize: PixelSize(width: 3999, height: 2000)))
        #expect((full.width, full.height) == (4000, 3000))
        let larger = try decoder.decode(data, options: DecodingOptions(minimumSize: PixelSize(width: 8000, height: 6000)))
        #expect((larger.width, larger.height) == (4000, 3000), "never enlarges")
    }

    @Test("DCT scaling compares the minimum with the stored size, whatever the EXIF orientation")
    func dctScalingUsesStoredOrientation() throws {
        let data = try Corpus.data("exif-orientation/Landscape_6.jpg")   // stored 1200x1800, displayed 1800x1200
        let image = try JPEGDecoder().decode(data, options: DecodingOptions(minimumSize: PixelSize(width: 150, height: 225)))
        #expect((image.width, image.height) == (150, 225))
        #expect(image.metadata.orientation == .right)
        // 225 wide in stored orientation needs 1/4 scale (300x450), not 1/8.
        let wider = try JPEGDecoder().decode(data, options: DecodingOptions(minimumSize: PixelSize(width: 225, height: 150)))
        #expect((wider.width, wider.height) == (300, 450))
    }

    @Test("A 60000x60000 header is refused before any allocation")
    func hugeHeader() throws {
        var data = [UInt8](try Corpus.data("bench/jpeg-q85-baseline/kodim01.jpg"))
        let sof = try #require((2 ..< data.count - 9).first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 })
        data[sof + 5] = 0xEA; data[sof + 6] = 0x60   // height 60000
        data[sof + 7] = 0xEA; data[sof + 8] = 0x60   // width 60000
        #expect(throws: ImagePipelineError.imageTooLarge(width: 60000, height: 60000, maxPixelCount: DecodingOptions.defaultMaxPixelCount)) {
            try JPEGDecoder().decode(Data(data), options: DecodingOptions())
        }
        let header = try JPEGDecoder().readHeader(Data(data))
        #expect((header.width, header.height) == (60000, 60000))
    }

    @Test("The pixel limit applies to ordinary files too")
    func pixelLimit() throws {
        let data = try Corpus.data("bench/jpeg-q85-baseline/kodim01.jpg")
        #expect(throws: ImagePipelineError.imageTooLarge(width: 768, height: 512, maxPixelCount: 1000)) {
            try JPEGDecoder().decode(data, options: DecodingOptions(maxPixelCount: 1000))
        }
    }

    @Test("Truncated JPEGs are corrupt data, never a grey-padded image",
          arguments: ["bench/jpeg-q85-baseline/kodim03.jpg", "bench/jpeg-q85-progressive/kodim03.jpg"])
    func truncated(path: String) throws {
        let data = try Corpus.data(path)
        for offset in CodecTestHelpers.truncationOffsets(count: data.count) {
            #expect(throws: ImagePipelineError.self, "cut at \(offset) of \(data.count)") {
                try JPEGDecoder().decode(data.prefix(offset), options: DecodingOptions())
            }
        }
    }

    @Test("Random byte flips give a typed error or an image, never a crash")
    func byteFlips() throws {
        let original = [UInt8](try Corpus.data("bench/http-50k/kodim07.jpg"))
        let header = try JPEGDecoder().readHeader(Data(original))
        var generator = SeededGenerator(seed: 0x1BAD_5EED)
        var failures = 0
        for _ in 0 ..< 150 {
            var damaged = original
            for _ in 0 ..< Int.random(in: 1 ... 6, using: &generator) {
                damaged[Int.random(in: 0 ..< damaged.count, using: &generator)] = UInt8.random(in: 0 ... 255, using: &generator)
            }
            do {
                let image = try JPEGDecoder().decode(Data(damaged), options: DecodingOptions(maxPixelCount: 4_000_000))
                #expect(image.width > 0 && image.height > 0)
            } catch {
                failures += 1   // typed: ImagePipelineError by the signature
            }
        }
        // A flip in the entropy data often decodes to a damaged image, but flips in headers must fail.
        #expect(failures > 0)
        #expect(header.width == 640 || header.height == 640)
    }

    @Test("Extraneous bytes before a marker are a harmless warning")
    func extraneousBytes() throws {
        var data = [UInt8](try Corpus.data("bench/jpeg-q85-baseline/kodim01.jpg"))
        #expect(data.suffix(2) == [0xFF, 0xD9])
        data.insert(contentsOf: [0x12, 0x34, 0x56], at: data.count - 2)
        let image = try JPEGDecoder().decode(Data(data), options: DecodingOptions())
        let plain = try JPEGDecoder().decode(try Corpus.data("bench/jpeg-q85-baseline/kodim01.jpg"), options: DecodingOptions())
        #expect(image == plain)
    }

    @Test("Adobe CMYK JPEG decodes to the right RGB")
    func adobeCMYK() throws {
        let image = try JPEGDecoder().decode(CodecTestHelpers.adobeCMYKJPEG, options: DecodingOptions())
        #expect(image.pixelFormat == .rgba8)
        #expect((image.width, image.height) == (16, 16))
        let pixels = image.packedBytes()
        var worst = 0
        for y in 0 ..< 16 {
            for x in 0 ..< 16 {
                let p = (y * 16 + x) * 4
                let expected = [255 - 16 * y, 16 * x, 16 * y, 255]
                for channel in 0 ..< 4 { worst = max(worst, abs(Int(pixels[p + channel]) - expected[channel])) }
            }
        }
        #expect(worst <= 8, "largest channel error \(worst)")
    }

    @Test("Grayscale JPEG decodes to gray8")
    func grayscale() throws {
        var gray = Image(width: 64, height: 48, pixelFormat: .gray8)
        let stride = gray.bytesPerRow
        gray.withUnsafeMutableBytes { bytes in
            for y in 0 ..< 48 { for x in 0 ..< 64 { bytes[y * stride + x] = UInt8((x * 4 + y) & 0xFF) } }
        }
        let data = try JPEGEncoder(quality: 95).encode(gray)
        let decoded = try JPEGDecoder().decode(data, options: DecodingOptions())
        #expect(decoded.pixelFormat == .gray8)
        #expect(CodecTestHelpers.psnr(gray, decoded) >= 35)
    }

    @Test("Garbage and tiny inputs are corrupt data")
    func garbage() {
        for bytes: [UInt8] in [[], [0xFF], [0xFF, 0xD8], [0xFF, 0xD8, 0xFF, 0xE0], [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0x41, count: 300)] {
            #expect(throws: ImagePipelineError.self) { try JPEGDecoder().decode(Data(bytes), options: DecodingOptions()) }
            #expect(throws: ImagePipelineError.self) { try JPEGDecoder().readHeader(Data(bytes)) }
        }
    }

    @Test("A failed or truncated decode does not spoil the next one on the same thread")
    func decodeAfterFailure() throws {
        let data = try Corpus.data("bench/jpeg-q85-progressive/kodim09.jpg")
        let plain = try JPEGDecoder().decode(data, options: DecodingOptions())
        for cut in [data.count / 2, 20, data.count - 2] {
            #expect(throws: ImagePipelineError.self) { try JPEGDecoder().decode(data.prefix(cut), options: DecodingOptions()) }
            #expect(try JPEGDecoder().decode(data, options: DecodingOptions()) == plain)
        }
        #expect(throws: ImagePipelineError.self) { try JPEGDecoder().decode(Data([0xFF, 0xD8, 0xFF, 0x41, 0x41, 0x41]), options: DecodingOptions()) }
        #expect(try JPEGDecoder().decode(data, options: DecodingOptions()) == plain)
    }
}
