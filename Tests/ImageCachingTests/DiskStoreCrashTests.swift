import Foundation
import ImageCore
import Testing
import TestSupport
@testable import ImageCaching
#if canImport(Glibc)
import Glibc
#endif

/// Finds the `diskstore-stress` executable that `swift build --build-tests` puts next to the
/// test bundle. Searched: `$DISKSTORE_STRESS`, then the folders holding this test binary (and a
/// few above, for bundle layouts), then `.build/debug` of this repository.
enum StressBinary {
    static func locate() -> URL? {
        if let override = ProcessInfo.processInfo.environment["DISKSTORE_STRESS"] { return URL(fileURLWithPath: override) }
        return BuiltProduct.locate("diskstore-stress")
    }
}

/// A child process whose stdout the test reads line by line, off the cooperative pool.
final class ChildProcess: @unchecked Sendable {
    // `process` and `output` are set once in init and only used through their thread-safe
    // methods (Process signalling/waiting, FileHandle reads from one reader at a time).
    let process = Process()
    private let output = Pipe()
    private var buffer = Data()

    init(_ executable: URL, arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        try process.run()
    }

    /// Reads lines until `predicate` accepts one (returned) or the child closes stdout (nil).
    func readLine(until predicate: @escaping @Sendable (String) -> Bool) async throws -> String? {
        try await BlockingWorkPool.shared.run { [self] in
            while true {
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex ..< newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex ... newline)
                    if predicate(line) { return line }
                }
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return nil }
                buffer.append(chunk)
            }
        }
    }

    func kill() { _ = Glibc.kill(process.processIdentifier, SIGKILL) }

    /// Reads lines until `predicate` accepts one, then, off the cooperative pool, waits the
    /// microseconds `delay` picks for that line and sends SIGKILL. Returns the line (nil if the
    /// child ended first). The wait only chooses *where* in the child's work the kill lands.
    func kill(afterLine predicate: @escaping @Sendable (String) -> Bool,
              delay: @escaping @Sendable (String) -> UInt32) async throws -> String? {
        guard let line = try await readLine(until: predicate) else { return nil }
        try await BlockingWorkPool.shared.run { [self] in
            usleep(delay(line))
            kill()
        }
        return line
    }

    /// Waits for the child to end (off the cooperative pool); returns its status and reason.
    func wait() async throws -> (status: Int32, reason: Process.TerminationReason) {
        try await BlockingWorkPool.shared.run { [self] in
            process.waitUntilExit()
            return (process.terminationStatus, process.terminationReason)
        }
    }
}

@Suite("Disk store crash safety")
struct DiskStoreCrashTests {
    /// n from a "wrote n µs" progress line (0 for any other line).
    static func written(_ line: String) -> Int {
        let fields = line.split(separator: " ")
        return fields.count == 3 && fields[0] == "wrote" ? Int(fields[1]) ?? 0 : 0
    }

    @Test("the stress child is built next to the tests")
    func stressBinaryIsBuilt() {
        #expect(StressBinary.locate() != nil, "diskstore-stress not found: run `swift build --build-tests` first")
    }

    @Test("kill -9 during write storms leaves every entry intact: old or new, never torn")
    func killDuringWriteStorm() async throws {
        let binary = try #require(StressBinary.locate(), "diskstore-stress not found: run `swift build --build-tests`")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keyCount = 150           // as in the child
        var next = 0                 // the next write number a child starts from
        // Several rounds: each kill lands at a random point of a store() call; over the rounds
        // some land inside the file write, which a non-atomic store would leave torn.
        for round in 0 ..< 12 {
            let target = next + keyCount + 40   // every key rewritten in each round
            let child = try ChildProcess(binary, arguments: ["storm", directory.url.path, "\(next)"])
            // Kill at a random point of the next store() call: the child reports how long its last
            // one took, and the kill waits a random part of that (otherwise it would always land
            // in the cheap work right after the report, never inside a file write).
            let line = try await child.kill(afterLine: { Self.written($0) >= target }, delay: { line in
                UInt32.random(in: 0 ... max(1, UInt32(line.split(separator: " ").last.flatMap { Int($0) } ?? 1000)))
            })
            let ended = try await child.wait()
            #expect(ended.reason == .uncaughtSignal && ended.status == SIGKILL)
            let reported = try #require(line.map(Self.written), "round \(round): the child died early")

            let store = try await DiskStore(directory: directory.url, configuration: .init(sizeLimit: 1 << 40),
                                            logger: quietLogger)
            let opened = await store.statistics
            #expect(opened.damagedEntriesRemoved == 0, "round \(round): torn entries found")
            #expect(opened.tempFilesRemoved <= 1)   // at most the one write the kill interrupted
            #expect(opened.entries == keyCount)
            for keyIndex in 0 ..< keyCount {
                let key = "key-\(keyIndex)"
                let entry = try #require(await store.entry(forKey: key), "\(key) was reported written but is missing")
                let version = try #require(entry.metadata.validators.etag.flatMap { Int($0.dropFirst()) })
                #expect(entry.data == stressContent(key: key, version: version), "\(key) v\(version) is torn")
                // At least the newest write the child reported for this key (nothing acknowledged is
                // lost). It may be newer: on a busy machine the child goes on writing between its
                // report and the moment the kill lands.
                let lastReported = (reported - 1 - keyIndex) / keyCount
                #expect(version >= lastReported, "round \(round), \(key): v\(version), expected at least v\(lastReported)")
            }
            #expect(await store.statistics.damagedEntriesRemoved == 0)
            #expect(try StoreFiles(directory.url).temporaries.isEmpty)
            #expect(await store.totalBytes == (try StoreFiles(directory.url)).totalBytes)
            next = reported + 1   // past the write that may have been in flight
        }
    }

    @Test("a write over RLIMIT_FSIZE fails with an error and the store stays consistent (child process)")
    func fileSizeLimitInChild() async throws {
        let binary = try #require(StressBinary.locate(), "diskstore-stress not found: run `swift build --build-tests`")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let child = try ChildProcess(binary, arguments: ["fsize", directory.url.path])
        let result = try await child.readLine { $0.hasPrefix("RESULT") }
        let ended = try await child.wait()
        #expect(result == "RESULT ok")
        #expect(ended.reason == .exit && ended.status == 0)
    }
}
