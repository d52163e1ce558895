import Metrics
import Synchronization

/// Counters of what a pipeline has done since it was made. A snapshot: read
/// ``Pipeline/statistics`` again for fresh figures.
public struct PipelineStatistics: Sendable, Equatable, Codable {
    /// Calls to `image`, `images(for:)`, `response(for:)` and prefetches.
    public var requests = 0
    /// Callers that joined work already in flight instead of starting their own
    /// (at any stage: processing, decoding or loading).
    public var coalescedJoins = 0
    /// Requests answered from the memory cache.
    public var memoryHits = 0
    /// Original or processed bytes served from the disk store (fresh or revalidated).
    public var diskHits = 0
    /// Transfers started by the loader, conditional ones included.
    public var networkRequests = 0
    /// Conditional requests sent for stale disk entries.
    public var revalidations = 0
    /// Revalidations the server answered with 304 Not Modified.
    public var notModified = 0
    /// Body bytes received from the loader.
    public var bytesLoaded = 0
    /// Final decodes run.
    public var decodes = 0
    /// Preview frames decoded from partial data.
    public var previewsDecoded = 0
    /// Processor chains run (on final images and previews).
    public var processingRuns = 0
    /// Total seconds spent in final decodes.
    public var decodeSeconds = 0.0
    /// Total seconds spent running processors.
    public var processingSeconds = 0.0
    /// Requests that ended with an error (cancellations not included).
    public var failures = 0
}

/// Thread-safe counters behind ``PipelineStatistics``, mirrored to swift-metrics.
///
/// Stages run in their own tasks, off the pipeline actor; a mutex keeps recording cheap and
/// free of actor hops.
final class StatisticsRecorder: Sendable {
    enum Event: String, CaseIterable {
        case request = "requests_total"
        case coalescedJoin = "coalesced_joins_total"
        case memoryHit = "memory_hits_total"
        case diskHit = "disk_hits_total"
        case networkRequest = "network_requests_total"
        case revalidation = "revalidations_total"
        case notModified = "not_modified_total"
        case previewDecoded = "previews_decoded_total"
        case failure = "failures_total"
    }

    private let counters = Mutex(PipelineStatistics())
    private let metrics: [Event: Counter]
    private let bytesCounter: Counter
    private let decodeTimer: Metrics.Timer
    private let processingTimer: Metrics.Timer

    init(prefix: String) {
        var metrics: [Event: Counter] = [:]
        for event in Event.allCases { metrics[event] = Counter(label: "\(prefix)_\(event.rawValue)") }
        self.metrics = metrics
        bytesCounter = Counter(label: "\(prefix)_bytes_loaded_total")
        decodeTimer = Metrics.Timer(label: "\(prefix)_decode_duration")
        processingTimer = Metrics.Timer(label: "\(prefix)_processing_duration")
    }

    var snapshot: PipelineStatistics { counters.withLock { $0 } }

    func record(_ event: Event) {
        counters.withLock { statistics in
            switch event {
            case .request: statistics.requests += 1
            case .coalescedJoin: statistics.coalescedJoins += 1
            case .memoryHit: statistics.memoryHits += 1
            case .diskHit: statistics.diskHits += 1
            case .networkRequest: statistics.networkRequests += 1
            case .revalidation: statistics.revalidations += 1
            case .notModified: statistics.notModified += 1
            case .previewDecoded: statistics.previewsDecoded += 1
            case .failure: statistics.failures += 1
            }
        }
        metrics[event]?.increment()
    }

    func recordBytes(_ count: Int) {
        counters.withLock { $0.bytesLoaded += count }
        bytesCounter.increment(by: count)
    }

    func recordDecode(seconds: Double) {
        counters.withLock { $0.decodes += 1; $0.decodeSeconds += seconds }
        decodeTimer.recordNanoseconds(Int64(seconds * 1e9))
    }

    func recordProcessing(seconds: Double) {
        counters.withLock { $0.processingRuns += 1; $0.processingSeconds += seconds }
        processingTimer.recordNanoseconds(Int64(seconds * 1e9))
    }
}
