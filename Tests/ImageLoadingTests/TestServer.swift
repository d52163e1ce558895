import Foundation
import ImageLoading
import LoopbackHTTPServer
import TestSupport

/// A loopback server with the routes the loader tests share, and helpers around it.
enum TestServer {
    static let imageName = "bench/http-50k/kodim01.jpg"
    static let imageBytes: Data = (try? Corpus.data(imageName)) ?? Data()
    /// Bytes with a recognisable pattern for trickled and chunked routes.
    static let patternBytes = Data((0 ..< 200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    static let entityTag = "\"kodim01-v1\""
    static let lastModified = "Sat, 21 Nov 2026 10:00:00 GMT"

    static func start() async throws -> LoopbackHTTPServer {
        let server = try await LoopbackHTTPServer.start()
        server.setRoute("/image.jpg", .body(imageBytes, contentType: "image/jpeg"))
        server.setRoute("/trickle", .chunked(patternBytes, chunkSize: 20_000, pacing: .delay(.milliseconds(5))))
        server.setRoute("/chunked", .chunked(patternBytes, chunkSize: 7_000))
        server.setRoute("/gzip", .gzip(patternBytes))
        server.setRoute("/redirect/1", .redirect(to: "/redirect/2", status: 301))
        server.setRoute("/redirect/2", .redirect(to: "/redirect/3", status: 307))
        server.setRoute("/redirect/3", .redirect(to: server.url("/image.jpg").absoluteString))
        server.setRoute("/loop/a", .redirect(to: "/loop/b"))
        server.setRoute("/loop/b", .redirect(to: "/loop/a"))
        server.setRoute("/missing", .status(404, body: "no such image"))
        server.setRoute("/broken", .status(500, body: "internal error"))
        server.setRoute("/drop", .truncated(patternBytes.prefix(50_000), declaredLength: patternBytes.count))
        server.setRoute("/huge", .truncated(Data(count: 1000), declaredLength: 10 << 30))
        server.setRoute("/conditional", .conditional(imageBytes, entityTag: entityTag, lastModified: lastModified,
                                                     contentType: "image/jpeg"))
        server.setRoute("/stall", .stall())
        server.setRoute("/stall-after-head", .stall(afterHead: true))
        server.setRoute("/echo-headers", .custom { request in
            let lines = request.headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            return Route.Response(headers: ["Content-Type": "text/plain"], body: Data(lines.joined(separator: "\n").utf8))
        })
        return server
    }
}

/// Runs `body` with a fresh server and shuts it down afterwards, whatever happens.
@discardableResult
func withTestServer<T>(_ body: (LoopbackHTTPServer) async throws -> T) async throws -> T {
    let server = try await TestServer.start()
    do {
        let result = try await body(server)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}

/// Collects every event of a transfer, or the error that ended it.
func collect(_ transfer: DataTransfer) async -> (events: [DataEvent], error: (any Error)?) {
    var events: [DataEvent] = []
    do {
        for try await event in transfer { events.append(event) }
        return (events, nil)
    } catch {
        return (events, error)
    }
}

extension [DataEvent] {
    var body: Data {
        reduce(into: Data()) { if case .chunk(let data) = $1 { $0.append(data) } }
    }

    var heads: [ResponseHead] {
        compactMap { if case .response(let head) = $0 { head } else { nil } }
    }
}

/// Byte equality without Swift Testing's element-by-element diff of large buffers.
func sameBytes(_ lhs: Data, _ rhs: Data) -> Bool {
    lhs == rhs
}
