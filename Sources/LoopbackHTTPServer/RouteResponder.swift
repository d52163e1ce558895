import Foundation
import NIOCore
import NIOHTTP1

/// Writes the response a route describes for one request.
struct RouteResponder {
    let request: RecordedRequest
    let isHead: Bool
    let outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>

    /// Answers the request; returns `false` when the connection must close afterwards.
    func respond(with match: (Route, remainder: String)?) async throws -> Bool {
        guard let (route, remainder) = match else {
            try await send(Route.Response(status: 404, headers: ["Content-Type": "text/plain"], body: Data("not found".utf8)))
            return true
        }
        switch route.behaviour {
        case .body(let response):
            try await send(response)
        case let .chunked(data, headers, chunkSize, pacing):
            try await sendChunked(data, headers: headers, chunkSize: chunkSize, pacing: pacing)
        case let .truncated(data, headers, declaredLength):
            var fields = HTTPHeaders(headers.map { ($0.key, $0.value) })
            fields.replaceOrAdd(name: "Content-Length", value: String(declaredLength))
            try await outbound.write(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: fields)))
            if !isHead, !data.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: data)))) }
            return false
        case .stall(let afterHead):
            if afterHead {
                var fields = HTTPHeaders()
                fields.add(name: "Content-Length", value: "1000000")
                try await outbound.write(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: fields)))
            }
            try await ReleaseGate().wait()   // never released: ends when the connection closes
            return false
        case let .conditional(data, headers, entityTag, lastModified):
            try await sendConditional(data, headers: headers, entityTag: entityTag, lastModified: lastModified)
        case .directory(let folder):
            try await send(await DirectoryFiles.response(for: remainder, in: folder))
        case .custom(let handler):
            try await send(try await handler(request))
        }
        return true
    }

    private func send(_ response: Route.Response) async throws {
        var fields = HTTPHeaders(response.headers.map { ($0.key, $0.value) })
        // 304 and 1xx carry no body and no length; every other answer states its length.
        if response.status != 304 {
            fields.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
        }
        let status = HTTPResponseStatus(statusCode: response.status)
        try await outbound.write(.head(HTTPResponseHead(version: .http1_1, status: status, headers: fields)))
        if !isHead, !response.body.isEmpty, response.status != 304 {
            try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: response.body))))
        }
        try await outbound.write(.end(nil))
    }

    private func sendChunked(_ data: Data, headers: [String: String], chunkSize: Int, pacing: Route.ChunkPacing) async throws {
        let fields = HTTPHeaders(headers.map { ($0.key, $0.value) })   // no length: the encoder chunks
        try await outbound.write(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: fields)))
        if !isHead {
            var offset = 0
            while offset < data.count {
                switch pacing {
                case .immediate: break
                case .delay(let delay): if offset > 0 { try await Task.sleep(for: delay) }
                case .gate(let gate): try await gate.wait()
                }
                let end = min(data.count, offset + chunkSize)
                try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: data[offset ..< end]))))
                offset = end
            }
        }
        try await outbound.write(.end(nil))
    }

    private func sendConditional(_ data: Data, headers: [String: String], entityTag: String?, lastModified: String?) async throws {
        var validators = headers
        if let entityTag { validators["ETag"] = entityTag }
        if let lastModified { validators["Last-Modified"] = lastModified }
        let tagMatches = entityTag.map { tag in
            request.header("If-None-Match").map { $0.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == tag || $0 == "*" } } ?? false
        } ?? false
        // If-None-Match takes precedence over If-Modified-Since (RFC 9110 13.2.2).
        let dateMatches = request.header("If-None-Match") == nil && lastModified != nil
            && request.header("If-Modified-Since") == lastModified
        if tagMatches || dateMatches {
            try await send(Route.Response(status: 304, headers: validators.filter { $0.key != "Content-Type" }))
        } else {
            try await send(Route.Response(status: 200, headers: validators, body: data))
        }
    }
}
