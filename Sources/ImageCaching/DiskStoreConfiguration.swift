import Foundation

/// Limits, expiry and durability of a ``DiskStore``.
public struct DiskStoreConfiguration: Sendable, Equatable {
    /// How hard a write tries to survive a crash.
    public enum Durability: Sendable, Equatable {
        /// No fsync. A write is a temp file plus rename, so a killed process leaves the old entry
        /// or the new one; after a power loss a recent entry may be empty or torn, which the
        /// length and checksum checks catch (the entry is deleted and re-fetched). The default:
        /// this is a cache, and fsync costs milliseconds per entry.
        case survivesProcessCrash
        /// fsync the file before the rename and its directory after: the entry survives power loss.
        case survivesPowerLoss
    }

    /// The most bytes the entry files may take (headers included). Default 512 MB.
    public var sizeLimit: Int
    /// Once a write would pass ``sizeLimit``, least recently used entries are removed until the
    /// store is at this fraction of it. Default 0.7.
    public var sweepTarget: Double
    /// Expiry for entries stored without one (no HTTP freshness information). Default 7 days.
    public var defaultMaxAge: TimeInterval
    /// Default ``Durability/survivesProcessCrash``.
    public var durability: Durability

    public init(sizeLimit: Int = 512 << 20, sweepTarget: Double = 0.7,
                defaultMaxAge: TimeInterval = 7 * 86_400, durability: Durability = .survivesProcessCrash) {
        self.sizeLimit = max(0, sizeLimit)
        self.sweepTarget = min(max(sweepTarget, 0), 1)
        self.defaultMaxAge = max(0, defaultMaxAge)
        self.durability = durability
    }

    var sweepTargetBytes: Int { Int(Double(sizeLimit) * sweepTarget) }
}

/// Counters of a ``DiskStore`` since it was opened, plus its current totals.
public struct DiskStoreStatistics: Sendable, Equatable {
    /// Entries on disk now.
    public var entries = 0
    /// Bytes the entry files take now (headers included).
    public var bytes = 0
    /// Reads that returned a fresh entry.
    public var hits = 0
    /// Reads that returned a stale entry to revalidate.
    public var staleHits = 0
    /// Reads that returned nothing (absent, expired without validators, damaged, unreadable).
    public var misses = 0
    /// Entries removed to stay under the size limit.
    public var evictions = 0
    /// Entries found expired without validators and removed.
    public var expiredEntriesRemoved = 0
    /// Files found damaged (truncated, wrong checksum, unreadable metadata) and removed.
    public var damagedEntriesRemoved = 0
    /// Writes that failed (the caller got ``ImageCore/ImagePipelineError/diskStoreFailed(message:)``).
    public var writeFailures = 0
    /// Leftover temp files removed when the store opened.
    public var tempFilesRemoved = 0

    public init() {}
}
