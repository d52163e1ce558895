import Foundation
import Logging

/// Fetches, decodes, processes and caches images; one instance serves a whole process.
///
/// Every stage is coalesced on its own key: many callers of one URL cause one download and one
/// decode, and one processing run per distinct processor chain. Work runs off the actor on the
/// configured ``BlockingWorkPool``; the actor only keeps the in-flight tables.
///
/// ```swift
/// let pipeline = Pipeline()
/// let thumbnail = try await pipeline.image(url, processors: [Resize(width: 256, height: 256, mode: .fill)])
///
/// for try await frame in pipeline.images(for: url) {   // previews first, the final image last
///     show(frame.image, final: frame.isFinal)
/// }
/// ```
///
/// Cancelling the calling `Task` ends that call with `CancellationError`; shared work stops
/// only when its last waiter has left, down to the HTTP transfer.
public actor Pipeline {
    /// The parts and settings this pipeline was made with.
    public nonisolated let configuration: Configuration

    private let context: StageContext
    private let recorder: StatisticsRecorder
    private var loadTasks: [LoadTaskKey: CoalescedTask<LoadEvent>] = [:]
    private var decodeTasks: [DecodeTaskKey: CoalescedTask<FrameEvent>] = [:]
    private var processTasks: [ProcessTaskKey: CoalescedTask<FrameEvent>] = [:]

    /// A pipeline with the given parts.
    public init(configuration: Configuration) {
        self.init(configuration: configuration, disk: configuration.diskStore.map(DiskStoreHandle.init))
    }

    private init(configuration: Configuration, disk: DiskStoreHandle?) {
        self.configuration = configuration
        recorder = StatisticsRecorder(prefix: configuration.metricsPrefix)
        context = StageContext(loader: configuration.dataLoader, memoryCache: configuration.memoryCache,
                               disk: disk, pool: configuration.workPool,
                               previewInterval: configuration.previewInterval,
                               processedImageQuality: configuration.processedImageQuality,
                               logger: configuration.logger, statistics: recorder)
    }

    /// A pipeline with a memory cache, a curl loader and a disk store in
    /// ``Configuration/defaultDiskDirectory``. If that directory cannot be used, the pipeline
    /// logs why and runs without a disk store.
    public init() {
        let configuration = Configuration()
        self.init(configuration: configuration,
                  disk: DiskStoreHandle(opening: Configuration.defaultDiskDirectory, logger: configuration.logger))
    }

    /// What the pipeline has done so far (requests, cache hits, coalesced joins, bytes, ...).
    public nonisolated var statistics: PipelineStatistics { recorder.snapshot }

    // MARK: Public API

    /// Loads the image at `url` through `processors`.
    public func image(_ url: URL, processors: [any ImageProcessor] = []) async throws -> Image {
        try await response(for: ImageRequest(url: url, processors: processors)).image
    }

    /// Loads the image a request describes.
    public func image(_ request: ImageRequest) async throws -> Image {
        try await response(for: request).image
    }

    /// Loads the image a request describes, with where it came from and the HTTP metadata.
    public func response(for request: ImageRequest) async throws -> ImageResponse {
        recorder.record(.request)
        let prepared = prepare(request)
        do {
            if let cached = await memoryHit(for: prepared) { return cached }
            for try await event in subscribe(prepared, wantsPreviews: false) {
                if case .final(let final) = event { return response(final, for: request) }
            }
            throw CancellationError()   // the stream ends without a final frame only when cancelled
        } catch {
            if !(error is CancellationError) { recorder.record(.failure) }
            throw error
        }
    }

    /// Loads the image progressively: preview frames while bytes arrive (progressive JPEG scans,
    /// interlaced PNG passes, WebP rows), each processed like the final image, then exactly one
    /// final frame. Images that cannot be shown progressively yield the final frame only.
    public nonisolated func images(for request: ImageRequest) -> AsyncThrowingStream<ImageFrame, any Error> {
        let (stream, continuation) = AsyncThrowingStream<ImageFrame, any Error>.makeStream()
        let task = Task { await self.deliverFrames(for: request, to: continuation) }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// ``images(for:)`` for a URL with optional processors.
    public nonisolated func images(for url: URL, processors: [any ImageProcessor] = []) -> AsyncThrowingStream<ImageFrame, any Error> {
        images(for: ImageRequest(url: url, processors: processors))
    }

    /// Removes every image from the memory cache and every entry from the disk store.
    public func removeAllCachedImages() async {
        await configuration.memoryCache?.removeAll()
        await context.disk?.store?.removeAll()
    }

    // MARK: Frames

    private func deliverFrames(for request: ImageRequest,
                               to continuation: AsyncThrowingStream<ImageFrame, any Error>.Continuation) async {
        recorder.record(.request)
        let prepared = prepare(request)
        do {
            if let cached = await memoryHit(for: prepared) {
                continuation.yield(ImageFrame(image: cached.image, isFinal: true, response: cached))
                continuation.finish()
                return
            }
            for try await event in subscribe(prepared, wantsPreviews: true) {
                switch event {
                case .preview(let image):
                    continuation.yield(ImageFrame(image: image, isFinal: false, response: nil))
                case .final(let final):
                    let response = response(final, for: request)
                    continuation.yield(ImageFrame(image: response.image, isFinal: true, response: response))
                    continuation.finish()
                    return
                }
            }
            continuation.finish(throwing: CancellationError())
        } catch {
            if !(error is CancellationError) { recorder.record(.failure) }
            continuation.finish(throwing: error)
        }
    }

    private func memoryHit(for prepared: PreparedRequest) async -> ImageResponse? {
        guard prepared.plan.readsCaches, let memory = context.memoryCache,
              let image = await memory.value(forKey: prepared.cacheKey) else { return nil }
        recorder.record(.memoryHit)
        return ImageResponse(image: image, source: .memory, url: prepared.request.url, httpStatus: nil, headers: [:])
    }

    private func response(_ final: FinalImage, for request: ImageRequest) -> ImageResponse {
        ImageResponse(image: final.image, source: final.source, url: request.url, httpStatus: final.httpStatus,
                      headers: final.headers)
    }

    // MARK: Keys

    /// The memory-cache key of a request's processed image.
    public nonisolated func cacheKey(for request: ImageRequest) -> ImageCacheKey {
        Self.cacheKey(for: request, shrink: ShrinkOnLoad(processors: request.processors))
    }

    private static func cacheKey(for request: ImageRequest, shrink: ShrinkOnLoad?) -> ImageCacheKey {
        ImageCacheKey(dataKey: request.dataKey, decodeHint: shrink?.identifier,
                      processors: request.processors.map(\.identifier).joined(separator: "|"))
    }

    /// What every stage needs to know about a request, worked out once per call.
    private struct PreparedRequest: Sendable {
        let request: ImageRequest
        let plan: RequestPlan
        let shrink: ShrinkOnLoad?
        let cacheKey: ImageCacheKey
    }

    private func prepare(_ request: ImageRequest) -> PreparedRequest {
        let shrink = ShrinkOnLoad(processors: request.processors)
        return PreparedRequest(request: request, plan: RequestPlan(request: request, hasDiskStore: context.disk != nil),
                               shrink: shrink, cacheKey: Self.cacheKey(for: request, shrink: shrink))
    }

    // MARK: In-flight tables (join or start)

    private func subscribe(_ prepared: PreparedRequest, wantsPreviews: Bool) -> CoalescedTask<FrameEvent>.Events {
        let (request, plan, cacheKey) = (prepared.request, prepared.plan, prepared.cacheKey)
        let context = self.context
        return join(&processTasks, key: ProcessTaskKey(cacheKey: cacheKey, plan: plan), wantsPreviews: wantsPreviews,
                    priority: request.priority, remove: { await $0.removeProcessTask($1, $2) }) { publisher in
            try await ProcessStage.run(request: request, plan: plan, cacheKey: cacheKey,
                                       upstream: { await self.subscribeDecode(prepared, wantsPreviews: wantsPreviews) },
                                       context: context, publisher: publisher)
        }.events
    }

    private func subscribeDecode(_ prepared: PreparedRequest, wantsPreviews: Bool) -> CoalescedTask<FrameEvent>.Subscription {
        let (request, plan, shrink) = (prepared.request, prepared.plan, prepared.shrink)
        let context = self.context
        return join(&decodeTasks, key: DecodeTaskKey(dataKey: request.dataKey, decodeHint: shrink?.identifier, plan: plan),
                    wantsPreviews: wantsPreviews, priority: request.priority,
                    remove: { await $0.removeDecodeTask($1, $2) }) { publisher in
            try await DecodeStage.run(request: request, plan: plan, shrink: shrink,
                                      upstream: { await self.subscribeLoad(request, plan: plan) },
                                      context: context, publisher: publisher)
        }
    }

    private func subscribeLoad(_ request: ImageRequest, plan: RequestPlan) -> CoalescedTask<LoadEvent>.Subscription {
        let context = self.context
        return join(&loadTasks, key: LoadTaskKey(dataKey: request.dataKey, plan: plan), wantsPreviews: false,
                    priority: request.priority, remove: { await $0.removeLoadTask($1, $2) }) { publisher in
            try await LoadStage.run(request: request, plan: plan, context: context, publisher: publisher)
        }
    }

    /// Joins the task in flight for `key`, or starts one with `work`. A join raises the shared
    /// work's priority to the caller's when that is higher.
    private func join<Key: Hashable & Sendable, Event: Sendable>(
        _ table: inout [Key: CoalescedTask<Event>], key: Key, wantsPreviews: Bool, priority: RequestPriority,
        remove: @escaping @Sendable (Pipeline, Key, CoalescedTask<Event>) async -> Void,
        work: @escaping @Sendable (CoalescedTask<Event>.Publisher) async throws -> Void
    ) -> CoalescedTask<Event>.Subscription {
        if let existing = table[key], let events = existing.subscribe(wantsPreviews: wantsPreviews, priority: priority) {
            recorder.record(.coalescedJoin)
            return .init(events: events, task: existing)
        }
        let task = CoalescedTask<Event> { [weak self] task in
            guard let self else { return }
            Task { await remove(self, key, task) }
        }
        // A new task is open until started, so the first subscription always succeeds.
        let events = task.subscribe(wantsPreviews: wantsPreviews, priority: priority)!
        table[key] = task
        task.start(work)
        return .init(events: events, task: task)
    }

    private func removeProcessTask(_ key: ProcessTaskKey, _ task: CoalescedTask<FrameEvent>) {
        if processTasks[key] === task { processTasks[key] = nil }
    }

    private func removeDecodeTask(_ key: DecodeTaskKey, _ task: CoalescedTask<FrameEvent>) {
        if decodeTasks[key] === task { decodeTasks[key] = nil }
    }

    private func removeLoadTask(_ key: LoadTaskKey, _ task: CoalescedTask<LoadEvent>) {
        if loadTasks[key] === task { loadTasks[key] = nil }
    }

    /// The priority of the load in flight for a request, once it passes raises on to its
    /// transfer; `nil` otherwise (for tests and diagnostics).
    func forwardedLoadPriority(for request: ImageRequest) -> RequestPriority? {
        let plan = RequestPlan(request: request, hasDiskStore: context.disk != nil)
        guard let state = loadTasks[LoadTaskKey(dataKey: request.dataKey, plan: plan)]?.priorityState,
              state.isForwarded else { return nil }
        return state.priority
    }

}
