import Foundation

/// The bottom stage: the original bytes of one data key, from the disk store (fresh, or
/// revalidated with a conditional request) or from the loader.
enum LoadStage {
    static func run(request: ImageRequest, plan: RequestPlan, context: StageContext,
                    publisher: CoalescedTask<LoadEvent>.Publisher) async throws {
        let key = request.dataKey
        var cached: DiskEntry?
        if plan.readsDisk, let disk = await context.disk?.store {
            cached = await disk.entry(forKey: key)
        }
        if let cached, cached.freshness == .fresh || plan.cacheOnly {
            context.statistics.record(.diskHit)
            publisher.finish(with: .complete(LoadedData(data: cached.data, source: .disk, httpStatus: nil,
                                                headers: [:], storeOnDisk: false)))
            return
        }
        if plan.cacheOnly { throw ImagePipelineError.notCached }

        var dataRequest = DataRequest(url: request.url, headers: request.headers, priority: request.priority,
                                      timeout: request.timeout)
        if let cached, case .stale(let validators) = cached.freshness, !validators.isEmpty {
            dataRequest.validators = DataRequest.Validators(entityTag: validators.etag, lastModified: validators.lastModified)
            context.statistics.record(.revalidation)
        }

        // Queue at the highest priority of every caller so far; later raises move the queued transfer.
        dataRequest.priority = publisher.observePriority { _ in }
        let transfer = context.loader.load(dataRequest)
        transfer.raisePriority(to: publisher.observePriority { transfer.raisePriority(to: $0) })
        context.statistics.record(.networkRequest)
        var body = Data()
        var head: ResponseHead?
        for try await event in transfer {
            switch event {
            case .response(let response):
                head = response
                if response.isNotModified, let cached {
                    try await refresh(cached, key: key, head: response, context: context)
                    publisher.finish(with: .complete(LoadedData(data: cached.data, source: .revalidated,
                                                        httpStatus: response.statusCode,
                                                        headers: response.headerDictionary, storeOnDisk: false)))
                    return
                }
                if let expected = response.expectedContentLength, expected > 0 { body.reserveCapacity(expected) }
            case .chunk(let chunk):
                publisher.send(.chunk(chunk, offset: body.count))
                body.append(chunk)
                context.statistics.recordBytes(chunk.count)
            }
        }
        try Task.checkCancellation()
        publisher.finish(with: .complete(LoadedData(
            data: body, source: .network, httpStatus: head?.statusCode,
            headers: head?.headerDictionary ?? [:],
            storeOnDisk: plan.writesOriginalToDisk)))
    }

    /// A 304 confirmed the stale entry: count it and give it a new expiry from the 304's headers.
    private static func refresh(_ entry: DiskEntry, key: String, head: ResponseHead,
                                context: StageContext) async throws {
        context.statistics.record(.notModified)
        context.statistics.record(.diskHit)
        guard let disk = await context.disk?.store else { return }
        do {
            _ = try await disk.refresh(forKey: key, notModifiedHeaders: head.headerFields.map { ($0.name, $0.value) })
        } catch {
            context.logger.warning("could not refresh the disk entry after 304", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }
}
