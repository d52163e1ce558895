import Foundation

/// Where prefetched images are kept.
public enum PrefetchDestination: Sendable, Hashable {
    /// Decoded and processed into the memory cache, with the original bytes on disk.
    case memoryAndDisk
    /// Only the original bytes on disk (they are still decoded once, so nothing undecodable is
    /// stored), leaving the memory cache for images in use.
    case disk
}

/// A running prefetch. Cancel it to stop whatever has not loaded yet; work that other callers
/// also wait for goes on for them.
public struct PrefetchTask: Sendable {
    fileprivate let task: Task<PrefetchResult, Never>

    /// Stops the prefetch.
    public func cancel() { task.cancel() }

    /// Waits for every image of the prefetch to load or fail.
    public var result: PrefetchResult { get async { await task.value } }
}

/// How a prefetch went.
public struct PrefetchResult: Sendable, Equatable {
    /// Images now in the chosen cache.
    public var succeeded = 0
    /// Images that failed to load (or were cancelled).
    public var failed = 0

    public init(succeeded: Int = 0, failed: Int = 0) {
        self.succeeded = succeeded
        self.failed = failed
    }
}

extension Pipeline {
    /// Loads images at low priority so that later requests find them in the caches.
    ///
    /// ```swift
    /// let prefetch = pipeline.prefetch(nextPageURLs)
    /// // ... the user scrolled away:
    /// prefetch.cancel()
    /// ```
    /// - Parameters:
    ///   - processors: the chain later requests will use, so their processed images are cached.
    ///   - destination: memory and disk, or disk only.
    ///   - maxConcurrent: how many images are in flight at once.
    @discardableResult
    public nonisolated func prefetch(_ urls: [URL], processors: [any ImageProcessor] = [],
                                     destination: PrefetchDestination = .memoryAndDisk,
                                     maxConcurrent: Int = 4) -> PrefetchTask {
        let requests = urls.map { url -> ImageRequest in
            var request = ImageRequest(url: url, processors: destination == .disk ? [] : processors, priority: .low)
            if destination == .disk { request.options.insert(.skipMemoryCacheWrite) }
            return request
        }
        return prefetch(requests, maxConcurrent: maxConcurrent)
    }

    /// Prefetches fully described requests (their priority is kept).
    @discardableResult
    public nonisolated func prefetch(_ requests: [ImageRequest], maxConcurrent: Int = 4) -> PrefetchTask {
        let task = Task(priority: .low) { () -> PrefetchResult in
            await withTaskGroup(of: Bool.self) { group in
                var result = PrefetchResult()
                var pending = requests.makeIterator()
                for _ in 0 ..< max(1, maxConcurrent) {
                    guard let request = pending.next() else { break }
                    group.addTask { (try? await self.response(for: request)) != nil }
                }
                while let succeeded = await group.next() {
                    if succeeded { result.succeeded += 1 } else { result.failed += 1 }
                    if !Task.isCancelled, let request = pending.next() {
                        group.addTask { (try? await self.response(for: request)) != nil }
                    }
                }
                // Requests never started because of cancellation count as failed.
                while pending.next() != nil { result.failed += 1 }
                return result
            }
        }
        return PrefetchTask(task: task)
    }
}
