import Foundation
import Logging

extension CurlDataLoader {
    /// Limits and policies of a ``CurlDataLoader``. The defaults suit an image service.
    public struct Configuration: Sendable {
        /// Which queued request starts next among those of equal priority.
        public enum QueueOrder: Sendable {
            /// Oldest first (the default).
            case fifo
            /// Newest first: suits scrolling UIs and crawlers where recent requests matter most.
            case lifo
        }

        /// Transfers running at once; the rest wait in the queue by priority.
        public var maxConcurrentTransfers = 6
        public var queueOrder = QueueOrder.fifo
        /// Time allowed for DNS, TCP and TLS.
        public var connectTimeout: Duration = .seconds(10)
        /// Time allowed for a whole transfer, unless the request sets its own ``DataRequest/timeout``.
        public var totalTimeout: Duration = .seconds(15)
        /// A transfer fails with `timedOut(.stall)` after receiving fewer than
        /// ``stallMinimumBytesPerSecond`` for this long (whole seconds; at least 1).
        public var stallTimeout: Duration = .seconds(10)
        public var stallMinimumBytesPerSecond = 1
        /// Redirects followed before failing with `tooManyRedirects`.
        public var maxRedirects = 5
        /// Bodies larger than this fail with `responseTooLarge`: up front from Content-Length,
        /// otherwise as soon as the received bytes pass it.
        public var maxResponseSize = 64 << 20
        /// Hosts whose TLS certificate is not verified (self-signed development hosts). Empty by
        /// default; verification stays on for every other host.
        public var insecureHosts: Set<String> = []
        public var userAgent = "ImagePipeline/1.0"
        /// Runs before every request (before the request's own modifier).
        public var requestModifier: DataRequest.Modifier?
        public var logger = Logger(label: "imagepipeline.loader")

        public init() {}
    }
}
