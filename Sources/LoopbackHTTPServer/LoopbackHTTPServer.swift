import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A small HTTP/1.1 server on 127.0.0.1 for tests and demos: routes by path with canned
/// behaviours (bodies, trickles, drops, stalls, redirects, 304s, gzip, directories), a log
/// of every request and connection that tests can await, and a clean shutdown.
///
/// ```swift
/// let server = try await LoopbackHTTPServer.start()
/// server.setRoute("/cat.jpg", .body(catBytes, contentType: "image/jpeg"))
/// let (head, body) = try await loader.data(for: DataRequest(url: server.url("/cat.jpg")))
/// #expect(server.requestCount(path: "/cat.jpg") == 1)
/// await server.shutdown()
/// ```
public final class LoopbackHTTPServer: Sendable {
    typealias HTTPConnection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    /// The port the server listens on (chosen by the system when started with port 0).
    public let port: Int
    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL
    /// Every request received, in arrival order (recorded when the request is complete,
    /// before the route answers).
    public var requests: EventLog<RecordedRequest> { core.requests }
    /// Connections opened and closed, in order.
    public var connections: EventLog<ConnectionEvent> { core.connections }

    private let core: ServerCore
    private let listener: NIOAsyncChannel<HTTPConnection, Never>
    private let acceptTask: Task<Void, Never>

    private init(port: Int, core: ServerCore, listener: NIOAsyncChannel<HTTPConnection, Never>,
                 acceptTask: Task<Void, Never>) {
        self.port = port
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        self.core = core
        self.listener = listener
        self.acceptTask = acceptTask
    }

    /// Starts listening on 127.0.0.1 (`port` 0 picks a free one) with the given routes.
    public static func start(port: Int = 0, routes: [String: Route] = [:]) async throws -> LoopbackHTTPServer {
        let core = ServerCore()
        for (path, route) in routes { core.setRoute(path, route) }
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try HTTPConnection(wrappingChannelSynchronously: channel)
                }
            }
        guard let actualPort = listener.channel.localAddress?.port else {
            try? await listener.channel.close()
            throw ServerError.noLocalAddress
        }
        let acceptTask = Task {
            _ = try? await listener.executeThenClose { inbound in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in inbound {
                        group.addTask { await core.handle(connection) }
                    }
                }
            }
        }
        return LoopbackHTTPServer(port: actualPort, core: core, listener: listener, acceptTask: acceptTask)
    }

    /// The URL of `path` (which starts with `/`, and may carry a query) on this server.
    public func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString + path)!
    }

    /// Adds or replaces the route for `path` (exact match; for ``Route/directory(_:)`` a prefix
    /// ending in `/`). Takes effect for the next request.
    public func setRoute(_ path: String, _ route: Route) {
        core.setRoute(path, route)
    }

    /// Requests received so far for `path` (any method).
    public func requestCount(path: String) -> Int {
        requests.all.lazy.filter { $0.path == path }.count
    }

    /// Waits until a connection that carried a request for `path` has closed.
    public func waitForConnectionClosed(servingPath path: String) async throws {
        _ = try await connections.first { $0.kind == .closed && $0.requestPaths.contains(path) }
    }

    /// Stops listening, closes every connection (cancelling stalled and gated routes) and
    /// returns when all of them have ended.
    public func shutdown() async {
        try? await listener.channel.close()
        acceptTask.cancel()
        await acceptTask.value
    }

    enum ServerError: Error {
        case noLocalAddress
    }
}
