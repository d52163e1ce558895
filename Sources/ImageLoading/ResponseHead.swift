import Foundation

/// One response header field, as received.
public struct HeaderField: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The status line and headers of the final response (after redirects).
public struct ResponseHead: Sendable, Equatable {
    /// The HTTP status: 2xx, or 304 when a conditional request found the cached copy current.
    /// `file:` and `data:` URLs report 200.
    public var statusCode: Int
    /// The URL that produced this response, after redirects.
    public var url: URL
    /// Header fields in the order received (repeated names kept).
    public var headerFields: [HeaderField]
    /// Body length in bytes as it will be delivered, when known up front: the Content-Length
    /// of an unencoded body, or a file's size. `nil` for chunked or content-encoded bodies.
    public var expectedContentLength: Int?

    public init(statusCode: Int, url: URL, headerFields: [HeaderField], expectedContentLength: Int?) {
        self.statusCode = statusCode
        self.url = url
        self.headerFields = headerFields
        self.expectedContentLength = expectedContentLength
    }

    /// The first value of a header, matched case-insensitively.
    public func value(forHeader name: String) -> String? {
        headerFields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// True for 304: the cached copy the request's validators came from is still current,
    /// and no body follows.
    public var isNotModified: Bool { statusCode == 304 }
    public var entityTag: String? { value(forHeader: "ETag") }
    public var lastModified: String? { value(forHeader: "Last-Modified") }
    public var contentType: String? { value(forHeader: "Content-Type") }
}

/// One step of a transfer. A successful transfer is exactly one `.response` followed by zero
/// or more `.chunk`s; then the sequence ends. A 304 is a `.response` whose head says
/// ``ResponseHead/isNotModified``, with no chunks. Failures end the sequence by throwing.
public enum DataEvent: Sendable, Equatable {
    case response(ResponseHead)
    /// The next bytes of the (decoded) body; never empty.
    case chunk(Data)
}

/// How far a transfer has come; fold it from the events:
///
/// ```swift
/// var progress = TransferProgress()
/// for try await event in loader.load(request) {
///     progress.record(event)
///     print(progress.fractionCompleted ?? 0)
/// }
/// ```
public struct TransferProgress: Sendable, Equatable {
    public var receivedBytes = 0
    public var expectedBytes: Int?

    public init() {}

    /// Updates the counts from one event.
    public mutating func record(_ event: DataEvent) {
        switch event {
        case .response(let head): expectedBytes = head.expectedContentLength
        case .chunk(let data): receivedBytes += data.count
        }
    }

    /// Between 0 and 1 when the total is known.
    public var fractionCompleted: Double? {
        guard let expectedBytes, expectedBytes > 0 else { return nil }
        return min(1, Double(receivedBytes) / Double(expectedBytes))
    }
}
