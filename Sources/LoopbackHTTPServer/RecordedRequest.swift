/// A request as the server received it, in the server's ``LoopbackHTTPServer/requests`` log.
public struct RecordedRequest: Sendable, Equatable {
    /// Which connection carried it (see ``ConnectionEvent``).
    public var connectionID: Int
    public var method: String
    /// The path without the query string.
    public var path: String
    /// The query string without `?`, or `nil`.
    public var query: String?
    /// Header names lowercased; a repeated header keeps its last value.
    public var headers: [String: String]

    /// A header's value, the name matched case-insensitively.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A connection opening or closing, in the server's ``LoopbackHTTPServer/connections`` log.
/// A closed event whose connection was waiting on a stalled or gated route means the client
/// closed it: the server never closes such a connection on its own.
public struct ConnectionEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case opened, closed }

    public var connectionID: Int
    public var kind: Kind
    /// Paths of the requests this connection carried so far (for `.closed`: all of them).
    public var requestPaths: [String]
}
