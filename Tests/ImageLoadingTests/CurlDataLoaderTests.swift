import Foundation
import ImageCore
import ImageLoading
import LoopbackHTTPServer
import Testing

@Suite("CurlDataLoader over HTTP", .timeLimit(.minutes(1)))
struct CurlDataLoaderTests {
    let loader = CurlDataLoader()

    @Test("an image arrives whole, with its head first and its length announced")
    func image() async throws {
        try await withTestServer { server in
            let (events, error) = await collect(loader.load(DataRequest(url: server.url("/image.jpg"))))
            #expect(error == nil)
            let head = try #require(events.first.flatMap { if case .response(let head) = $0 { head } else { nil } })
            #expect(head.statusCode == 200)
            #expect(head.expectedContentLength == TestServer.imageBytes.count)
            #expect(head.contentType == "image/jpeg")
            #expect(events.heads.count == 1)
            #expect(sameBytes(events.body, TestServer.imageBytes))
            var progress = TransferProgress()
            events.forEach { progress.record($0) }
            #expect(progress.fractionCompleted == 1)
        }
    }

    @Test("chunked and trickled bodies have no expected length and arrive intact",
          arguments: ["/chunked", "/trickle"])
    func chunked(path: String) async throws {
        try await withTestServer { server in
            let (head, body) = try await loader.data(for: DataRequest(url: server.url(path)))
            #expect(head.expectedContentLength == nil)
            #expect(sameBytes(body, TestServer.patternBytes))
        }
    }

    @Test("a gzip body is decoded and its encoded length is not announced")
    func gzip() async throws {
        try await withTestServer { server in
            let (head, body) = try await loader.data(for: DataRequest(url: server.url("/gzip")))
            #expect(head.value(forHeader: "Content-Encoding") == "gzip")
            #expect(head.expectedContentLength == nil)
            #expect(sameBytes(body, TestServer.patternBytes))
            let request = try #require(server.requests.all.last)
            #expect(request.header("Accept-Encoding")?.contains("gzip") == true)
        }
    }

    @Test("a redirect chain is followed and the head names the final URL")
    func redirects() async throws {
        try await withTestServer { server in
            let (head, body) = try await loader.data(for: DataRequest(url: server.url("/redirect/1")))
            #expect(head.url == server.url("/image.jpg"))
            #expect(head.statusCode == 200)
            #expect(sameBytes(body, TestServer.imageBytes))
            #expect(server.requestCount(path: "/redirect/3") == 1)
        }
    }

    @Test("a redirect loop fails with tooManyRedirects")
    func redirectLoop() async throws {
        try await withTestServer { server in
            await #expect(throws: ImagePipelineError.tooManyRedirects(limit: 5)) {
                _ = try await loader.data(for: DataRequest(url: server.url("/loop/a")))
            }
        }
    }

    @Test("a non-2xx status is a typed error carrying the status", arguments: [("/missing", 404), ("/broken", 500)])
    func httpStatus(path: String, status: Int) async throws {
        try await withTestServer { server in
            await #expect(throws: ImagePipelineError.httpStatus(status, url: server.url(path).absoluteString)) {
                _ = try await loader.data(for: DataRequest(url: server.url(path)))
            }
        }
    }

    @Test("a connection dropped mid-body reports the bytes received")
    func droppedConnection() async throws {
        try await withTestServer { server in
            let (events, error) = await collect(loader.load(DataRequest(url: server.url("/drop"))))
            #expect(error as? ImagePipelineError == .connectionDropped(bytesReceived: events.body.count))
            #expect(events.body.count == 50_000)
            #expect(sameBytes(events.body, TestServer.patternBytes.prefix(50_000)))
        }
    }

    @Test("a Content-Length over the limit is refused before any body byte")
    func hugeContentLength() async throws {
        try await withTestServer { server in
            let (events, error) = await collect(loader.load(DataRequest(url: server.url("/huge"))))
            #expect(error as? ImagePipelineError == .responseTooLarge(limit: 64 << 20, declared: 10 << 30))
            #expect(events.isEmpty)
        }
    }

    @Test("a body without Content-Length is aborted once it passes the limit")
    func tooLargeMidStream() async throws {
        var configuration = CurlDataLoader.Configuration()
        configuration.maxResponseSize = 50_000
        let small = CurlDataLoader(configuration: configuration)
        try await withTestServer { server in
            let (events, error) = await collect(small.load(DataRequest(url: server.url("/chunked"))))
            #expect(error as? ImagePipelineError == .responseTooLarge(limit: 50_000, declared: nil))
            #expect(events.body.count <= 50_000)
        }
    }

    @Test("conditional requests: a matching ETag or date gets 304 with no body, a stale one the body",
          arguments: [
              (DataRequest.Validators(entityTag: TestServer.entityTag), 304),
              (DataRequest.Validators(lastModified: TestServer.lastModified), 304),
              (DataRequest.Validators(entityTag: "\"other\""), 200),
          ])
    func conditional(validators: DataRequest.Validators, expectedStatus: Int) async throws {
        try await withTestServer { server in
            let request = DataRequest(url: server.url("/conditional"), validators: validators)
            let (head, body) = try await loader.data(for: request)
            #expect(head.statusCode == expectedStatus)
            #expect(head.isNotModified == (expectedStatus == 304))
            #expect(head.entityTag == TestServer.entityTag)
            #expect(sameBytes(body, expectedStatus == 304 ? Data() : TestServer.imageBytes))
            let received = try #require(server.requests.all.last)
            #expect(received.header("If-None-Match") == validators.entityTag)
            #expect(received.header("If-Modified-Since") == validators.lastModified)
        }
    }

    @Test("HEAD gets the head and no body")
    func headMethod() async throws {
        try await withTestServer { server in
            let (head, body) = try await loader.data(for: DataRequest(url: server.url("/image.jpg"), method: .head))
            #expect(head.statusCode == 200)
            #expect(body.isEmpty)
            #expect(server.requests.all.last?.method == "HEAD")
        }
    }

    @Test("request headers and the user agent reach the server")
    func headers() async throws {
        try await withTestServer { server in
            let request = DataRequest(url: server.url("/echo-headers"), headers: ["X-Trace": "abc123"])
            let (_, body) = try await loader.data(for: request)
            let text = String(decoding: body, as: UTF8.self)
            #expect(text.contains("x-trace: abc123"))
            #expect(text.contains("user-agent: ImagePipeline/1.0"))
        }
    }

    @Test("the request modifier can add headers, and refuse a request before it goes out")
    func modifier() async throws {
        try await withTestServer { server in
            var allowed = DataRequest(url: server.url("/echo-headers"))
            allowed.modifier = { request in
                var request = request
                request.headers["Authorization"] = "Bearer token"
                return request
            }
            let (_, body) = try await loader.data(for: allowed)
            #expect(String(decoding: body, as: UTF8.self).contains("authorization: Bearer token"))

            var refused = DataRequest(url: server.url("/image.jpg"))
            refused.modifier = { _ in throw ImagePipelineError.requestRefused(reason: "no credentials") }
            await #expect(throws: ImagePipelineError.requestRefused(reason: "no credentials")) {
                _ = try await loader.data(for: refused)
            }
            #expect(server.requestCount(path: "/image.jpg") == 0)
        }
    }

    @Test("a header with a line break is refused, not sent")
    func headerInjection() async throws {
        try await withTestServer { server in
            let request = DataRequest(url: server.url("/image.jpg"), headers: ["X-Bad": "a\r\nInjected: yes"])
            let (_, error) = await collect(loader.load(request))
            guard case .requestRefused? = error as? ImagePipelineError else {
                Issue.record("expected requestRefused, got \(String(describing: error))")
                return
            }
            #expect(server.requestCount(path: "/image.jpg") == 0)
        }
    }

    @Test("many concurrent requests all complete and reuse connections")
    func concurrentRequests() async throws {
        try await withTestServer { server in
            let loader = self.loader
            let url = server.url("/image.jpg")
            let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0 ..< 60 { group.addTask { try await loader.data(for: DataRequest(url: url)).1.count } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(sizes.allSatisfy { $0 == TestServer.imageBytes.count })
            #expect(server.requestCount(path: "/image.jpg") == 60)
            let opened = server.connections.all.filter { $0.kind == .opened }.count
            #expect(opened <= 6 * 2, "connections should be reused across 60 requests")
        }
    }
}

@Suite("TLS")
struct TLSTests {
    @Test("https to a server that does not speak TLS is a TLS failure, not a hang or a generic error")
    func handshakeFailure() async throws {
        try await withTestServer { server in
            server.setRoute("/plain", .body(Data("not tls".utf8)))
            var components = URLComponents(url: server.url("/plain"), resolvingAgainstBaseURL: false)!
            components.scheme = "https"
            var configuration = CurlDataLoader.Configuration()
            configuration.connectTimeout = .seconds(5)
            let loader = CurlDataLoader(configuration: configuration)
            let result = await collect(loader.load(DataRequest(url: components.url!)))
            guard case ImagePipelineError.tlsFailed(let message)? = result.error as? ImagePipelineError else {
                Issue.record("expected tlsFailed, got \(String(describing: result.error))")
                return
            }
            #expect(!message.isEmpty)
            #expect(result.events.isEmpty)
        }
    }
}
