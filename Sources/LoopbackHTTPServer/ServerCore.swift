import Foundation
import NIOCore
import NIOHTTP1

/// The server's shared state (routes, logs) and the per-connection request loop.
final class ServerCore: @unchecked Sendable {   // safe: all mutable state behind one lock (below)
    // Sendable: `routes`, `prefixRoutes` and `nextConnectionID` are guarded by `lock`; the
    // logs are thread-safe themselves.
    private let lock = NSLock()
    private var routes: [String: Route] = [:]
    private var prefixRoutes: [(prefix: String, route: Route)] = []
    private var nextConnectionID = 0
    let requests = EventLog<RecordedRequest>()
    let connections = EventLog<ConnectionEvent>()

    func setRoute(_ path: String, _ route: Route) {
        lock.lock()
        defer { lock.unlock() }
        if case .directory = route.behaviour {
            prefixRoutes.removeAll { $0.prefix == path }
            prefixRoutes.append((path, route))
            prefixRoutes.sort { $0.prefix.count > $1.prefix.count }   // longest prefix wins
        } else {
            routes[path] = route
        }
    }

    /// The route for a path and, for a directory route, the part of the path after its prefix.
    func route(for path: String) -> (Route, remainder: String)? {
        lock.lock()
        defer { lock.unlock() }
        if let route = routes[path] { return (route, "") }
        if let match = prefixRoutes.first(where: { path.hasPrefix($0.prefix) }) {
            return (match.route, String(path.dropFirst(match.prefix.count)))
        }
        return nil
    }

    private func makeConnectionID() -> Int {
        lock.lock()
        defer { lock.unlock() }
        nextConnectionID += 1
        return nextConnectionID
    }

    /// Serves one connection until either side closes it, then records the close.
    func handle(_ connection: LoopbackHTTPServer.HTTPConnection) async {
        let id = makeConnectionID()
        connections.append(ConnectionEvent(connectionID: id, kind: .opened, requestPaths: []))
        let paths = PathList()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await self.serve(connection, id: id, paths: paths) }
            // A client that closes while a route is stalled or gated ends the route: the
            // request loop is not reading then, so the close is observed here.
            group.addTask { try? await connection.channel.closeFuture.get() }
            _ = await group.next()
            group.cancelAll()
        }
        try? await connection.channel.close()
        connections.append(ConnectionEvent(connectionID: id, kind: .closed, requestPaths: paths.all))
    }

    private func serve(_ connection: LoopbackHTTPServer.HTTPConnection, id: Int, paths: PathList) async throws {
        try await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            for try await part in inbound {
                switch part {
                case .head(let requestHead):
                    head = requestHead
                case .body:
                    break   // request bodies are not used by any route
                case .end:
                    guard let requestHead = head else { continue }
                    head = nil
                    let request = Self.record(requestHead, connectionID: id)
                    paths.append(request.path)
                    requests.append(request)
                    let responder = RouteResponder(request: request, isHead: requestHead.method == .HEAD,
                                                   outbound: outbound)
                    let keepOpen = try await responder.respond(with: route(for: request.path))
                    if !keepOpen || !requestHead.isKeepAlive { return }
                }
            }
        }
    }

    private static func record(_ head: HTTPRequestHead, connectionID: Int) -> RecordedRequest {
        let parts = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var headers: [String: String] = [:]
        for (name, value) in head.headers { headers[name.lowercased()] = value }
        return RecordedRequest(connectionID: connectionID, method: head.method.rawValue, path: String(parts[0]),
                               query: parts.count > 1 ? String(parts[1]) : nil, headers: headers)
    }
}

/// The paths a connection carried (appended by its request loop, read when it closes).
final class PathList: @unchecked Sendable {   // safe: all mutable state behind one lock (below)
    // Sendable: `paths` is only accessed with `lock` held.
    private let lock = NSLock()
    private var paths: [String] = []

    func append(_ path: String) {
        lock.lock()
        paths.append(path)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return paths
    }
}
