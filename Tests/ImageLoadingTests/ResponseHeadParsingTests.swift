import Foundation
import ImageCore
import ImageLoading
import LoopbackHTTPServer
import Testing

/// The engine parses status lines and header fields on raw bytes; these pin what it must keep
/// doing: the status code, names as sent, values without surrounding whitespace, and names
/// matched without regard to case.
@Suite("Response head parsing", .timeLimit(.minutes(1)))
struct ResponseHeadParsingTests {
    let loader = CurlDataLoader()

    @Test("status, padded values and mixed-case names come through as the server sent them",
          arguments: [200, 203, 226])
    func paddedHeaders(status: Int) async throws {
        try await withTestServer { server in
            let body = Data("parsed".utf8)
            server.setRoute("/padded", .body(body, status: status, headers: [
                "X-Padded": "   spaced  value   ", "content-ENCODING": "Identity", "X-Empty": "",
            ]))
            let (events, error) = await collect(loader.load(DataRequest(url: server.url("/padded"))))
            #expect(error == nil)
            let head = try #require(events.heads.first)
            #expect(events.heads.count == 1)
            #expect(head.statusCode == status)
            #expect(head.headerFields.contains(HeaderField(name: "X-Padded", value: "spaced  value")))
            #expect(head.value(forHeader: "x-padded") == "spaced  value")
            #expect(head.value(forHeader: "X-EMPTY") == "")
            // "Identity" (any case) is no encoding, so the length is announced.
            #expect(head.expectedContentLength == body.count)
            #expect(head.url == server.url("/padded"))
            #expect(events.body == body)
        }
    }

    @Test("an error status fails with that status, whatever its reason phrase")
    func errorStatus() async throws {
        try await withTestServer { server in
            server.setRoute("/teapot", .status(418, body: "no"))
            let (events, error) = await collect(loader.load(DataRequest(url: server.url("/teapot"))))
            #expect(events.isEmpty)
            guard case .httpStatus(let code, _)? = error as? ImagePipelineError else {
                Issue.record("expected httpStatus, got \(String(describing: error))")
                return
            }
            #expect(code == 418)
        }
    }
}
