import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed file-system call: the operation, the path and the `errno` it set.
struct FileSystemError: Error, Equatable, CustomStringConvertible {
    var operation: String
    var path: String
    var code: Int32

    var isNotFound: Bool { code == ENOENT }
    var description: String { "\(operation) \(path): \(String(cString: strerror(code))) (errno \(code))" }
}

/// What the disk store knows about a file without reading it.
struct FileStatus: Equatable {
    var size: Int
    /// Modification time in nanoseconds since 1970; the store writes it itself as an access stamp.
    var modificationTime: Int64
}

/// The blocking file-system calls the disk store makes, behind a protocol so tests can inject
/// faults (disk full, a failing rename) next to the real implementation.
protocol DiskFileSystem: Sendable {
    func createDirectory(_ path: String) throws(FileSystemError)
    /// Names (not paths) in a directory; an absent directory is empty.
    func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String]
    /// The first `limit` bytes of a file (all of it when nil).
    func readFile(_ path: String, limit: Int?) throws(FileSystemError) -> Data
    /// Creates `path` (which must not exist), writes `chunks`, sets its modification time,
    /// optionally fsyncs, and closes it. A partial file may remain when this throws.
    func writeNewFile(_ path: String, chunks: [Data], modificationTime: Int64, sync: Bool) throws(FileSystemError)
    /// Atomically replaces `destination` with `source` (rename(2)).
    func move(_ source: String, to destination: String) throws(FileSystemError)
    func removeFile(_ path: String) throws(FileSystemError)
    /// Size and modification time, or nil if the file does not exist.
    func status(_ path: String) throws(FileSystemError) -> FileStatus?
    func setModificationTime(_ path: String, _ nanoseconds: Int64) throws(FileSystemError)
    func syncDirectory(_ path: String) throws(FileSystemError)
}

/// The real file system, through POSIX calls (so failures keep their exact `errno`).
struct POSIXFileSystem: DiskFileSystem {
    func createDirectory(_ path: String) throws(FileSystemError) {
        if mkdir(path, 0o755) != 0 && errno != EEXIST { throw FileSystemError(operation: "mkdir", path: path, code: errno) }
    }

    func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String] {
        guard let directory = opendir(path) else {
            if errno == ENOENT { return [] }
            throw FileSystemError(operation: "opendir", path: path, code: errno)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    func readFile(_ path: String, limit: Int?) throws(FileSystemError) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileSystemError(operation: "fstat", path: path, code: errno) }
        let wanted = min(Int(info.st_size), limit ?? .max)
        var data = Data(count: wanted)
        var filled = 0
        let failure: Int32? = data.withUnsafeMutableBytes { buffer -> Int32? in
            while filled < wanted {
                let count = read(descriptor, buffer.baseAddress! + filled, wanted - filled)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if count == 0 { break }   // the file shrank under us; report what is there
                filled += count
            }
            return nil
        }
        if let failure { throw FileSystemError(operation: "read", path: path, code: failure) }
        if filled < wanted { data.removeSubrange(filled...) }
        return data
    }

    func writeNewFile(_ path: String, chunks: [Data], modificationTime: Int64, sync: Bool) throws(FileSystemError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileSystemError(operation: "open", path: path, code: errno) }
        var closed = false
        defer { if !closed { close(descriptor) } }
        for chunk in chunks {
            let failure: Int32? = chunk.withUnsafeBytes { buffer -> Int32? in
                var written = 0
                while written < buffer.count {
                    let count = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                    if count < 0 {
                        if errno == EINTR { continue }
                        return errno
                    }
                    written += count
                }
                return nil
            }
            if let failure { throw FileSystemError(operation: "write", path: path, code: failure) }
        }
        var times = [Self.makeTimespec(modificationTime), Self.makeTimespec(modificationTime)]
        guard futimens(descriptor, &times) == 0 else { throw FileSystemError(operation: "futimens", path: path, code: errno) }
        if sync, fsync(descriptor) != 0 { throw FileSystemError(operation: "fsync", path: path, code: errno) }
        closed = true
        if close(descriptor) != 0 { throw FileSystemError(operation: "close", path: path, code: errno) }
    }

    func move(_ source: String, to destination: String) throws(FileSystemError) {
        if rename(source, destination) != 0 { throw FileSystemError(operation: "rename", path: destination, code: errno) }
    }

    func removeFile(_ path: String) throws(FileSystemError) {
        if unlink(path) != 0 { throw FileSystemError(operation: "unlink", path: path, code: errno) }
    }

    func status(_ path: String) throws(FileSystemError) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw FileSystemError(operation: "stat", path: path, code: errno)
        }
        let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return FileStatus(size: Int(info.st_size), modificationTime: nanoseconds)
    }

    func setModificationTime(_ path: String, _ nanoseconds: Int64) throws(FileSystemError) {
        var times = [Self.makeTimespec(nanoseconds), Self.makeTimespec(nanoseconds)]
        guard utimensat(AT_FDCWD, path, &times, 0) == 0 else {
            throw FileSystemError(operation: "utimensat", path: path, code: errno)
        }
    }

    func syncDirectory(_ path: String) throws(FileSystemError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        if fsync(descriptor) != 0 { throw FileSystemError(operation: "fsync", path: path, code: errno) }
    }

    private static func makeTimespec(_ nanoseconds: Int64) -> timespec {
        timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}
