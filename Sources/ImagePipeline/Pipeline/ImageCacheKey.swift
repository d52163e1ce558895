/// The key of a processed image in the memory cache and of an in-flight processing task.
///
/// Two requests share a key exactly when they produce the same pixels: same original data,
/// same decode size hint (shrink on load) and same processor identifiers in the same order.
public struct ImageCacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The key of the original bytes (custom cache key or absolute URL).
    public var dataKey: String
    /// The identifier of the processor that chose a reduced decode size, if any.
    public var decodeHint: String?
    /// The identifiers of the processors, in order, joined by `|`.
    public var processors: String

    public init(dataKey: String, decodeHint: String?, processors: String) {
        self.dataKey = dataKey
        self.decodeHint = decodeHint
        self.processors = processors
    }

    /// A single string form, used as the disk key of processed images.
    public var description: String {
        var text = dataKey
        if let decodeHint { text += "#decode=" + decodeHint }
        if !processors.isEmpty { text += "#processors=" + processors }
        return text
    }
}
