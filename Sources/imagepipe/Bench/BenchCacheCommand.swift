import ArgumentParser
import Foundation
import ImageCaching
import Synchronization

/// `imagepipe bench cache`: MemoryCache get/set throughput next to its limit, a plain
/// Dictionary behind a Mutex (no recency order, no limits, no actor hop), in the same run.
struct BenchCacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "MemoryCache get/set operations per second against a Mutex-guarded Dictionary.")

    @Option(help: "Distinct keys.")
    var keys = 50_000
    @Option(help: "Operations per measured phase.")
    var operations = 1_000_000
    @Option(help: "Rounds; the best round of each is reported.")
    var rounds = 3

    func run() async throws {
        guard #available(macOS 15, *) else { throw ValidationError("needs Synchronization.Mutex (macOS 15)") }
        // Random keys, drawn once, shared by both contenders.
        var generator = SystemRandomNumberGenerator()
        let sequence = (0 ..< operations).map { _ in Int.random(in: 0 ..< keys, using: &generator) }
        print("MemoryCache vs Mutex<Dictionary>: \(keys) keys, \(operations) operations per phase, best of \(rounds)")

        var best: [String: Double] = [:]
        for _ in 0 ..< rounds {
            // Limits high enough that nothing is evicted: measure the structure, not the purge.
            let cache = MemoryCache<Int, Int>(configuration: .init(costLimit: .max / 2, maxEntryCostFraction: 1))
            let setCache = try await measure { for key in sequence { await cache.set(key, forKey: key, cost: 1) } }
            let getCache = try await measure {
                var found = 0
                for key in sequence where await cache.value(forKey: key) != nil { found += 1 }
                precondition(found > 0)
            }
            let dictionary = LockedDictionary()
            let setDictionary = try await measure { for key in sequence { dictionary.set(key, key) } }
            let getDictionary = try await measure {
                var found = 0
                for key in sequence where dictionary.get(key) != nil { found += 1 }
                precondition(found > 0)
            }
            for (name, seconds) in [("cache.set", setCache), ("cache.get", getCache),
                                    ("dict.set", setDictionary), ("dict.get", getDictionary)] {
                best[name] = min(best[name] ?? .infinity, seconds)
            }
        }
        func rate(_ name: String) -> Double { Double(operations) / best[name]! }
        for operation in ["set", "get"] {
            let cache = rate("cache.\(operation)")
            let dictionary = rate("dict.\(operation)")
            print(String(format: "%@  MemoryCache (actor, LRU) %8.2f M ops/s   Mutex<Dictionary> %8.2f M ops/s   ratio %.2f",
                         operation, cache / 1e6, dictionary / 1e6, cache / dictionary))
        }
    }

    /// Times `body` in a detached task: `run()` is on the main actor, and calling an actor from
    /// the main thread would measure two thread switches per call, not the cache. From the
    /// cooperative pool (where the pipeline calls it) an uncontended actor call needs no switch.
    private func measure(_ body: @escaping @Sendable () async throws -> Void) async throws -> Double {
        try await Task.detached {
            let clock = ContinuousClock()
            let elapsed = try await clock.measure { try await body() }
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }.value
    }
}

/// The baseline: a Dictionary behind a Mutex.
@available(macOS 15, *)
private final class LockedDictionary: Sendable {
    private let storage = Mutex<[Int: Int]>([:])
    func set(_ key: Int, _ value: Int) { storage.withLock { $0[key] = value } }
    func get(_ key: Int) -> Int? { storage.withLock { $0[key] } }
}
