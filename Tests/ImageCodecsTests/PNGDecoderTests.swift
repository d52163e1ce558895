import Foundation
import ImageCodecs
import ImageCore
import Testing
import TestSupport

struct PngSuiteEntry: Decodable, Sendable {
    var width: Int?
    var height: Int?
    var sixteenBit: Bool?
    var valid: Bool
}

enum PngSuite {
    static let index: [String: PngSuiteEntry] = {
        guard let data = try? Corpus.data("expected/pngsuite/index.json") else { return [:] }
        return (try? JSONDecoder().decode([String: PngSuiteEntry].self, from: data)) ?? [:]
    }()
    static let valid = index.filter { $0.value.valid }.keys.sorted()
    static let invalid = index.filter { !$0.value.valid }.keys.sorted()
}

@Suite("PNG decoder")
struct PNGDecoderTests {
    @Test("Corpus index is present")
    func indexPresent() {
        #expect(PngSuite.valid.count > 150)
        #expect(PngSuite.invalid.count == 14)
    }

    @Test("Valid PngSuite files match the reference pixels", arguments: PngSuite.valid)
    func validFile(name: String) throws {
        let entry = try #require(PngSuite.index[name])
        let image = try PNGDecoder().decode(try Corpus.data("pngsuite/\(name)"), options: DecodingOptions())
        #expect((image.width, image.height) == (entry.width, entry.height))
        let expected = [UInt8](try Corpus.data("expected/pngsuite/\(name.dropLast(4)).rgba"))
        let actual = image.converted(to: .rgba8).packedBytes()
        try #require(actual.count == expected.count)
        let tolerance = entry.sixteenBit == true ? 1 : 0
        let worst = zip(actual, expected).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
        #expect(worst <= tolerance, "largest difference \(worst)")
        // Gray without tRNS stays gray8; everything else is RGBA.
        let header = try PNGDecoder().readHeader(try Corpus.data("pngsuite/\(name)"))
        #expect(header.hasAlpha == image.metadata.hasAlpha)
        #expect(header.isProgressive == name.dropFirst(3).hasPrefix("i"))
        if image.pixelFormat == .gray8 { #expect(!image.metadata.hasAlpha) }
    }

    @Test("Corrupt PngSuite files (x*) are corrupt data", arguments: PngSuite.invalid)
    func invalidFile(name: String) throws {
        let data = try Corpus.data("pngsuite/\(name)")
        do {
            _ = try PNGDecoder().decode(data, options: DecodingOptions())
            Issue.record("\(name) decoded")
        } catch {
            guard case .corruptData(.png, _) = error else { Issue.record("unexpected \(error)"); return }
        }
    }

    @Test("Alpha and pixel format follow colour type and tRNS")
    func alphaAndFormat() throws {
        let cases: [(String, PixelFormat, Bool)] = [
            ("basn0g08.png", .gray8, false), ("basn0g16.png", .gray8, false), ("basn2c08.png", .rgba8, false),
            ("basn3p08.png", .rgba8, false), ("basn4a08.png", .rgba8, true), ("basn6a16.png", .rgba8, true),
            ("tbrn2c08.png", .rgba8, true), ("tbbn0g04.png", .rgba8, true), ("tp1n3p08.png", .rgba8, true),
        ]
        for (name, format, alpha) in cases {
            let image = try PNGDecoder().decode(try Corpus.data("pngsuite/\(name)"), options: DecodingOptions())
            #expect(image.pixelFormat == format, "\(name)")
            #expect(image.metadata.hasAlpha == alpha, "\(name)")
            #expect(image.metadata.sourceFormat == .png)
        }
    }

    @Test("Kodak PNGs decode with the right sizes", arguments: Corpus.files(in: "kodak", extensions: ["png"]))
    func kodak(name: String) throws {
        let image = try PNGDecoder().decode(try Corpus.data("kodak/\(name)"), options: DecodingOptions())
        #expect([(768, 512), (512, 768)].contains { $0 == (image.width, image.height) })
        #expect(image.pixelFormat == .rgba8 && !image.metadata.hasAlpha)
    }

    @Test("Bench RGBA PNGs keep their alpha", arguments: Corpus.files(in: "bench/png-rgba", extensions: ["png"]))
    func benchRGBA(name: String) throws {
        let image = try PNGDecoder().decode(try Corpus.data("bench/png-rgba/\(name)"), options: DecodingOptions())
        #expect(image.metadata.hasAlpha)
        let alphas = Set(image.packedBytes().enumerated().filter { $0.offset % 4 == 3 }.map(\.element))
        #expect(alphas.contains(0) && alphas.contains(255))
    }

    @Test("A 60000x60000 header is refused before any allocation")
    func hugeHeader() throws {
        let data = PNGTestFiles.headerOnly(width: 60000, height: 60000)
        #expect(throws: ImagePipelineError.imageTooLarge(width: 60000, height: 60000, maxPixelCount: DecodingOptions.defaultMaxPixelCount)) {
            try PNGDecoder().decode(data, options: DecodingOptions())
        }
        let progressive = ProgressivePNGDecoder()
        _ = progressive.append(data)
        #expect(throws: ImagePipelineError.imageTooLarge(width: 60000, height: 60000, maxPixelCount: DecodingOptions.defaultMaxPixelCount)) {
            try progressive.makePreview()
        }
    }

    @Test("Every truncation of a PNG is corrupt data", arguments: ["pngsuite/basn6a08.png", "pngsuite/basi2c16.png", "bench/png-rgba/kodim23.png"])
    func truncated(path: String) throws {
        let data = try Corpus.data(path)
        for offset in CodecTestHelpers.truncationOffsets(count: data.count) {
            #expect(throws: ImagePipelineError.self, "cut at \(offset)") {
                try PNGDecoder().decode(data.prefix(offset), options: DecodingOptions())
            }
        }
    }

    @Test("Every changed byte is caught (CRC, signature, structure)")
    func byteFlips() throws {
        let original = [UInt8](try Corpus.data("pngsuite/basn2c08.png"))
        var generator = SeededGenerator(seed: 42)
        for _ in 0 ..< 300 {
            var damaged = original
            let index = Int.random(in: 0 ..< damaged.count, using: &generator)
            damaged[index] ^= UInt8.random(in: 1 ... 255, using: &generator)
            #expect(throws: ImagePipelineError.self, "byte \(index)") {
                try PNGDecoder().decode(Data(damaged), options: DecodingOptions())
            }
        }
    }

    @Test("Random multi-byte damage to a large PNG never crashes")
    func multiByteDamage() throws {
        let original = [UInt8](try Corpus.data("bench/png-rgb/kodim03.png"))
        var generator = SeededGenerator(seed: 7)
        for _ in 0 ..< 40 {
            var damaged = original
            for _ in 0 ..< 8 { damaged[Int.random(in: 0 ..< damaged.count, using: &generator)] = UInt8.random(in: 0 ... 255, using: &generator) }
            #expect(throws: ImagePipelineError.self) { try PNGDecoder().decode(Data(damaged), options: DecodingOptions()) }
        }
    }
}

/// PNG files built in memory for tests.
enum PNGTestFiles {
    /// Signature, an IHDR (8-bit RGBA) with a correct CRC, and IEND: a header that claims any size.
    static func headerOnly(width: UInt32, height: UInt32) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr: [UInt8] = []
        for value in [width, height] { ihdr += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        ihdr += [8, 6, 0, 0, 0]
        bytes += chunk("IHDR", ihdr) + chunk("IEND", [])
        return Data(bytes)
    }

    static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + payload
        let length = UInt32(payload.count), crc = crc32(body)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
            + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0 ..< 8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
