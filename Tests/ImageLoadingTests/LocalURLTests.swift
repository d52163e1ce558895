import Foundation
import ImageCore
import ImageLoading
import Testing
import TestSupport

@Suite("file: and data: URLs", .timeLimit(.minutes(1)))
struct LocalURLTests {
    let loader = CurlDataLoader()

    @Test("a file streams whole, with its size as the expected length",
          arguments: ["bench/http-50k/kodim01.jpg", "kodak/kodim01.png", "pngsuite/basn0g01.png"])
    func file(name: String) async throws {
        let expected = try Corpus.data(name)
        let (head, body) = try await loader.data(for: DataRequest(url: Corpus.url(name)))
        #expect(head.statusCode == 200)
        #expect(head.expectedContentLength == expected.count)
        #expect(sameBytes(body, expected))
    }

    @Test("a missing file or a directory is fileUnreadable")
    func unreadableFile() async throws {
        for url in [Corpus.url("no-such-file.jpg"), Corpus.url("kodak")] {
            let (_, error) = await collect(loader.load(DataRequest(url: url)))
            guard case .fileUnreadable? = error as? ImagePipelineError else {
                Issue.record("expected fileUnreadable for \(url.path), got \(String(describing: error))")
                continue
            }
        }
    }

    @Test("a file larger than the limit is refused")
    func fileTooLarge() async throws {
        var configuration = CurlDataLoader.Configuration()
        configuration.maxResponseSize = 1000
        let (_, error) = await collect(CurlDataLoader(configuration: configuration)
            .load(DataRequest(url: Corpus.url("kodak/kodim01.png"))))
        guard case .responseTooLarge(limit: 1000, declared: _)? = error as? ImagePipelineError else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
    }

    @Test("data: URLs decode base64 and percent-encoding", arguments: [
        ("data:image/png;base64,iVBORw0KGgo=", "image/png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])),
        ("data:,Hello%2C%20World%21", "text/plain;charset=US-ASCII", Data("Hello, World!".utf8)),
        ("data:text/plain;charset=utf-8,%E2%9C%93", "text/plain;charset=utf-8", Data([0xE2, 0x9C, 0x93])),
        ("data:application/octet-stream;base64,AAEC", "application/octet-stream", Data([0, 1, 2])),
    ])
    func dataURL(string: String, mediaType: String, expected: Data) async throws {
        let (head, body) = try await loader.data(for: DataRequest(url: try #require(URL(string: string))))
        #expect(head.contentType == mediaType)
        #expect(body == expected)
    }

    @Test("a malformed data: URL is invalidURL", arguments: ["data:image/png;base64,@@@@", "data:image/png;base64,iVBORw0KG", "data:nocomma"])
    func malformedDataURL(string: String) async throws {
        let (_, error) = await collect(loader.load(DataRequest(url: try #require(URL(string: string)))))
        guard case .invalidURL? = error as? ImagePipelineError else {
            Issue.record("expected invalidURL, got \(String(describing: error))")
            return
        }
    }

    @Test("an unsupported scheme is refused by name")
    func unsupportedScheme() async throws {
        let (_, error) = await collect(loader.load(DataRequest(url: try #require(URL(string: "ftp://example.com/a.jpg")))))
        #expect(error as? ImagePipelineError == .unsupportedScheme("ftp"))
    }
}
