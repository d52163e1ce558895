import Foundation
import ImageCore
import Testing
@testable import ImageCaching

@Suite("Disk store")
struct DiskStoreTests {
    private func open(_ directory: TemporaryDirectory, _ configuration: DiskStoreConfiguration = .init(),
                      clock: ManualClock = ManualClock(), fileSystem: (any DiskFileSystem)? = nil) async throws -> DiskStore {
        try await DiskStore(directory: directory.url, configuration: configuration, logger: quietLogger,
                            now: { clock.date }, fileSystem: fileSystem ?? POSIXFileSystem())
    }

    @Test("bytes and metadata round-trip and persist across instances")
    func persistence() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clock = ManualClock()
        let data = sample("a", 0)
        let attributes = DiskEntryAttributes(contentType: "image/png", expiresAt: clock.date.addingTimeInterval(60),
                                             validators: DiskEntryValidators(etag: "\"abc\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT"))
        do {
            let store = try await open(directory, clock: clock)
            #expect(try await store.store(data, forKey: "https://example.com/a.png", attributes: attributes))
        }
        let reopened = try await open(directory, clock: clock)
        let entry = try #require(await reopened.entry(forKey: "https://example.com/a.png"))
        #expect(entry.data == data)
        #expect(entry.freshness == .fresh)
        #expect(entry.metadata.key == "https://example.com/a.png")
        #expect(entry.metadata.size == data.count)
        #expect(entry.metadata.contentType == "image/png")
        #expect(entry.metadata.validators == attributes.validators)
        #expect(entry.metadata.expiresAt == attributes.expiresAt)
        #expect(entry.metadata.storedAt == clock.date)
        #expect(entry.metadata.checksum == EntryFile.checksum(of: data))
        #expect(await reopened.entry(forKey: "https://example.com/other.png") == nil)
        let statistics = await reopened.statistics
        #expect(statistics.entries == 1 && statistics.hits == 1 && statistics.misses == 1)
        #expect(statistics.bytes == (try StoreFiles(directory.url)).totalBytes)
    }

    @Test("file names are hashed keys fanned out into two-hex-digit folders")
    func hashedLayout() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try await open(directory)
        let key = "../../etc/passwd?x=/y"
        try await store.store(Data("x".utf8), forKey: key)
        let files = try StoreFiles(directory.url)
        #expect(files.entries.count == 1)
        let path = try #require(files.entries.keys.first)
        let name = DiskStore.fileName(forKey: key)
        #expect(path == directory.url.standardizedFileURL.path + "/" + name.prefix(2) + "/" + name)
        #expect(name.count == 64 && !path.contains("passwd"))
    }

    @Test("access order survives a restart (the store's own mtime stamps), and drives eviction")
    func persistedAccessOrder() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        do {
            let store = try await open(directory)
            for key in ["a", "b", "c"] { try await store.store(sample(key, 0), forKey: key) }
            _ = await store.entry(forKey: "a")
        }
        let reopened = try await open(directory)
        #expect(await reopened.fileNamesByRecency == ["a", "c", "b"].map(DiskStore.fileName(forKey:)))
        await reopened.sweep()   // default sweep target is 70 %, but under the limit: nothing to do
        #expect(await reopened.statistics.evictions == 0)
    }

    @Test("the index is rebuilt from disk after files were added and removed behind its back")
    func rebuildAfterExternalChanges() async throws {
        let directory = try TemporaryDirectory()
        let other = try TemporaryDirectory()
        defer { directory.remove(); other.remove() }
        do {
            let store = try await open(directory)
            for key in ["a", "b", "c"] { try await store.store(sample(key, 0), forKey: key) }
            let elsewhere = try await open(other)
            try await elsewhere.store(sample("d", 0), forKey: "d")
        }
        try FileManager.default.removeItem(at: entryFileURL(directory.url, key: "b"))
        let moved = entryFileURL(directory.url, key: "d")
        try FileManager.default.createDirectory(at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: entryFileURL(other.url, key: "d"), to: moved)
        // Garbage: a stray file in a fan-out folder, an entry under the wrong name, and a leftover temp file.
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("00"), withIntermediateDirectories: true)
        try Data("junk".utf8).write(to: directory.url.appendingPathComponent("00/not-an-entry"))
        let wrongName = entryFileURL(directory.url, key: "zzz")
        try FileManager.default.createDirectory(at: wrongName.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: entryFileURL(directory.url, key: "a"), to: wrongName)
        try Data("partial".utf8).write(to: directory.url.appendingPathComponent("tmp/leftover"))

        let store = try await open(directory)
        let statistics = await store.statistics
        #expect(statistics.entries == 3)
        #expect(statistics.tempFilesRemoved == 1)
        #expect(statistics.damagedEntriesRemoved == 1)   // the entry under another key's name
        for key in ["a", "c", "d"] { #expect(await store.entry(forKey: key)?.data == sample(key, 0)) }
        #expect(await store.entry(forKey: "b") == nil)
        let files = try StoreFiles(directory.url)
        #expect(files.entries.count == 3 && files.temporaries.isEmpty)
        #expect(await store.totalBytes == files.totalBytes)

        // Removed while the store runs: a miss, and the byte total follows.
        try FileManager.default.removeItem(at: entryFileURL(directory.url, key: "c"))
        #expect(await store.entry(forKey: "c") == nil)
        #expect(await store.totalBytes == (try StoreFiles(directory.url)).totalBytes)
    }

    enum Damage: String, CaseIterable, Sendable { case truncated, flippedDataByte, flippedHeaderByte, empty }

    @Test("a damaged entry is a miss, is removed, and is counted", arguments: Damage.allCases)
    func damagedEntry(damage: Damage) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try await open(directory)
        try await store.store(sample("a", 0), forKey: "a")
        try await store.store(sample("b", 0), forKey: "b")
        let file = entryFileURL(directory.url, key: "a")
        var bytes = try Data(contentsOf: file)
        switch damage {
        case .truncated: bytes.removeLast(100)
        case .flippedDataByte: bytes[bytes.count - 10] ^= 0x01
        case .flippedHeaderByte: bytes[EntryFile.prefixLength + 5] ^= 0x01
        case .empty: bytes = Data()
        }
        try bytes.write(to: file)
        #expect(await store.entry(forKey: "a") == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let statistics = await store.statistics
        #expect(statistics.damagedEntriesRemoved == 1)
        #expect(statistics.entries == 1)
        #expect(statistics.bytes == (try StoreFiles(directory.url)).totalBytes)
        #expect(await store.entry(forKey: "b")?.data == sample("b", 0))
    }

    @Test("a damaged file is also caught by the rebuild at start")
    func damagedAtStart() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        do {
            let store = try await open(directory)
            try await store.store(sample("a", 0), forKey: "a")
        }
        let file = entryFileURL(directory.url, key: "a")
        var bytes = try Data(contentsOf: file)
        bytes.removeLast()
        try bytes.write(to: file)
        let store = try await open(directory)
        #expect(await store.statistics.damagedEntriesRemoved == 1)
        #expect(await store.statistics.entries == 0)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("the size limit holds while writing three times the limit; sweeps go down to the target")
    func sizeLimit() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let limit = 400_000
        let store = try await open(directory, .init(sizeLimit: limit, sweepTarget: 0.7))
        var written = 0
        var index = 0
        var sawSweep = false
        while written < 3 * limit {
            let key = "k\(index)"
            let data = sample(key, 0)
            try await store.store(data, forKey: key)
            _ = await store.entry(forKey: "k0")   // keep k0 the most recently used
            written += data.count
            index += 1
            let total = await store.totalBytes
            #expect(total <= limit)
            #expect(total == (try StoreFiles(directory.url)).totalBytes)
            if await store.statistics.evictions > 0, !sawSweep {
                sawSweep = true
                #expect(total <= Int(Double(limit) * 0.7))
            }
        }
        #expect(sawSweep)
        #expect(await store.entry(forKey: "k0") != nil)                  // recently used: kept
        #expect(await store.entry(forKey: "k\(index - 1)") != nil)       // just written: kept
        #expect(await store.entry(forKey: "k1") == nil)                  // oldest untouched: gone
    }

    @Test("an entry larger than the whole limit is not stored and drops the old value")
    func entryLargerThanLimit() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try await open(directory, .init(sizeLimit: 10_000))
        try await store.store(Data(count: 100), forKey: "a")
        #expect(try await store.store(Data(count: 20_000), forKey: "a") == false)
        #expect(await store.entry(forKey: "a") == nil)
        #expect(await store.totalBytes == 0)
    }

    @Test("expiry: fresh, then stale with validators, then gone without; a 304 refresh keeps the bytes")
    func freshness() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clock = ManualClock()
        let store = try await open(directory, clock: clock)
        let data = sample("a", 0)
        let validators = DiskEntryValidators(etag: "\"v1\"")
        try await store.store(data, forKey: "a", attributes: .init(expiresAt: clock.date.addingTimeInterval(60), validators: validators))
        try await store.store(data, forKey: "plain", attributes: .init(expiresAt: clock.date.addingTimeInterval(60)))
        try await store.store(data, forKey: "default")   // default max age: 7 days
        #expect(await store.entry(forKey: "a")?.freshness == .fresh)
        clock.advance(by: .seconds(61))
        #expect(await store.entry(forKey: "a")?.freshness == .stale(validators))
        #expect(await store.entry(forKey: "plain") == nil)
        #expect(await store.statistics.expiredEntriesRemoved == 1)
        #expect(await store.entry(forKey: "default")?.freshness == .fresh)

        let refreshed = try await store.refresh(forKey: "a", notModifiedHeaders: [("Cache-Control", "max-age=120")])
        #expect(refreshed)
        let entry = try #require(await store.entry(forKey: "a"))
        #expect(entry.freshness == .fresh)
        #expect(entry.data == data)
        #expect(entry.metadata.validators == validators)   // the 304 repeated none: kept
        #expect(entry.metadata.expiresAt == clock.date.addingTimeInterval(120))
        #expect(try await store.refresh(forKey: "missing", notModifiedHeaders: []) == false)

        clock.advance(by: .seconds(7 * 86_400))
        #expect(await store.entry(forKey: "default") == nil)
    }

    @Test("no-cache is stored but always stale; no-store is never stored and drops the old entry")
    func cacheControlOnStore() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try await open(directory)
        let data = Data("bytes".utf8)
        #expect(try await store.store(data, forKey: "a", responseHeaders: [("Cache-Control", "no-cache"), ("ETag", "\"e\"")]))
        #expect(await store.entry(forKey: "a")?.freshness == .stale(DiskEntryValidators(etag: "\"e\"")))
        #expect(try await store.store(data, forKey: "a", responseHeaders: [("Cache-Control", "no-store")]) == false)
        #expect(await store.entry(forKey: "a") == nil)
        #expect(await store.statistics.entries == 0)
    }

    @Test("remove and removeAll delete files and keep the totals right")
    func removal() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try await open(directory)
        for key in ["a", "b", "c"] { try await store.store(sample(key, 0), forKey: key) }
        await store.remove(key: "b")
        #expect(await store.entry(forKey: "b") == nil)
        #expect(await store.totalBytes == (try StoreFiles(directory.url)).totalBytes)
        await store.removeAll()
        #expect(try StoreFiles(directory.url).entries.isEmpty)
        #expect(await store.statistics.entries == 0)
        #expect(await store.totalBytes == 0)
    }

    @Test("every file operation runs on the store's own thread, never a cooperative one")
    func fileIOOnDedicatedThread() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileSystem = FaultyFileSystem()
        let store = try await open(directory, fileSystem: fileSystem)
        try await store.store(Data("x".utf8), forKey: "a")
        _ = await store.entry(forKey: "a")
        await store.removeAll()
        let storeThread = try #require(store.executor.threadID)
        #expect(fileSystem.threadIDs == [storeThread])   // init's rebuild included
    }

    @Test("a failed write (disk full, failed rename) throws, leaves no temp file and changes nothing")
    func writeFailureLeavesStoreConsistent() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileSystem = FaultyFileSystem()
        let store = try await open(directory, .init(sizeLimit: 200_000), fileSystem: fileSystem)
        for key in ["a", "b", "c"] { try await store.store(sample(key, 0), forKey: key) }
        let before = await store.statistics
        let order = await store.fileNamesByRecency

        fileSystem.failWritesAfterBytes = 1000
        await #expect(throws: ImagePipelineError.self) {
            try await store.store(sample("a", 1), forKey: "a")
        }
        fileSystem.failWritesAfterBytes = nil
        fileSystem.failMoves = true
        await #expect(throws: ImagePipelineError.self) {
            try await store.store(Data(count: 10), forKey: "new")
        }
        fileSystem.failMoves = false

        let after = await store.statistics
        #expect(after.entries == before.entries && after.bytes == before.bytes)
        #expect(after.writeFailures == 2)
        #expect(await store.fileNamesByRecency == order)
        let files = try StoreFiles(directory.url)
        #expect(files.temporaries.isEmpty)
        #expect(files.totalBytes == after.bytes)
        #expect(await store.entry(forKey: "a")?.data == sample("a", 0))   // old value intact
        #expect(await store.entry(forKey: "new") == nil)
    }
}
