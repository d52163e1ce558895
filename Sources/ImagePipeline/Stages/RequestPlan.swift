/// What a request's options mean for each cache and stage, worked out once.
///
/// Requests whose plans differ never share in-flight work: a cache-only request must not join
/// a load that goes to the network, and a reload must not join one that reads the caches.
struct RequestPlan: Hashable, Sendable {
    var readsCaches: Bool
    var readsDisk: Bool
    var cacheOnly: Bool
    var writesOriginalToDisk: Bool
    var writesProcessedToDisk: Bool
    var writesMemory: Bool

    init(request: ImageRequest, hasDiskStore: Bool) {
        let options = request.options
        let usesDisk = hasDiskStore && !options.contains(.memoryCacheOnly) && request.diskPolicy != .none
        readsCaches = !options.contains(.reloadIgnoringCaches)
        readsDisk = usesDisk && readsCaches
        cacheOnly = options.contains(.returnCacheDataDontLoad)
        writesOriginalToDisk = usesDisk && request.diskPolicy.storesOriginal
        writesProcessedToDisk = usesDisk && request.diskPolicy.storesProcessed && !request.processors.isEmpty
        writesMemory = !options.contains(.skipMemoryCacheWrite)
    }
}

/// Keys of the three in-flight tables.
struct LoadTaskKey: Hashable, Sendable {
    var dataKey: String
    var plan: RequestPlan
}

struct DecodeTaskKey: Hashable, Sendable {
    var dataKey: String
    var decodeHint: String?
    var plan: RequestPlan
}

struct ProcessTaskKey: Hashable, Sendable {
    var cacheKey: ImageCacheKey
    var plan: RequestPlan
}
