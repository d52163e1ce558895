import Foundation
import ImageCore

/// Something that turns a ``DataRequest`` into bytes. ``CurlDataLoader`` is the default;
/// plug in another (a mock, a different transport) by conforming to this protocol.
///
/// ```swift
/// let loader: any DataLoading = CurlDataLoader()
/// for try await event in loader.load(DataRequest(url: url)) {
///     switch event {
///     case .response(let head): print(head.statusCode, head.expectedContentLength ?? -1)
///     case .chunk(let bytes): decoder.feed(bytes)
///     }
/// }
/// ```
public protocol DataLoading: Sendable {
    /// Starts (or queues) the transfer. Nothing is cancelled by dropping the returned value
    /// before iterating it, except the transfer itself.
    func load(_ request: DataRequest) -> DataTransfer
}

extension DataLoading {
    /// Fetches the whole body. A 304 returns its head and empty data.
    ///
    /// ```swift
    /// let (head, bytes) = try await loader.data(for: DataRequest(url: url))
    /// ```
    public func data(for request: DataRequest) async throws -> (ResponseHead, Data) {
        var head: ResponseHead?
        var body = Data()
        for try await event in load(request) {
            switch event {
            case .response(let response):
                head = response
            case .chunk(let bytes) where body.isEmpty:
                // Most bodies arrive as one chunk: keep it rather than copying it.
                body = bytes
                if let expected = head?.expectedContentLength, expected > bytes.count {
                    body.reserveCapacity(expected)
                }
            case .chunk(let bytes):
                body.append(bytes)
            }
        }
        guard let head else { throw ImagePipelineError.transferFailed(message: "the transfer ended without a response") }
        return (head, body)
    }
}
