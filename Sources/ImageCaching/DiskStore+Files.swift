import Crypto
import Foundation
import ImageCore
import Logging

// The disk store's file handling: naming, atomic writes, the index rebuild and trimming.
// Everything here runs isolated to the store, on its own thread.
extension DiskStore {
    // MARK: Naming

    /// The file name for a key: the lowercase hex SHA-256 of its UTF-8 bytes.
    nonisolated static func fileName(forKey key: String) -> String {
        EntryFile.checksum(of: Data(key.utf8))
    }

    nonisolated static func isFanOutName(_ name: String) -> Bool {
        name.utf8.count == 2 && name.utf8.allSatisfy(isLowercaseHexDigit)
    }

    nonisolated static func isEntryName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy(isLowercaseHexDigit)
    }

    private nonisolated static func isLowercaseHexDigit(_ byte: UInt8) -> Bool {
        (0x30 ... 0x39).contains(byte) || (0x61 ... 0x66).contains(byte)
    }

    func fanOutPath(_ name: String) -> String { rootPath + "/" + name.prefix(2) }
    func entryPath(_ name: String) -> String { fanOutPath(name) + "/" + name }

    // MARK: Writing

    /// Writes an entry atomically (temp file, then rename) and updates the index and byte total.
    /// On failure nothing changes: the temp file is removed and the error thrown.
    func write(metadata: DiskEntryMetadata, data: Data) throws -> Bool {
        let name = Self.fileName(forKey: metadata.key)
        let chunks: [Data]
        do {
            chunks = try EntryFile.encode(metadata: metadata, data: data)
        } catch {
            counters.writeFailures += 1
            throw ImagePipelineError.diskStoreFailed(message: "cannot store \(metadata.key): \(error.description)")
        }
        let length = EntryFile.fileLength(chunks: chunks)
        guard length <= configuration.sizeLimit else {
            logger.debug("entry larger than the disk store's size limit, not stored",
                         metadata: ["key": "\(metadata.key)", "bytes": "\(length)"])
            remove(key: metadata.key)
            return false
        }

        let temporary = tempPath + "/" + UUID().uuidString
        let stamp = nextAccessStamp()
        let sync = configuration.durability == .survivesPowerLoss
        do {
            try fileSystem.writeNewFile(temporary, chunks: chunks, modificationTime: stamp, sync: sync)
        } catch {
            discardTemporary(temporary)
            throw writeFailure(key: metadata.key, error)
        }

        // The new bytes are safely in the temp file: make room (older entries first; this key's
        // old entry is about to be replaced, so it is moved out of the sweep's way), then publish.
        let previousSize = index.peek(name)?.size ?? 0
        let projected = byteTotal - previousSize + length
        if projected > configuration.sizeLimit {
            _ = index.touch(name)
            trim(toBytes: max(0, configuration.sweepTargetBytes - length + previousSize), sparing: name)
        }
        do {
            try fileSystem.createDirectory(fanOutPath(name))
            try fileSystem.move(temporary, to: entryPath(name))
            if sync { try fileSystem.syncDirectory(fanOutPath(name)) }
        } catch {
            discardTemporary(temporary)
            throw writeFailure(key: metadata.key, error)
        }
        let replaced = index.insertAtFront(name, IndexEntry(size: length, expiresAt: metadata.expiresAt,
                                                            revalidatable: !metadata.validators.isEmpty))
        byteTotal += length - (replaced?.size ?? 0)
        return true
    }

    private func writeFailure(key: String, _ error: FileSystemError) -> ImagePipelineError {
        counters.writeFailures += 1
        logger.error("disk store write failed", metadata: ["key": "\(key)", "error": "\(error)"])
        return .diskStoreFailed(message: "cannot store \(key): \(error)")
    }

    private func discardTemporary(_ path: String) {
        do {
            try fileSystem.removeFile(path)
        } catch where !error.isNotFound {
            logger.error("cannot remove a temp file (removed at next start)", metadata: ["error": "\(error)"])
        } catch {}
    }

    // MARK: Access order

    /// A strictly increasing stamp: the wall clock in nanoseconds, or one more than the last stamp.
    func nextAccessStamp() -> Int64 {
        let wallClock = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
        lastAccessStamp = max(wallClock, lastAccessStamp + 1)
        return lastAccessStamp
    }

    /// Records an access in the file's mtime so the order survives a restart.
    func bumpAccessStamp(_ path: String) {
        do {
            try fileSystem.setModificationTime(path, nextAccessStamp())
        } catch {
            logger.debug("cannot record access time", metadata: ["error": "\(error)"])
        }
    }

    // MARK: Removing

    /// Removes least recently accessed entries until the byte total is at most `target`.
    func trim(toBytes target: Int, sparing spared: String? = nil) {
        var evicted = 0
        while byteTotal > target, let victim = index.leastRecent, victim.key != spared {
            removeEntryFile(victim.key, path: entryPath(victim.key))
            evicted += 1
        }
        counters.evictions += evicted
        if evicted > 0 {
            logger.debug("disk store swept", metadata: ["evicted": "\(evicted)", "bytes": "\(byteTotal)"])
        }
    }

    /// Deletes an entry's file and drops it from the index (a file that cannot be deleted is
    /// logged and dropped anyway: the next start finds it again).
    func removeEntryFile(_ name: String, path: String) {
        do {
            try fileSystem.removeFile(path)
        } catch where !error.isNotFound {
            logger.warning("cannot remove disk entry", metadata: ["path": "\(path)", "error": "\(error)"])
        } catch {}
        forget(name)
    }

    func removeDamaged(_ name: String, path: String, reason: String) {
        logger.warning("damaged disk entry removed", metadata: ["path": "\(path)", "reason": "\(reason)"])
        removeEntryFile(name, path: path)
        counters.damagedEntriesRemoved += 1
    }

    /// Drops an entry from the index (its file is already gone).
    func forget(_ name: String) {
        if let entry = index.remove(name) { byteTotal -= entry.size }
    }

    // MARK: Rebuilding the index

    /// One pass over the directory: removes leftover temp files, garbage and damaged entries,
    /// drops expired entries that cannot be revalidated, and orders the rest by their access
    /// stamps (file mtimes). Trims to the sweep target if the store is over its limit.
    func rebuildIndex() throws {
        do {
            try fileSystem.createDirectory(rootPath)
            try fileSystem.createDirectory(tempPath)
            for leftover in try fileSystem.contentsOfDirectory(tempPath) {
                try? fileSystem.removeFile(tempPath + "/" + leftover)
                counters.tempFilesRemoved += 1
            }
        } catch {
            logger.error("cannot open disk store", metadata: ["directory": "\(rootPath)", "error": "\(error)"])
            throw ImagePipelineError.diskStoreFailed(message: "cannot open \(rootPath): \(error)")
        }

        var found: [(name: String, entry: IndexEntry, stamp: Int64)] = []
        let moment = now()
        let fanOuts = (try? fileSystem.contentsOfDirectory(rootPath)) ?? []
        for directoryName in fanOuts where Self.isFanOutName(directoryName) {
            let directoryPath = rootPath + "/" + directoryName
            let files: [String]
            do {
                files = try fileSystem.contentsOfDirectory(directoryPath)
            } catch {
                logger.warning("cannot list disk store folder", metadata: ["path": "\(directoryPath)", "error": "\(error)"])
                continue
            }
            for file in files {
                let path = directoryPath + "/" + file
                guard Self.isEntryName(file), file.hasPrefix(directoryName) else {
                    removeStray(path)
                    continue
                }
                guard let status = try? fileSystem.status(path) else { continue }
                let metadata: DiskEntryMetadata
                do {
                    metadata = try readMetadata(path, fileLength: status.size)
                    guard Self.fileName(forKey: metadata.key) == file else {
                        throw EntryFileDamage(description: "file name does not match its key")
                    }
                } catch {
                    logger.warning("damaged disk entry removed", metadata: ["path": "\(path)", "reason": "\(error)"])
                    try? fileSystem.removeFile(path)
                    counters.damagedEntriesRemoved += 1
                    continue
                }
                if metadata.validators.isEmpty, !metadata.isFresh(at: moment) {
                    try? fileSystem.removeFile(path)
                    counters.expiredEntriesRemoved += 1
                    continue
                }
                found.append((file, IndexEntry(size: status.size, expiresAt: metadata.expiresAt,
                                               revalidatable: !metadata.validators.isEmpty), status.modificationTime))
            }
        }
        found.sort { $0.stamp > $1.stamp }   // most recent first; appended at the back in that order
        for item in found {
            index.insertAtBack(item.name, item.entry)
            byteTotal += item.entry.size
        }
        lastAccessStamp = found.first?.stamp ?? 0
        if byteTotal > configuration.sizeLimit { sweep() }
        logger.debug("disk store opened", metadata: ["entries": "\(index.count)", "bytes": "\(byteTotal)"])
    }

    /// Reads just the header of an entry file: a small read first, a second one for long headers.
    private func readMetadata(_ path: String, fileLength: Int) throws -> DiskEntryMetadata {
        let firstRead = 4096
        var bytes = try fileSystem.readFile(path, limit: firstRead)
        if bytes.count >= EntryFile.prefixLength {
            let headerLength = bytes[bytes.startIndex + 8 ..< bytes.startIndex + 12].reversed()
                .reduce(0) { $0 << 8 | Int($1) }
            let needed = EntryFile.prefixLength + min(headerLength, EntryFile.maxHeaderLength)
            if needed > bytes.count, needed <= fileLength {
                bytes = try fileSystem.readFile(path, limit: needed)
            }
        }
        return try EntryFile.decodeHeader(bytes, fileLength: fileLength)
    }

    private func removeStray(_ path: String) {
        logger.warning("unexpected file in disk store removed", metadata: ["path": "\(path)"])
        try? fileSystem.removeFile(path)
    }
}
