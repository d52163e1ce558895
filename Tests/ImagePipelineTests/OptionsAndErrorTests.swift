import Foundation
import Testing
import ImagePipeline
import LoopbackHTTPServer

@Suite("Request options and errors")
struct OptionsAndErrorTests {
    @Test("only-from-cache on a miss: notCached and no request")
    func onlyFromCacheMiss() async throws {
        let fixture = try await PipelineFixture.make()
        fixture.server.setRoute("/c.jpg", .body(Samples.baselineJPEG, contentType: "image/jpeg"))
        var request = ImageRequest(url: fixture.server.url("/c.jpg"))
        request.options = [.returnCacheDataDontLoad]
        await #expect(throws: ImagePipelineError.notCached) { try await fixture.pipeline.image(request) }
        #expect(fixture.server.requests.all.isEmpty)
        await fixture.tearDown()
    }

    @Test("reload ignoring caches sends a request even when the image is cached")
    func reloadIgnoresCaches() async throws {
        let fixture = try await PipelineFixture.make()
        fixture.server.setRoute("/c.jpg", .body(Samples.baselineJPEG, contentType: "image/jpeg",
                                                headers: ["Cache-Control": "max-age=3600"]))
        let url = fixture.server.url("/c.jpg")
        _ = try await fixture.pipeline.image(url)
        var request = ImageRequest(url: url)
        request.options = [.reloadIgnoringCaches]
        let response = try await fixture.pipeline.response(for: request)
        #expect(response.source == .network)
        #expect(fixture.server.requestCount(path: "/c.jpg") == 2)
        var cacheOnly = ImageRequest(url: url)
        cacheOnly.options = [.returnCacheDataDontLoad]
        #expect(try await fixture.pipeline.response(for: cacheOnly).source == .memory)
        await fixture.tearDown()
    }

    @Test("memory-only requests never touch the disk store")
    func memoryOnly() async throws {
        let fixture = try await PipelineFixture.make()
        fixture.server.setRoute("/m.jpg", .body(Samples.baselineJPEG, contentType: "image/jpeg",
                                                headers: ["Cache-Control": "max-age=3600"]))
        var request = ImageRequest(url: fixture.server.url("/m.jpg"))
        request.options = [.memoryCacheOnly]
        _ = try await fixture.pipeline.image(request)
        let store = try await DiskStore(directory: fixture.directory)
        #expect(await store.entry(forKey: request.url.absoluteString) == nil)
        await fixture.tearDown()
    }

    @Test("bad image bytes: a decoding error, and nothing is cached")
    func badBytesNotCached() async throws {
        let fixture = try await PipelineFixture.make()
        var truncated = Samples.baselineJPEG.prefix(Samples.baselineJPEG.count / 3)
        truncated.append(contentsOf: [0xFF, 0xD9])
        fixture.server.setRoute("/bad.jpg", .body(Data(truncated), contentType: "image/jpeg"))
        fixture.server.setRoute("/html.jpg", .body(Data("<html>not an image</html>".utf8), contentType: "image/jpeg"))
        let pipeline = fixture.pipeline
        await #expect {
            try await pipeline.image(fixture.server.url("/bad.jpg"))
        } throws: { error in
            if case ImagePipelineError.corruptData(.jpeg, _)? = error as? ImagePipelineError { return true }
            return false
        }
        await #expect(throws: ImagePipelineError.unknownFormat) { try await pipeline.image(fixture.server.url("/html.jpg")) }
        let store = try await DiskStore(directory: fixture.directory)
        #expect(await store.statistics.entries == 0)
        // Not in memory either: the next call goes to the network again.
        _ = try? await pipeline.image(fixture.server.url("/bad.jpg"))
        #expect(fixture.server.requestCount(path: "/bad.jpg") == 2)
        #expect(pipeline.statistics.failures == 3)
        await fixture.tearDown()
    }

    @Test("404 is a status error carrying the status")
    func notFound() async throws {
        let fixture = try await PipelineFixture.make()
        fixture.server.setRoute("/missing.jpg", .status(404))
        let url = fixture.server.url("/missing.jpg")
        await #expect(throws: ImagePipelineError.httpStatus(404, url: url.absoluteString)) {
            try await fixture.pipeline.image(url)
        }
        await fixture.tearDown()
    }

    @Test("prefetch fills the caches at low priority; a later request is a memory hit")
    func prefetch() async throws {
        let fixture = try await PipelineFixture.make()
        for index in 0 ..< 5 { fixture.server.setRoute("/f\(index).jpg", .body(Samples.baselineJPEG, contentType: "image/jpeg")) }
        let urls = (0 ..< 5).map { fixture.server.url("/f\($0).jpg") }
        let result = await fixture.pipeline.prefetch(urls, processors: [Grayscale()]).result
        #expect(result == PrefetchResult(succeeded: 5, failed: 0))
        let response = try await fixture.pipeline.response(for: ImageRequest(url: urls[3], processors: [Grayscale()]))
        #expect(response.source == .memory)
        #expect(fixture.server.requests.all.count == 5)
        await fixture.tearDown()
    }
}
