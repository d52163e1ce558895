import Foundation
import ImageCodecs
import ImageCore
import Testing
import TestSupport

@Suite("PNG encoder")
struct PNGEncoderTests {
    @Test("Round trip is exact", arguments: ["kodak/kodim05.png", "bench/png-rgba/kodim23.png", "pngsuite/basn0g08.png",
                                             "pngsuite/tbrn2c08.png", "pngsuite/basn4a16.png"])
    func roundTrip(path: String) throws {
        let original = try PNGDecoder().decode(try Corpus.data(path), options: DecodingOptions())
        let data = try PNGEncoder().encode(original)
        #expect(ImageFormat.sniff(data) == .png)
        let decoded = try PNGDecoder().decode(data, options: DecodingOptions())
        #expect(decoded.pixelFormat == original.pixelFormat)
        #expect(decoded.packedBytes() == original.packedBytes())
    }

    @Test("Opaque RGBA is written as RGB, transparent as RGBA, gray as gray")
    func colourTypes() throws {
        let opaque = try PNGDecoder().decode(try Corpus.data("kodak/kodim01.png"), options: DecodingOptions())
        let alpha = try PNGDecoder().decode(try Corpus.data("bench/png-rgba/kodim01.png"), options: DecodingOptions())
        let gray = try PNGDecoder().decode(try Corpus.data("pngsuite/basn0g08.png"), options: DecodingOptions())
        // Byte 25 of a PNG is the IHDR colour type.
        #expect(try PNGEncoder().encode(opaque)[25] == 2)
        #expect(try PNGEncoder().encode(alpha)[25] == 6)
        #expect(try PNGEncoder().encode(gray)[25] == 0)
    }

    @Test("Compression level trades size")
    func compressionLevel() throws {
        let image = try PNGDecoder().decode(try Corpus.data("kodak/kodim03.png"), options: DecodingOptions())
        let stored = try PNGEncoder(compressionLevel: 0).encode(image)
        let best = try PNGEncoder(compressionLevel: 9).encode(image)
        #expect(best.count < stored.count)
        #expect(stored.count > image.width * image.height * 3)
    }

    @Test("Premultiplied input is un-premultiplied")
    func premultiplied() throws {
        let straight = Image(width: 2, height: 1, pixelFormat: .rgba8, packed: [200, 100, 50, 128, 10, 20, 30, 255])
        let decoded = try PNGDecoder().decode(try PNGEncoder().encode(straight.converted(to: .rgba8Premultiplied)),
                                              options: DecodingOptions())
        let bytes = decoded.packedBytes()
        #expect(bytes[4 ..< 8] == [10, 20, 30, 255])
        #expect(abs(Int(bytes[0]) - 200) <= 1 && bytes[3] == 128)
    }
}
