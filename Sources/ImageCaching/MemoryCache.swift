import ImageCore

/// An in-memory least-recently-used cache with a cost limit, a count limit, a per-entry cost
/// limit and an optional time to live.
///
/// Recency is kept on a hand-built doubly linked list next to a dictionary, so reading
/// (which moves the entry to the front), storing and removing are all O(1); eviction takes
/// entries from the tail. Going over a limit purges down to a target below it
/// (``MemoryCacheConfiguration/purgeTarget``), so a full cache does not evict on every insert.
///
/// ```swift
/// let cache = MemoryCache<String, Image>(configuration: .init(costLimit: 256 << 20))
/// await cache.set(image, forKey: "https://example.com/a.jpg|resize(256x256,fill)")
/// if let hit = await cache.value(forKey: "https://example.com/a.jpg|resize(256x256,fill)") { … }
/// ```
///
/// Each call is an actor hop: about 1 µs per get or set on this machine, against tens of
/// nanoseconds for a Mutex-guarded Dictionary (`Benchmarks/memory-cache.sh`); tiny next to a
/// decode, which is what it saves. The hot paths are `@inlinable` so clients may specialise them.
public actor MemoryCache<Key: Hashable & Sendable, Value: Sendable> {
    @usableFromInline
    struct Entry {
        @usableFromInline var value: Value
        @usableFromInline var cost: Int
        @usableFromInline var storedAt: ContinuousClock.Instant

        @inlinable
        init(value: Value, cost: Int, storedAt: ContinuousClock.Instant) {
            self.value = value
            self.cost = cost
            self.storedAt = storedAt
        }
    }

    /// The limits this cache enforces.
    public let configuration: MemoryCacheConfiguration
    @usableFromInline let now: @Sendable () -> ContinuousClock.Instant
    @usableFromInline var entries = LRUList<Key, Entry>()
    @usableFromInline var counters = MemoryCacheStatistics()

    /// Makes an empty cache.
    /// - Parameters:
    ///   - configuration: limits; the defaults suit a process that caches decoded images.
    ///   - now: the clock the time to live is measured with (tests inject a manual one).
    public init(configuration: MemoryCacheConfiguration = MemoryCacheConfiguration(),
                now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.configuration = configuration
        self.now = now
    }

    /// The value for `key`, or nil. A hit makes the entry the most recently used; an entry
    /// past its time to live is removed and reported as a miss.
    @inlinable
    public func value(forKey key: Key) -> Value? {
        guard let entry = entries.touch(key) else {
            counters.misses += 1
            return nil
        }
        if let timeToLive = configuration.timeToLive, now() - entry.storedAt >= timeToLive {
            entries.remove(key)
            counters.totalCost -= entry.cost
            counters.expirations += 1
            counters.misses += 1
            return nil
        }
        counters.hits += 1
        return entry.value
    }

    /// Stores `value` under `key` as the most recently used entry, replacing any previous one.
    ///
    /// A value whose `cost` alone is over the per-entry limit is not stored, and any previous
    /// value for the key is removed (so a read never returns the superseded one).
    /// - Returns: whether the value was stored.
    @inlinable @discardableResult
    public func set(_ value: Value, forKey key: Key, cost: Int) -> Bool {
        let cost = max(0, cost)
        guard cost <= configuration.maxEntryCost, configuration.countLimit > 0 else {
            counters.rejections += 1
            if let old = entries.remove(key) { counters.totalCost -= old.cost }
            return false
        }
        if let old = entries.insertAtFront(key, Entry(value: value, cost: cost, storedAt: now())) {
            counters.totalCost -= old.cost
        }
        counters.totalCost += cost
        if counters.totalCost > configuration.costLimit || entries.count > configuration.countLimit {
            purge()
        }
        return true
    }

    /// Removes the entry for `key`; returns its value if there was one.
    @inlinable @discardableResult
    public func removeValue(forKey key: Key) -> Value? {
        guard let old = entries.remove(key) else { return nil }
        counters.totalCost -= old.cost
        return old.value
    }

    /// Removes every entry (the counters of hits, misses and evictions are kept).
    public func removeAll() {
        entries.removeAll()
        counters.totalCost = 0
    }

    /// Hits, misses, evictions and the current totals.
    public var statistics: MemoryCacheStatistics {
        var snapshot = counters
        snapshot.count = entries.count
        return snapshot
    }

    /// Sum of the costs of the entries held now.
    public var totalCost: Int { counters.totalCost }
    /// Number of entries held now.
    public var count: Int { entries.count }

    /// Keys from the most to the least recently used (O(n); for tests and diagnostics).
    public var keysByRecency: [Key] { entries.keysMostRecentFirst }

    /// Evicts from the tail until both totals are at their purge targets.
    @inlinable
    func purge() {
        let costTarget = configuration.costPurgeTarget
        let countTarget = configuration.countPurgeTarget
        let overCost = counters.totalCost > configuration.costLimit
        let overCount = entries.count > configuration.countLimit
        while (overCost && counters.totalCost > costTarget) || (overCount && entries.count > countTarget),
              let evicted = entries.removeLeastRecent() {
            counters.totalCost -= evicted.payload.cost
            counters.evictions += 1
        }
    }
}

extension MemoryCache where Value == Image {
    /// Stores a decoded image, charging its pixel memory (``Image/cost``: bytes per row × height × frames).
    @inlinable @discardableResult
    public func set(_ image: Image, forKey key: Key) -> Bool {
        set(image, forKey: key, cost: image.cost)
    }
}
