import Crypto
import Foundation
import ImageCore
import Logging

/// A size-bounded, crash-safe store of encoded bytes on disk, with HTTP expiry and validators.
///
/// - **Layout.** Each entry is one file named by the SHA-256 of its key, fanned out into
///   256 subdirectories by the first two hex digits (`ab/ab12…`). A key never becomes a path
///   unhashed. The file holds a header (metadata, checksums) and the bytes (see `EntryFile`).
/// - **Atomic writes.** Bytes go to a temp file in `tmp/`, which is then renamed over the entry:
///   a crash leaves the old entry or the new one, never a torn one (fsync policy:
///   ``DiskStoreConfiguration/Durability``). Reads check the length and both checksums; a
///   damaged entry is deleted, logged and reported as a miss. Leftover temp files are removed
///   at start.
/// - **Size.** A running byte total is checked on every write; past ``DiskStoreConfiguration/sizeLimit``
///   the least recently accessed entries are removed down to ``DiskStoreConfiguration/sweepTarget``.
///   Access order lives in the actor's own index. It persists across restarts through each
///   file's modification time, which the store sets itself to a strictly increasing access
///   stamp on every write and hit (atime is not used: `noatime`/`relatime` make it useless).
///   At start the index is rebuilt in one pass over the directory; unreadable entries are removed.
/// - **Expiry.** A fresh entry is returned as ``DiskEntryFreshness/fresh``; an expired one with
///   an ETag or Last-Modified as ``DiskEntryFreshness/stale(_:)`` for revalidation (then
///   ``refresh(forKey:attributes:)`` on a 304); an expired one without validators is removed.
/// - **Threads.** Every method runs on the store's own thread (a custom serial executor), so
///   blocking file I/O never occupies Swift's cooperative pool.
///
/// ```swift
/// let store = try await DiskStore(directory: cachesURL.appendingPathComponent("images"))
/// try await store.store(body, forKey: url.absoluteString, responseHeaders: response.headers)
/// if let entry = await store.entry(forKey: url.absoluteString) {
///     switch entry.freshness {
///     case .fresh: use(entry.data)
///     case .stale(let validators): revalidate(sending: validators)   // then store.refresh(...) on 304
///     }
/// }
/// ```
public actor DiskStore {
    /// What the index knows about an entry without opening its file.
    struct IndexEntry {
        var size: Int
        var expiresAt: Date
        var revalidatable: Bool
    }

    /// The directory the store owns.
    public nonisolated let directory: URL
    /// Limits, expiry and durability.
    public nonisolated let configuration: DiskStoreConfiguration

    nonisolated let executor: DedicatedThreadExecutor
    let fileSystem: any DiskFileSystem
    let logger: Logger
    let now: @Sendable () -> Date
    let rootPath: String
    let tempPath: String

    /// Entries by file name (the key's SHA-256), most recently accessed first.
    var index = LRUList<String, IndexEntry>()
    var byteTotal = 0
    var counters = DiskStoreStatistics()
    /// The last access stamp written to a file's mtime; stamps only grow.
    var lastAccessStamp: Int64 = 0

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Opens (creating if needed) a store in `directory` and rebuilds its index from the files there.
    /// - Parameters:
    ///   - logger: receives damaged entries (warning), write failures (error) and sweeps (debug).
    ///   - now: the clock freshness is evaluated against (tests inject one).
    /// - Throws: ``ImageCore/ImagePipelineError/diskStoreFailed(message:)`` if the directory cannot be created or listed.
    public init(directory: URL, configuration: DiskStoreConfiguration = DiskStoreConfiguration(),
                logger: Logger = Logger(label: "ImagePipeline.DiskStore"),
                now: @escaping @Sendable () -> Date = { Date() }) async throws {
        try await self.init(directory: directory, configuration: configuration, logger: logger, now: now,
                            fileSystem: POSIXFileSystem())
    }

    /// The designated initialiser, with an injectable file-system layer (tests inject faults).
    init(directory: URL, configuration: DiskStoreConfiguration, logger: Logger,
         now: @escaping @Sendable () -> Date, fileSystem: any DiskFileSystem) async throws {
        self.directory = directory
        self.configuration = configuration
        self.logger = logger
        self.now = now
        self.fileSystem = fileSystem
        rootPath = directory.standardizedFileURL.path
        tempPath = rootPath + "/tmp"
        executor = DedicatedThreadExecutor(name: "imgpipe.disk")
        // Fully initialised: from here on the initialiser runs isolated, on the store's own thread.
        try rebuildIndex()
    }

    /// The name of the thread every file operation runs on (for diagnostics).
    public nonisolated var threadName: String { executor.threadName }

    // MARK: Reading

    /// The entry for `key`, with its bytes verified, or nil.
    ///
    /// An entry past its expiry is returned as `.stale(validators)` when it has an ETag or
    /// Last-Modified; without them it is removed and nil returned. A damaged file is removed,
    /// logged, and reported as nil. A hit makes the entry the most recently accessed.
    public func entry(forKey key: String) -> DiskEntry? {
        let name = Self.fileName(forKey: key)
        guard let known = index.peek(name) else {
            counters.misses += 1
            return nil
        }
        let path = entryPath(name)
        let file: Data
        do {
            file = try fileSystem.readFile(path, limit: nil)
        } catch {
            if error.isNotFound {
                logger.debug("disk entry vanished behind the store's back", metadata: ["key": "\(key)"])
                forget(name)
            } else {
                logger.warning("cannot read disk entry", metadata: ["key": "\(key)", "error": "\(error)"])
            }
            counters.misses += 1
            return nil
        }
        let decoded: (metadata: DiskEntryMetadata, data: Data)
        do {
            decoded = try EntryFile.decode(file)
            guard decoded.metadata.key == key else { throw EntryFileDamage(description: "holds another key") }
        } catch {
            removeDamaged(name, path: path, reason: "\(error)")
            counters.misses += 1
            return nil
        }
        if file.count != known.size {   // replaced behind our back by another valid entry file
            byteTotal += file.count - known.size
            var corrected = known
            corrected.size = file.count
            index.insertAtFront(name, corrected)
        }
        let metadata = decoded.metadata
        let freshness: DiskEntryFreshness
        if metadata.isFresh(at: now()) {
            freshness = .fresh
            counters.hits += 1
        } else if !metadata.validators.isEmpty {
            freshness = .stale(metadata.validators)
            counters.staleHits += 1
        } else {
            removeEntryFile(name, path: path)
            counters.expiredEntriesRemoved += 1
            counters.misses += 1
            return nil
        }
        index.insertAtFront(name, IndexEntry(size: file.count, expiresAt: metadata.expiresAt,
                                             revalidatable: !metadata.validators.isEmpty))
        bumpAccessStamp(path)
        return DiskEntry(data: decoded.data, metadata: metadata, freshness: freshness)
    }

    /// Whether an entry for `key` is indexed (no file access, no freshness check, order unchanged).
    public func contains(key: String) -> Bool { index.peek(Self.fileName(forKey: key)) != nil }

    // MARK: Writing

    /// Stores `data` under `key`, replacing any previous entry atomically.
    ///
    /// - Returns: false when the entry alone is larger than the size limit (nothing is stored
    ///   and any previous entry for the key is removed, so it cannot be served stale).
    /// - Throws: ``ImageCore/ImagePipelineError/diskStoreFailed(message:)`` when the write fails
    ///   (disk full, file too large, permissions); the store is unchanged.
    @discardableResult
    public func store(_ data: Data, forKey key: String,
                      attributes: DiskEntryAttributes = DiskEntryAttributes()) throws -> Bool {
        let storedAt = now()
        let metadata = DiskEntryMetadata(
            key: key, size: data.count, contentType: attributes.contentType, storedAt: storedAt,
            expiresAt: attributes.expiresAt ?? storedAt.addingTimeInterval(configuration.defaultMaxAge),
            requiresRevalidation: attributes.requiresRevalidation, validators: attributes.validators,
            checksum: EntryFile.checksum(of: data))
        return try write(metadata: metadata, data: data)
    }

    /// Stores `data` if the response headers allow it (see ``HTTPCachePolicy``); when they
    /// forbid storing, any previous entry for `key` is removed.
    /// - Returns: whether the data was stored.
    @discardableResult
    public func store(_ data: Data, forKey key: String, responseHeaders: [(name: String, value: String)]) throws -> Bool {
        switch HTTPCachePolicy.decision(headers: responseHeaders, now: now(), defaultMaxAge: configuration.defaultMaxAge) {
        case .store(let attributes):
            return try store(data, forKey: key, attributes: attributes)
        case .doNotStore(let reason):
            logger.trace("not stored", metadata: ["key": "\(key)", "reason": "\(reason)"])
            remove(key: key)
            return false
        }
    }

    /// Updates the metadata of an existing entry after a `304 Not Modified`, keeping its bytes.
    ///
    /// The new expiry comes from `attributes` (nil expiry: the default maximum age); validators
    /// and content type not given in `attributes` are kept. The file is rewritten atomically
    /// (temp file + rename), so a crash leaves the old metadata or the new.
    /// - Returns: false if there is no (readable) entry for `key`.
    @discardableResult
    public func refresh(forKey key: String, attributes: DiskEntryAttributes) throws -> Bool {
        let name = Self.fileName(forKey: key)
        guard index.peek(name) != nil else { return false }
        let path = entryPath(name)
        let decoded: (metadata: DiskEntryMetadata, data: Data)
        do {
            decoded = try EntryFile.decode(try fileSystem.readFile(path, limit: nil))
            guard decoded.metadata.key == key else { throw EntryFileDamage(description: "holds another key") }
        } catch let error as FileSystemError where error.isNotFound {
            forget(name)
            return false
        } catch {
            removeDamaged(name, path: path, reason: "\(error)")
            return false
        }
        var metadata = decoded.metadata
        let refreshedAt = now()
        metadata.storedAt = refreshedAt
        metadata.expiresAt = attributes.expiresAt ?? refreshedAt.addingTimeInterval(configuration.defaultMaxAge)
        metadata.requiresRevalidation = attributes.requiresRevalidation
        if let etag = attributes.validators.etag { metadata.validators.etag = etag }
        if let lastModified = attributes.validators.lastModified { metadata.validators.lastModified = lastModified }
        if let contentType = attributes.contentType { metadata.contentType = contentType }
        return try write(metadata: metadata, data: decoded.data)
    }

    /// ``refresh(forKey:attributes:)`` with the headers of the 304 response (new expiry from its
    /// Cache-Control / Expires, validators it repeats replace the stored ones). If they say
    /// `no-store`, the entry is removed and false returned.
    @discardableResult
    public func refresh(forKey key: String, notModifiedHeaders headers: [(name: String, value: String)]) throws -> Bool {
        let evaluation = HTTPCachePolicy.evaluate(headers: headers, now: now(), defaultMaxAge: configuration.defaultMaxAge)
        if let reason = evaluation.forbiddenReason {
            logger.trace("dropped on revalidation", metadata: ["key": "\(key)", "reason": "\(reason)"])
            remove(key: key)
            return false
        }
        return try refresh(forKey: key, attributes: evaluation.attributes)
    }

    // MARK: Removing and statistics

    /// Removes the entry for `key` (no error if there is none).
    public func remove(key: String) {
        let name = Self.fileName(forKey: key)
        guard index.peek(name) != nil else { return }
        removeEntryFile(name, path: entryPath(name))
    }

    /// Removes every entry, including files the index did not know about.
    public func removeAll() {
        for directoryName in (try? fileSystem.contentsOfDirectory(rootPath)) ?? [] where Self.isFanOutName(directoryName) {
            let directoryPath = rootPath + "/" + directoryName
            for file in (try? fileSystem.contentsOfDirectory(directoryPath)) ?? [] {
                do {
                    try fileSystem.removeFile(directoryPath + "/" + file)
                } catch where !error.isNotFound {
                    logger.warning("cannot remove disk entry", metadata: ["error": "\(error)"])
                } catch {}
            }
        }
        index.removeAll()
        byteTotal = 0
    }

    /// Removes entries that expired and cannot be revalidated (from the index: no file reads).
    public func removeExpired() {
        let moment = now()
        var expired: [String] = []
        for name in index.keysMostRecentFirst {
            if let entry = index.peek(name), !entry.revalidatable, entry.expiresAt <= moment { expired.append(name) }
        }
        for name in expired {
            removeEntryFile(name, path: entryPath(name))
            counters.expiredEntriesRemoved += 1
        }
    }

    /// Removes least recently accessed entries until the store is at its sweep target.
    public func sweep() { trim(toBytes: configuration.sweepTargetBytes) }

    /// Counters and current totals.
    public var statistics: DiskStoreStatistics {
        var snapshot = counters
        snapshot.entries = index.count
        snapshot.bytes = byteTotal
        return snapshot
    }

    /// Bytes the entry files take now (headers included).
    public var totalBytes: Int { byteTotal }

    /// Keys' file names from the most to the least recently accessed (for tests and diagnostics).
    var fileNamesByRecency: [String] { index.keysMostRecentFirst }
}
