import Foundation
import Logging

extension Pipeline {
    /// The parts a pipeline is made of and the knobs it turns.
    ///
    /// ```swift
    /// var configuration = Pipeline.Configuration()
    /// configuration.diskStore = try DiskStore(directory: cacheURL)
    /// configuration.previewInterval = .milliseconds(250)
    /// let pipeline = Pipeline(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// Fetches the encoded bytes. Default: a ``CurlDataLoader`` with its default settings.
        public var dataLoader: any DataLoading
        /// Keeps processed images in memory; `nil` disables the memory cache.
        public var memoryCache: MemoryCache<ImageCacheKey, Image>?
        /// Keeps encoded bytes on disk; `nil` disables the disk cache.
        public var diskStore: DiskStore?
        /// Where decoding, processing and encoding run; its width bounds how many run at once,
        /// and so how much pixel memory is in use. Default: one thread per core.
        public var workPool: BlockingWorkPool
        /// At most one preview per this interval per image, so previews never crowd out the
        /// final decode. Default 100 ms.
        public var previewInterval: Duration
        /// Quality used when a processed image is re-encoded as JPEG or lossy WebP for the disk store.
        public var processedImageQuality: Int
        /// Where the pipeline logs (cache misses, damaged entries, failures).
        public var logger: Logger
        /// Prefix of the swift-metrics labels (`<prefix>_requests_total`, ...).
        public var metricsPrefix: String

        /// A memory cache and a curl loader; no disk store (see ``defaultDiskDirectory``).
        public init(dataLoader: any DataLoading = CurlDataLoader(),
                    memoryCache: MemoryCache<ImageCacheKey, Image>? = MemoryCache(),
                    diskStore: DiskStore? = nil,
                    workPool: BlockingWorkPool = .shared,
                    previewInterval: Duration = .milliseconds(100),
                    processedImageQuality: Int = 85,
                    logger: Logger = Logger(label: "imagepipeline"),
                    metricsPrefix: String = "imagepipeline") {
            self.dataLoader = dataLoader
            self.memoryCache = memoryCache
            self.diskStore = diskStore
            self.workPool = workPool
            self.previewInterval = previewInterval
            self.processedImageQuality = processedImageQuality
            self.logger = logger
            self.metricsPrefix = metricsPrefix
        }

        /// `$XDG_CACHE_HOME/imagepipeline`, else `~/.cache/imagepipeline`.
        public static var defaultDiskDirectory: URL {
            let environment = ProcessInfo.processInfo.environment
            if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
                return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("imagepipeline", isDirectory: true)
            }
            let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            return home.appendingPathComponent(".cache/imagepipeline", isDirectory: true)
        }
    }
}
