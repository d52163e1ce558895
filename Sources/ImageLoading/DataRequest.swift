import Foundation

/// What to fetch and how: the input of every ``DataLoading`` implementation.
///
/// ```swift
/// var request = DataRequest(url: URL(string: "https://example.com/cat.jpg")!)
/// request.priority = .high
/// request.timeout = .seconds(5)
/// request.headers["Authorization"] = "Bearer \(token)"
/// ```
public struct DataRequest: Sendable {
    /// The HTTP method. Only methods that fetch data are offered.
    public enum Method: String, Sendable {
        case get = "GET"
        case head = "HEAD"
    }

    /// Order among queued transfers when all transfer slots are busy; higher starts first.
    public enum Priority: Int, Sendable, Comparable, CaseIterable {
        case veryLow, low, normal, high, veryHigh

        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Validators from a cached copy: they turn the request into a conditional one, and a
    /// server that still has the same bytes answers 304 (``ResponseHead/isNotModified``).
    public struct Validators: Sendable, Equatable {
        /// Sent as `If-None-Match`.
        public var entityTag: String?
        /// Sent as `If-Modified-Since` (an HTTP date, passed through verbatim).
        public var lastModified: String?

        public init(entityTag: String? = nil, lastModified: String? = nil) {
            self.entityTag = entityTag
            self.lastModified = lastModified
        }
    }

    /// Changes a request just before it goes out (add credentials, sign the URL) or refuses it
    /// by throwing; a thrown error other than ``ImageCore/ImagePipelineError/requestRefused(reason:)``
    /// is reported as `requestRefused` with the error's description.
    public typealias Modifier = @Sendable (DataRequest) async throws -> DataRequest

    /// `http`, `https`, `file` or `data` URL.
    public var url: URL
    public var method: Method
    /// Extra request headers. Names are sent as given; `Accept-Encoding` is managed by the loader.
    public var headers: [String: String]
    public var priority: Priority
    /// Total time limit for this request; `nil` uses the loader's configured total timeout.
    public var timeout: Duration?
    /// Validators for a conditional request; `nil` fetches unconditionally.
    public var validators: Validators?
    /// Runs before the request goes out (after any loader-wide modifier).
    public var modifier: Modifier?

    public init(url: URL, method: Method = .get, headers: [String: String] = [:], priority: Priority = .normal,
                timeout: Duration? = nil, validators: Validators? = nil, modifier: Modifier? = nil) {
        self.url = url
        self.method = method
        self.headers = headers
        self.priority = priority
        self.timeout = timeout
        self.validators = validators
        self.modifier = modifier
    }

    /// The headers actually sent: ``headers`` plus the conditional ones from ``validators``.
    public var effectiveHeaders: [String: String] {
        var result = headers
        if let tag = validators?.entityTag { result["If-None-Match"] = tag }
        if let date = validators?.lastModified { result["If-Modified-Since"] = date }
        return result
    }
}
