import Foundation
import TestSupport
import Logging
#if canImport(Glibc)
import Glibc
#endif
@testable import ImageCaching

/// A fresh directory under the system temp folder; `remove()` deletes it.
struct TemporaryDirectory {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("diskstore-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The files of a store on disk: entry files (path → size) and leftover temp files.
struct StoreFiles {
    var entries: [String: Int] = [:]
    var temporaries: [String] = []
    var totalBytes: Int { entries.values.reduce(0, +) }

    init(_ directory: URL) throws {
        let manager = FileManager.default
        for folder in try manager.contentsOfDirectory(atPath: directory.path) {
            let folderPath = directory.appendingPathComponent(folder).path
            let files = try manager.contentsOfDirectory(atPath: folderPath)
            if folder == "tmp" {
                temporaries = files
                continue
            }
            for file in files {
                let path = folderPath + "/" + file
                entries[path] = (try manager.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
            }
        }
    }
}

/// The path of the file an entry for `key` lives in.
func entryFileURL(_ directory: URL, key: String) -> URL {
    let name = DiskStore.fileName(forKey: key)
    return directory.appendingPathComponent(String(name.prefix(2))).appendingPathComponent(name)
}

/// A logger that drops everything (tests assert on statistics, not log lines).
let quietLogger = Logger(label: "test.diskstore", factory: { _ in SwiftLogNoOpLogHandler() })

/// The real file system with switchable faults, recording the thread of every call.
final class FaultyFileSystem: DiskFileSystem, @unchecked Sendable {
    // Every mutable property is only touched with `lock` held, which makes this safe to share
    // between the store's thread and the test.
    private let lock = NSLock()
    private let real = POSIXFileSystem()
    private var _failWritesAfterBytes: Int?
    private var _failMoves = false
    private var _threadIDs: Set<pthread_t> = []

    /// Writes fail with ENOSPC after this many bytes of a file (leaving a partial temp file).
    var failWritesAfterBytes: Int? {
        get { lock.withLock { _failWritesAfterBytes } }
        set { lock.withLock { _failWritesAfterBytes = newValue } }
    }
    /// Renames fail with EACCES.
    var failMoves: Bool {
        get { lock.withLock { _failMoves } }
        set { lock.withLock { _failMoves = newValue } }
    }
    /// POSIX ids of the threads file operations ran on.
    var threadIDs: Set<pthread_t> { lock.withLock { _threadIDs } }

    private func record() {
        let id = pthread_self()
        lock.withLock { _ = _threadIDs.insert(id) }
    }

    func createDirectory(_ path: String) throws(FileSystemError) { record(); try real.createDirectory(path) }
    func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String] {
        record()
        return try real.contentsOfDirectory(path)
    }
    func readFile(_ path: String, limit: Int?) throws(FileSystemError) -> Data {
        record()
        return try real.readFile(path, limit: limit)
    }
    func writeNewFile(_ path: String, chunks: [Data], modificationTime: Int64, sync: Bool) throws(FileSystemError) {
        record()
        if let budget = failWritesAfterBytes {
            let all = chunks.reduce(Data(), +)
            if all.count > budget {
                try real.writeNewFile(path, chunks: [all.prefix(budget)], modificationTime: modificationTime, sync: false)
                throw FileSystemError(operation: "write", path: path, code: ENOSPC)
            }
        }
        try real.writeNewFile(path, chunks: chunks, modificationTime: modificationTime, sync: sync)
    }
    func move(_ source: String, to destination: String) throws(FileSystemError) {
        record()
        if failMoves { throw FileSystemError(operation: "rename", path: destination, code: EACCES) }
        try real.move(source, to: destination)
    }
    func removeFile(_ path: String) throws(FileSystemError) { record(); try real.removeFile(path) }
    func status(_ path: String) throws(FileSystemError) -> FileStatus? {
        record()
        return try real.status(path)
    }
    func setModificationTime(_ path: String, _ nanoseconds: Int64) throws(FileSystemError) {
        record()
        try real.setModificationTime(path, nanoseconds)
    }
    func syncDirectory(_ path: String) throws(FileSystemError) { record(); try real.syncDirectory(path) }
}


/// Small deterministic bytes (1 KB to 25 KB) for the in-process store tests.
func sample(_ key: String, _ version: Int) -> Data {
    let full = stressContent(key: key, version: version)
    return full.prefix(1024 + full.count % (24 << 10))
}
