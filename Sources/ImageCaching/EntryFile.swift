import Crypto
import Foundation

/// Why a file is not a valid entry (the store deletes such files and reports a miss).
struct EntryFileDamage: Error, Equatable, CustomStringConvertible {
    var description: String
}

/// The on-disk layout of one entry: data and metadata in ONE file, so one rename replaces both.
///
/// ```
/// offset  size  field
///      0     4  magic "IPDS"
///      4     4  format version (1), little endian
///      8     4  header length H, little endian
///     12     4  reserved (0)
///     16     8  data length D, little endian
///     24    32  SHA-256 of the header bytes
///     56     H  header: JSON of DiskEntryMetadata (holds the SHA-256 of the data)
///   56+H     D  data
/// ```
/// A reader checks the magic, that the file is exactly 56 + H + D bytes, the header hash, and
/// the data hash: a truncated file, a flipped byte or a file of another format is rejected.
enum EntryFile {
    static let prefixLength = 56
    /// Headers longer than this are refused (keys and validators are short in practice).
    static let maxHeaderLength = 64 << 10
    private static let magic: [UInt8] = Array("IPDS".utf8)
    private static let version: UInt32 = 1

    static func checksum(of data: Data) -> String {
        SHA256.hash(data: data).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The bytes to write for an entry: the prefix and header as one chunk, the data as another
    /// (so large data is not copied).
    static func encode(metadata: DiskEntryMetadata, data: Data) throws(EntryFileDamage) -> [Data] {
        let header: Data
        do {
            header = try encoder.encode(metadata)
        } catch {
            throw EntryFileDamage(description: "cannot encode metadata: \(error)")
        }
        guard header.count <= maxHeaderLength else {
            throw EntryFileDamage(description: "metadata is \(header.count) bytes, over the \(maxHeaderLength)-byte limit")
        }
        var prefix = Data(capacity: prefixLength + header.count)
        prefix.append(contentsOf: magic)
        appendLittleEndian(version, to: &prefix)
        appendLittleEndian(UInt32(header.count), to: &prefix)
        appendLittleEndian(UInt32(0), to: &prefix)
        appendLittleEndian(UInt64(data.count), to: &prefix)
        prefix.append(contentsOf: SHA256.hash(data: header))
        prefix.append(header)
        return [prefix, data]
    }

    /// Total file length for an entry (used for the size accounting before writing).
    static func fileLength(chunks: [Data]) -> Int { chunks.reduce(0) { $0 + $1.count } }

    /// Reads and verifies the header from the start of a file whose total length is `fileLength`.
    /// `bytes` must hold at least the prefix and header (the data part may be missing).
    static func decodeHeader(_ bytes: Data, fileLength: Int) throws(EntryFileDamage) -> DiskEntryMetadata {
        guard bytes.count >= prefixLength else { throw EntryFileDamage(description: "shorter than the entry prefix") }
        let base = bytes.startIndex
        guard bytes[base ..< base + 4].elementsEqual(magic) else { throw EntryFileDamage(description: "not an entry file (magic)") }
        guard readLittleEndian(UInt32.self, bytes, at: 4) == version else { throw EntryFileDamage(description: "unknown format version") }
        let headerLength = Int(readLittleEndian(UInt32.self, bytes, at: 8))
        let dataLength = readLittleEndian(UInt64.self, bytes, at: 16)
        guard headerLength <= maxHeaderLength, dataLength <= UInt64(Int.max / 2) else {
            throw EntryFileDamage(description: "implausible lengths")
        }
        guard prefixLength + headerLength + Int(dataLength) == fileLength else {
            throw EntryFileDamage(description: "length is \(fileLength), header says \(prefixLength + headerLength + Int(dataLength))")
        }
        guard bytes.count >= prefixLength + headerLength else { throw EntryFileDamage(description: "header truncated") }
        let header = bytes[(base + prefixLength) ..< (base + prefixLength + headerLength)]
        guard SHA256.hash(data: header).elementsEqual(bytes[(base + 24) ..< (base + 56)]) else {
            throw EntryFileDamage(description: "header checksum mismatch")
        }
        let metadata: DiskEntryMetadata
        do {
            metadata = try decoder.decode(DiskEntryMetadata.self, from: header)
        } catch {
            throw EntryFileDamage(description: "unreadable metadata")
        }
        guard metadata.size == Int(dataLength) else { throw EntryFileDamage(description: "metadata size disagrees with the prefix") }
        return metadata
    }

    /// Decodes and verifies a whole entry file.
    static func decode(_ file: Data) throws(EntryFileDamage) -> (metadata: DiskEntryMetadata, data: Data) {
        let metadata = try decodeHeader(file, fileLength: file.count)
        let data = file.suffix(metadata.size)
        guard checksum(of: data) == metadata.checksum else { throw EntryFileDamage(description: "data checksum mismatch") }
        return (metadata, Data(data))
    }

    // MARK: Encoding helpers

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    private static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    private static func readLittleEndian<T: FixedWidthInteger>(_: T.Type, _ bytes: Data, at offset: Int) -> T {
        var value: T = 0
        for index in (0 ..< MemoryLayout<T>.size).reversed() {
            value = value << 8 | T(bytes[bytes.startIndex + offset + index])
        }
        return value
    }
}
