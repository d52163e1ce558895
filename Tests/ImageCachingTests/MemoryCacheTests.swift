import Foundation
import ImageCore
import Testing
@testable import ImageCaching

/// A clock tests move by hand (no sleeps).
final class ManualClock: @unchecked Sendable {
    // `offset` is only read and written with `lock` held, which makes sharing it across tasks safe.
    private let lock = NSLock()
    private var offset: Duration = .zero
    private let origin = ContinuousClock.now
    private let wallOrigin = Date(timeIntervalSince1970: 1_700_000_000)

    func advance(by duration: Duration) { lock.withLock { offset += duration } }
    var instant: ContinuousClock.Instant { lock.withLock { origin + offset } }
    var date: Date {
        let seconds = lock.withLock { offset }.components
        return wallOrigin.addingTimeInterval(TimeInterval(seconds.seconds) + TimeInterval(seconds.attoseconds) / 1e18)
    }
}

@Suite("Memory cache")
struct MemoryCacheTests {
    @Test("a read moves the entry to the front; eviction takes the least recently used")
    func lruOrder() async {
        let cache = MemoryCache<String, Int>(configuration: .init(costLimit: 30, maxEntryCostFraction: 1, purgeTarget: 1))
        for key in ["a", "b", "c"] { await cache.set(0, forKey: key, cost: 10) }
        #expect(await cache.keysByRecency == ["c", "b", "a"])
        #expect(await cache.value(forKey: "a") == 0)
        #expect(await cache.keysByRecency == ["a", "c", "b"])
        await cache.set(1, forKey: "d", cost: 10)   // 40 > 30: evicts b, the least recent
        #expect(await cache.keysByRecency == ["d", "a", "c"])
        #expect(await cache.value(forKey: "b") == nil)
        #expect(await cache.statistics.evictions == 1)
    }

    @Test("over the cost limit, the cache purges down to the target, not just below the limit")
    func costLimitPurgesToTarget() async {
        let cache = MemoryCache<Int, Int>(configuration: .init(costLimit: 100, maxEntryCostFraction: 0.25, purgeTarget: 0.6))
        for key in 0 ..< 10 { await cache.set(key, forKey: key, cost: 10) }
        #expect(await cache.totalCost == 100)
        #expect(await cache.statistics.evictions == 0)
        await cache.set(10, forKey: 10, cost: 10)          // 110 > 100: purge to <= 60
        #expect(await cache.totalCost == 60)
        #expect(await cache.keysByRecency == [10, 9, 8, 7, 6, 5])
        #expect(await cache.statistics.evictions == 5)
        await cache.set(11, forKey: 11, cost: 10)          // 70: under the limit, no eviction
        #expect(await cache.statistics.evictions == 5)
        #expect(await cache.count == 7)
    }

    @Test("the count limit purges to its target too")
    func countLimit() async {
        let cache = MemoryCache<Int, Int>(configuration: .init(costLimit: 1 << 30, countLimit: 10, purgeTarget: 0.8))
        for key in 0 ..< 10 { await cache.set(key, forKey: key, cost: 1) }
        #expect(await cache.count == 10)
        await cache.set(10, forKey: 10, cost: 1)
        #expect(await cache.count == 8)
        #expect(await cache.keysByRecency == Array((3 ... 10).reversed()))
    }

    @Test("an entry over the per-entry fraction is not stored and drops the key's old value")
    func perEntryLimit() async {
        let cache = MemoryCache<String, String>(configuration: .init(costLimit: 100, maxEntryCostFraction: 0.25))
        #expect(await cache.set("ok", forKey: "k", cost: 25))
        #expect(await cache.value(forKey: "k") == "ok")
        #expect(await cache.set("huge", forKey: "k", cost: 26) == false)
        #expect(await cache.value(forKey: "k") == nil)     // never the superseded value
        #expect(await cache.totalCost == 0)
        #expect(await cache.statistics.rejections == 1)
    }

    @Test("time to live is checked on read against the injected clock")
    func timeToLive() async {
        let clock = ManualClock()
        let cache = MemoryCache<String, Int>(configuration: .init(costLimit: 100, timeToLive: .seconds(10)),
                                            now: { clock.instant })
        await cache.set(1, forKey: "k", cost: 5)
        clock.advance(by: .seconds(9))
        #expect(await cache.value(forKey: "k") == 1)
        clock.advance(by: .seconds(1))
        #expect(await cache.value(forKey: "k") == nil)
        let statistics = await cache.statistics
        #expect(statistics.expirations == 1)
        #expect(statistics.totalCost == 0)
        #expect(statistics.count == 0)
        #expect(statistics.hits == 1 && statistics.misses == 1)
    }

    @Test("replacing a key updates its cost; remove and removeAll keep the totals right")
    func replaceAndRemove() async {
        let cache = MemoryCache<String, Int>(configuration: .init(costLimit: 1000))
        await cache.set(1, forKey: "a", cost: 10)
        await cache.set(2, forKey: "a", cost: 30)
        await cache.set(3, forKey: "b", cost: 5)
        #expect(await cache.totalCost == 35)
        #expect(await cache.value(forKey: "a") == 2)
        #expect(await cache.removeValue(forKey: "a") == 2)
        #expect(await cache.removeValue(forKey: "a") == nil)
        #expect(await cache.totalCost == 5)
        await cache.removeAll()
        #expect(await cache.statistics.count == 0)
        #expect(await cache.totalCost == 0)
        #expect(await cache.value(forKey: "b") == nil)
    }

    @Test("images are charged bytes per row × height × frames")
    func imageCost() async {
        let cache = MemoryCache<String, Image>(configuration: .init(costLimit: 1 << 20))
        let image = Image(width: 10, height: 4, pixelFormat: .rgba8)
        #expect(await cache.set(image, forKey: "i"))
        #expect(await cache.totalCost == image.bytesPerRow * 4)
        #expect(await cache.value(forKey: "i")?.sharesStorage(with: image) == true)
    }

    @Test("the default cost limit is 15 % of memory, at most 512 MB")
    func defaultLimit() {
        let expected = min(Int(Double(ProcessInfo.processInfo.physicalMemory) * 0.15), 512 << 20)
        #expect(MemoryCacheConfiguration().costLimit == expected)
        #expect(MemoryCacheConfiguration().countLimit == .max)
    }

    @Test("random operations agree with a simple reference model", arguments: [1, 2, 3])
    func agreesWithModel(seed: UInt64) async {
        var random = SplitMix(seed: seed)
        let configuration = MemoryCacheConfiguration(costLimit: 200, countLimit: 12, maxEntryCostFraction: 0.25,
                                                     purgeTarget: 0.75)
        let cache = MemoryCache<Int, Int>(configuration: configuration)
        var model = ReferenceLRU(configuration: configuration)
        for step in 0 ..< 4000 {
            let key = Int(random.next() % 40)
            switch random.next() % 10 {
            case 0 ..< 5:
                let cost = Int(random.next() % 60)
                let stored = await cache.set(step, forKey: key, cost: cost)
                #expect(stored == model.set(step, key: key, cost: cost))
            case 5 ..< 9:
                #expect(await cache.value(forKey: key) == model.value(key))
            default:
                #expect(await cache.removeValue(forKey: key) == model.remove(key))
            }
        }
        #expect(await cache.keysByRecency == model.entries.map(\.key))
        #expect(await cache.totalCost == model.entries.reduce(0) { $0 + $1.cost })
    }
}

/// splitmix64: small, seeded, good enough for test data.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

/// The obvious O(n) LRU the linked-list cache must agree with.
struct ReferenceLRU {
    let configuration: MemoryCacheConfiguration
    var entries: [(key: Int, value: Int, cost: Int)] = []   // most recent first

    mutating func set(_ value: Int, key: Int, cost: Int) -> Bool {
        entries.removeAll { $0.key == key }
        guard cost <= configuration.maxEntryCost else { return false }
        entries.insert((key, value, cost), at: 0)
        let overCost = total > configuration.costLimit
        let overCount = entries.count > configuration.countLimit
        while (overCost && total > configuration.costPurgeTarget)
            || (overCount && entries.count > configuration.countPurgeTarget) {
            entries.removeLast()
        }
        return true
    }

    var total: Int { entries.reduce(0) { $0 + $1.cost } }

    mutating func value(_ key: Int) -> Int? {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        let entry = entries.remove(at: index)
        entries.insert(entry, at: 0)
        return entry.value
    }

    mutating func remove(_ key: Int) -> Int? {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        return entries.remove(at: index).value
    }
}
