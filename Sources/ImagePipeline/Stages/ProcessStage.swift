import Foundation

/// The top stage: applies the request's processors to previews and to the final image, stores
/// the result in the memory cache and, by the disk policy, its encoding in the disk store.
enum ProcessStage {
    static func run(request: ImageRequest, plan: RequestPlan, cacheKey: ImageCacheKey,
                    upstream: @Sendable () async -> CoalescedTask<FrameEvent>.Subscription,
                    context: StageContext, publisher: CoalescedTask<FrameEvent>.Publisher) async throws {
        if plan.readsDisk, plan.writesProcessedToDisk, let final = await processedFromDisk(request, cacheKey, context) {
            try await finish(final, request: request, plan: plan, cacheKey: cacheKey, fromDisk: true,
                             context: context, publisher: publisher)
            return
        }
        let decoding = await upstream()
        decoding.task.raisePriority(to: publisher.observePriority { decoding.task.raisePriority(to: $0) })
        for try await event in decoding.events {
            switch event {
            case .preview(let image):
                guard publisher.wantsPreviews else { continue }
                let processed = try await process(image, request.processors, context: context)
                publisher.sendPreview(.preview(processed))
            case .final(var final):
                final.image = try await process(final.image, request.processors, context: context)
                try await finish(final, request: request, plan: plan, cacheKey: cacheKey, fromDisk: false,
                                 context: context, publisher: publisher)
                return
            }
        }
        try Task.checkCancellation()
    }

    /// Runs the chain on the work pool. Processor errors become `processingFailed`.
    static func process(_ image: Image, _ processors: [any ImageProcessor], context: StageContext) async throws -> Image {
        guard !processors.isEmpty else { return image }
        let started = ContinuousClock.now
        let result = try await context.run { () throws -> Image in
            var current = image
            for processor in processors {
                do {
                    current = try processor.process(current)
                } catch let error as ImagePipelineError {
                    throw error
                } catch {
                    throw ImagePipelineError.processingFailed(processor: processor.identifier, message: "\(error)")
                }
            }
            return current
        }
        context.statistics.recordProcessing(seconds: (ContinuousClock.now - started).seconds)
        return result
    }

    private static func finish(_ final: FinalImage, request: ImageRequest, plan: RequestPlan, cacheKey: ImageCacheKey,
                               fromDisk: Bool, context: StageContext,
                               publisher: CoalescedTask<FrameEvent>.Publisher) async throws {
        try Task.checkCancellation()
        // Both caches are written before the result goes out: a caller arriving next finds the
        // image in memory, and a process that exits right after has it on disk.
        if plan.writesMemory, let memory = context.memoryCache {
            _ = await memory.set(final.image, forKey: cacheKey, cost: final.image.cost)
        }
        if !fromDisk, plan.writesProcessedToDisk {
            await storeProcessed(final.image, key: cacheKey.description, context: context)
        }
        publisher.finish(with: .final(final))
    }

    private static func processedFromDisk(_ request: ImageRequest, _ cacheKey: ImageCacheKey,
                                          _ context: StageContext) async -> FinalImage? {
        guard let disk = await context.disk?.store, let entry = await disk.entry(forKey: cacheKey.description), entry.freshness == .fresh else {
            return nil
        }
        do {
            let image = try await DecodeStage.decodeFinal(entry.data, request: request, shrink: nil, context: context)
            context.statistics.record(.diskHit)
            return FinalImage(image: image, source: .disk, httpStatus: nil, headers: [:])
        } catch {
            // A stored processed image that no longer decodes is dropped; the chain runs again.
            context.logger.warning("dropping undecodable processed entry", metadata: ["key": "\(cacheKey)"])
            await disk.remove(key: cacheKey.description)
            return nil
        }
    }

    private static func storeProcessed(_ image: Image, key: String, context: StageContext) async {
        guard !image.metadata.isAnimated, let disk = await context.disk?.store else { return }
        let quality = context.processedImageQuality
        do {
            let encoded = try await context.run { try Codecs.encodeForCache(image, quality: quality) }
            _ = try await disk.store(encoded, forKey: key, responseHeaders: [])
        } catch {
            context.logger.warning("could not store processed image", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }
}
