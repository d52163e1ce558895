import Foundation

/// Wraps bytes in a valid gzip member (RFC 1952) using deflate *stored* blocks (RFC 1951,
/// BTYPE 00): no compression, no zlib, but any gzip decoder (libcurl's included) must accept
/// it, which is what a `Content-Encoding: gzip` test needs.
public enum GzipEncoding {
    public static func storedGzip(_ data: Data) -> Data {
        var output = Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF])   // magic, deflate, no flags, mtime 0, OS unknown
        let bytes = [UInt8](data)
        var offset = 0
        repeat {
            let length = min(65_535, bytes.count - offset)
            let isFinal = offset + length == bytes.count
            output.append(isFinal ? 0x01 : 0x00)   // BFINAL bit, BTYPE 00, padded to the byte
            appendLittleEndian(UInt16(length), to: &output)
            appendLittleEndian(~UInt16(length), to: &output)
            output.append(contentsOf: bytes[offset ..< offset + length])
            offset += length
        } while offset < bytes.count
        appendLittleEndian(crc32(bytes), to: &output)
        appendLittleEndian(UInt32(truncatingIfNeeded: bytes.count), to: &output)
        return output
    }

    private static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    private static let crcTable: [UInt32] = (0 ..< 256).map { index in
        var value = UInt32(index)
        for _ in 0 ..< 8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// CRC-32 (IEEE 802.3, reflected), as gzip's trailer requires.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
