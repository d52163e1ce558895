import Foundation
import ImageCodecs
import ImageCore
import Testing
import TestSupport

@Suite("JPEG EXIF orientation parsing")
struct JPEGExifTests {
    /// A bench JPEG (which has no EXIF) with an APP1 segment holding `exif` inserted after SOI.
    static func jpeg(withAPP1 exif: [UInt8]) throws -> Data {
        var bytes = [UInt8](try Corpus.data("bench/jpeg-q85-baseline/kodim20.jpg"))
        let length = exif.count + 2
        bytes.insert(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + exif, at: 2)
        return Data(bytes)
    }

    /// `Exif\0\0` + a TIFF header in the given byte order with one IFD0 entry.
    static func exif(bigEndian: Bool, tag: UInt16 = 0x0112, type: UInt16 = 3, value: UInt32) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] { bigEndian ? u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) : u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) }
        let valueField: [UInt8] = type == 3 ? u16(UInt16(value)) + [0, 0] : u32(value)
        return Array("Exif".utf8) + [0, 0] + (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8)
            + u16(2) + u16(0x010F) + u16(2) + u32(4) + u32(0)          // Make, a distraction before the tag
            + u16(tag) + u16(type) + u32(1) + valueField + u32(0)
    }

    @Test("Both byte orders, every valid value", arguments: [false, true], 1 ... 8)
    func byteOrders(bigEndian: Bool, value: Int) throws {
        let data = try Self.jpeg(withAPP1: Self.exif(bigEndian: bigEndian, value: UInt32(value)))
        #expect(try JPEGDecoder().readHeader(data).orientation == ExifOrientation(rawValue: value))
        #expect(try JPEGDecoder().decode(data, options: DecodingOptions()).metadata.orientation == ExifOrientation(rawValue: value))
    }

    @Test("LONG-typed tag is accepted")
    func longType() throws {
        let data = try Self.jpeg(withAPP1: Self.exif(bigEndian: true, type: 4, value: 6))
        #expect(try JPEGDecoder().readHeader(data).orientation == .right)
    }

    @Test("Invalid values and damaged EXIF give .up", arguments: [
        exif(bigEndian: false, value: 0), exif(bigEndian: true, value: 9), exif(bigEndian: false, value: 0xFFFF),
        exif(bigEndian: true, tag: 0x0110, value: 6),                  // no orientation tag
        Array(exif(bigEndian: false, value: 6).prefix(20)),             // cut inside the IFD
        Array("Exif".utf8) + [0, 0, 0x49, 0x49, 42, 0, 0xFF, 0xFF, 0xFF, 0x7F],   // IFD offset far outside
        Array("Exif".utf8) + [0, 0, 0x58, 0x58, 42, 0, 8, 0, 0, 0],    // unknown byte order
        Array("Exif".utf8) + [0, 0],
    ])
    func damaged(exif: [UInt8]) throws {
        let data = try Self.jpeg(withAPP1: exif)
        #expect(try JPEGDecoder().readHeader(data).orientation == .up)
        #expect(try JPEGDecoder().decode(data, options: DecodingOptions()).metadata.orientation == .up)
    }
}
