import Foundation

/// Everything about one image load beyond its URL.
///
/// ```swift
/// var request = ImageRequest(url: url, processors: [Resize(width: 256, height: 256, mode: .fill)])
/// request.priority = .high
/// request.options = [.reloadIgnoringCaches]
/// let image = try await pipeline.image(request)
/// ```
public struct ImageRequest: Sendable {
    /// Where the encoded image lives: `http(s):`, `file:` or `data:`.
    public var url: URL
    /// Applied in order to the decoded image (and to progressive previews).
    public var processors: [any ImageProcessor]
    /// Scheduling priority of the transfer and of the decode and processing work.
    public var priority: RequestPriority
    /// Extra HTTP request headers (authorisation, Accept, ...).
    public var headers: [String: String]
    /// Total time limit of the transfer; `nil` uses the loader's default.
    public var timeout: Duration?
    /// Replaces the URL as the key of the original data in the caches (for URLs that carry
    /// volatile query items such as signatures). Processor identifiers are still appended.
    public var cacheKey: String?
    /// Cache behaviour switches.
    public var options: Options
    /// What goes to disk once loaded (ignored with ``Options/memoryCacheOnly``).
    public var diskPolicy: DiskPolicy
    /// Largest width × height the decoder accepts (checked from the header).
    public var maxPixelCount: Int

    public init(url: URL, processors: [any ImageProcessor] = [], priority: RequestPriority = .normal,
                headers: [String: String] = [:], timeout: Duration? = nil, cacheKey: String? = nil,
                options: Options = [], diskPolicy: DiskPolicy = .original,
                maxPixelCount: Int = DecodingOptions.defaultMaxPixelCount) {
        self.url = url
        self.processors = processors
        self.priority = priority
        self.headers = headers
        self.timeout = timeout
        self.cacheKey = cacheKey
        self.options = options
        self.diskPolicy = diskPolicy
        self.maxPixelCount = maxPixelCount
    }

    /// Cache behaviour switches (Kingfisher's forceRefresh, onlyFromCache, cacheMemoryOnly).
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Skip both caches on the way in and load from the source; the result is still stored.
        public static let reloadIgnoringCaches = Options(rawValue: 1 << 0)
        /// Never load: answer from the memory or disk cache (a stale disk entry counts), else
        /// throw ``ImagePipelineError/notCached``.
        public static let returnCacheDataDontLoad = Options(rawValue: 1 << 1)
        /// Use the memory cache only: the disk store is neither read nor written.
        public static let memoryCacheOnly = Options(rawValue: 1 << 2)
        /// Do not store the result in the memory cache.
        public static let skipMemoryCacheWrite = Options(rawValue: 1 << 3)
    }

    /// Which encoded bytes are written to the disk store.
    public enum DiskPolicy: String, Sendable, Hashable, CaseIterable {
        /// The original bytes as downloaded (the default: any processor chain can reuse them).
        case original
        /// The processed image, re-encoded (cheap to serve again; the original is not kept).
        case processed
        /// Both the original bytes and the processed image.
        case both
        /// Nothing goes to disk.
        case none

        var storesOriginal: Bool { self == .original || self == .both }
        var storesProcessed: Bool { self == .processed || self == .both }
    }
}

extension ImageRequest {
    /// The key of the original bytes: the custom key, else the absolute URL.
    var dataKey: String { cacheKey ?? url.absoluteString }

    /// A shorthand for the common case.
    public init(_ url: URL, processors: [any ImageProcessor] = []) {
        self.init(url: url, processors: processors)
    }
}
