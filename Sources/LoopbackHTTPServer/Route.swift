import Foundation

/// What the server does for a path. Make one with the static functions and register it with
/// ``LoopbackHTTPServer/setRoute(_:_:)``.
///
/// ```swift
/// server.setRoute("/image.jpg", .body(jpegBytes, contentType: "image/jpeg"))
/// server.setRoute("/slow", .chunked(bytes, chunkSize: 1024, pacing: .delay(.milliseconds(20))))
/// server.setRoute("/old", .redirect(to: "/image.jpg"))
/// ```
public struct Route: Sendable {
    /// How a chunked route spaces its chunks.
    public enum ChunkPacing: Sendable {
        /// All chunks at once.
        case immediate
        /// A pause before every chunk after the first (a trickle).
        case delay(Duration)
        /// One permit of the gate before every chunk, the first included (the test steps it).
        case gate(ReleaseGate)
    }

    /// A complete response for a ``custom(_:)`` route.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data

        public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    enum Behaviour: Sendable {
        case body(Response)
        case chunked(Data, headers: [String: String], chunkSize: Int, pacing: ChunkPacing)
        case truncated(Data, headers: [String: String], declaredLength: Int)
        case stall(afterHead: Bool)
        case conditional(Data, headers: [String: String], entityTag: String?, lastModified: String?)
        case directory(URL)
        case custom(@Sendable (RecordedRequest) async throws -> Response)
    }

    let behaviour: Behaviour

    /// A complete body with Content-Length.
    public static func body(_ data: Data, status: Int = 200, contentType: String = "application/octet-stream",
                            headers: [String: String] = [:]) -> Route {
        Route(behaviour: .body(Response(status: status, headers: headers.merging(["Content-Type": contentType]) { old, _ in old },
                                        body: data)))
    }

    /// A bare status with a short text body (e.g. 404, 500).
    public static func status(_ status: Int, body: String = "") -> Route {
        Route(behaviour: .body(Response(status: status, headers: ["Content-Type": "text/plain"], body: Data(body.utf8))))
    }

    /// A redirect; `location` may be a path on this server or an absolute URL.
    public static func redirect(to location: String, status: Int = 302) -> Route {
        Route(behaviour: .body(Response(status: status, headers: ["Location": location])))
    }

    /// `Transfer-Encoding: chunked` with no Content-Length, `chunkSize` bytes at a time.
    public static func chunked(_ data: Data, chunkSize: Int, pacing: ChunkPacing = .immediate,
                               contentType: String = "application/octet-stream") -> Route {
        Route(behaviour: .chunked(data, headers: ["Content-Type": contentType], chunkSize: max(1, chunkSize), pacing: pacing))
    }

    /// Declares `declaredLength` bytes, sends `data`, then closes the connection: a dropped
    /// connection when `data` is a prefix of the body, or a huge body when `declaredLength` is large.
    public static func truncated(_ data: Data, declaredLength: Int, contentType: String = "application/octet-stream") -> Route {
        Route(behaviour: .truncated(data, headers: ["Content-Type": contentType], declaredLength: declaredLength))
    }

    /// Reads the request and never answers (or answers the head and never sends the body);
    /// the connection stays open until the client closes it.
    public static func stall(afterHead: Bool = false) -> Route {
        Route(behaviour: .stall(afterHead: afterHead))
    }

    /// The body gzip-encoded (``GzipEncoding``) with `Content-Encoding: gzip`.
    public static func gzip(_ data: Data, contentType: String = "application/octet-stream") -> Route {
        body(GzipEncoding.storedGzip(data), contentType: contentType, headers: ["Content-Encoding": "gzip"])
    }

    /// A body with ETag and/or Last-Modified that answers 304 to a matching `If-None-Match`
    /// or an equal `If-Modified-Since`.
    public static func conditional(_ data: Data, entityTag: String?, lastModified: String?,
                                   contentType: String = "application/octet-stream",
                                   headers: [String: String] = [:]) -> Route {
        Route(behaviour: .conditional(data, headers: headers.merging(["Content-Type": contentType]) { old, _ in old },
                                      entityTag: entityTag, lastModified: lastModified))
    }

    /// Files of a directory: register at a prefix ending in `/` (`"/images/"`); a request for
    /// `/images/a.jpg` gets `a.jpg` from the directory, or 404. Subfolders and `..` are refused.
    public static func directory(_ url: URL) -> Route {
        Route(behaviour: .directory(url))
    }

    /// Any response computed by `handler` (it may suspend, e.g. on a ``ReleaseGate``).
    public static func custom(_ handler: @escaping @Sendable (RecordedRequest) async throws -> Response) -> Route {
        Route(behaviour: .custom(handler))
    }
}
