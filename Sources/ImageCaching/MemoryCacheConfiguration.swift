import Foundation

/// Limits and purge behaviour of a ``MemoryCache``.
///
/// When an insert takes the cache over a limit, the least recently used entries are evicted
/// until the cache is at ``purgeTarget`` of that limit (80 % by default), so a full cache does
/// not evict on every insert.
public struct MemoryCacheConfiguration: Sendable, Equatable {
    /// The most cost (bytes of pixels for images) the cache holds. Default: 15 % of physical
    /// memory, at most 512 MB.
    public var costLimit: Int
    /// The most entries the cache holds. Default: unlimited.
    public var countLimit: Int
    /// An entry whose cost exceeds this fraction of ``costLimit`` is not stored (it would evict
    /// a large part of the cache). Default: 1/4.
    public var maxEntryCostFraction: Double
    /// Entries older than this (since they were stored) are treated as absent when read.
    /// Default: nil, entries never expire.
    public var timeToLive: Duration?
    /// After going over a limit, evict down to this fraction of it. Must be in 0...1; default 0.8.
    public var purgeTarget: Double

    /// The default cost limit: 15 % of physical memory, capped at 512 MB.
    public static var defaultCostLimit: Int {
        let fifteenPercent = Double(ProcessInfo.processInfo.physicalMemory) * 0.15
        return min(Int(fifteenPercent), 512 << 20)
    }

    public init(costLimit: Int = MemoryCacheConfiguration.defaultCostLimit,
                countLimit: Int = .max,
                maxEntryCostFraction: Double = 0.25,
                timeToLive: Duration? = nil,
                purgeTarget: Double = 0.8) {
        self.costLimit = max(0, costLimit)
        self.countLimit = max(0, countLimit)
        self.maxEntryCostFraction = min(max(maxEntryCostFraction, 0), 1)
        self.timeToLive = timeToLive
        self.purgeTarget = min(max(purgeTarget, 0), 1)
    }

    /// The largest cost a single entry may have and still be stored.
    @inlinable
    var maxEntryCost: Int { Int(Double(costLimit) * maxEntryCostFraction) }
    /// Total cost the cache purges down to once over ``costLimit``.
    @inlinable
    var costPurgeTarget: Int { Int(Double(costLimit) * purgeTarget) }
    /// Count the cache purges down to once over ``countLimit``.
    @inlinable
    var countPurgeTarget: Int {
        countLimit == .max ? .max : min(countLimit, Int(Double(countLimit) * purgeTarget))
    }
}

/// Counters of a ``MemoryCache`` since it was made (or last cleared with `resetStatistics`).
public struct MemoryCacheStatistics: Sendable, Equatable {
    /// Reads that found a live entry.
    public var hits = 0
    /// Reads that found nothing, or an entry past its time to live.
    public var misses = 0
    /// Entries removed to get back under a limit (not counting explicit removals or expiries).
    public var evictions = 0
    /// Entries dropped on read because their time to live had passed.
    public var expirations = 0
    /// Inserts refused because the entry alone was over the per-entry cost limit.
    public var rejections = 0
    /// Sum of the costs of the entries held now.
    public var totalCost = 0
    /// Entries held now.
    public var count = 0

    public init() {}
}
