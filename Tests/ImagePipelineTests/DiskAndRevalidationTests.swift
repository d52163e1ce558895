import Foundation
import Testing
import ImagePipeline
import LoopbackHTTPServer

@Suite("Pipeline with the disk store")
struct DiskAndRevalidationTests {
    @Test("a new pipeline on the same directory serves from disk with no network request")
    func diskHitInNewPipeline() async throws {
        let fixture = try await PipelineFixture.make()
        fixture.server.setRoute("/d.jpg", .body(Samples.baselineJPEG, contentType: "image/jpeg",
                                                headers: ["Cache-Control": "max-age=3600"]))
        let url = fixture.server.url("/d.jpg")
        let cold = try await fixture.pipeline.response(for: ImageRequest(url: url))
        #expect(cold.source == .network)

        let warm = try await fixture.reopened()
        let response = try await warm.pipeline.response(for: ImageRequest(url: url))
        #expect(response.source == .disk)
        #expect(response.image == cold.image)
        #expect(warm.pipeline.statistics.networkRequests == 0)
        #expect(warm.pipeline.statistics.diskHits == 1)
        #expect(fixture.server.requestCount(path: "/d.jpg") == 1)
        await fixture.tearDown()
    }

    @Test("a stale entry with an ETag is revalidated: 304 serves the disk bytes; a new ETag brings new bytes")
    func revalidation() async throws {
        let fixture = try await PipelineFixture.make()
        fixture.server.setRoute("/r.jpg", .conditional(Samples.baselineJPEG, entityTag: "\"v1\"", lastModified: nil,
                                                       contentType: "image/jpeg", headers: ["Cache-Control": "max-age=0"]))
        let url = fixture.server.url("/r.jpg")
        let first = try await fixture.pipeline.response(for: ImageRequest(url: url))
        #expect(first.source == .network)

        let second = try await fixture.reopened()
        let revalidated = try await second.pipeline.response(for: ImageRequest(url: url))
        #expect(revalidated.source == .revalidated)
        #expect(revalidated.image == first.image)
        #expect(second.pipeline.statistics.notModified == 1)
        #expect(second.pipeline.statistics.networkRequests == 1)
        let conditional = fixture.server.requests.all.last
        #expect(conditional?.header("If-None-Match") == "\"v1\"")

        fixture.server.setRoute("/r.jpg", .conditional(Samples.otherJPEG, entityTag: "\"v2\"", lastModified: nil,
                                                       contentType: "image/jpeg", headers: ["Cache-Control": "max-age=0"]))
        let third = try await fixture.reopened()
        let changed = try await third.pipeline.response(for: ImageRequest(url: url))
        #expect(changed.source == .network)
        #expect(changed.image == (try Codecs.decode(Samples.otherJPEG)))
        #expect(third.pipeline.statistics.notModified == 0)
        await fixture.tearDown()
    }

    @Test("processed images are stored on disk by policy and served from there by a new pipeline")
    func processedOnDisk() async throws {
        let fixture = try await PipelineFixture.make()
        fixture.server.setRoute("/p.png", .body(Samples.png, contentType: "image/png", headers: ["Cache-Control": "max-age=3600"]))
        var request = ImageRequest(url: fixture.server.url("/p.png"), processors: [Circle()])
        request.diskPolicy = .processed
        let cold = try await fixture.pipeline.response(for: request)
        let warm = try await fixture.reopened()
        let response = try await warm.pipeline.response(for: request)
        #expect(response.source == .disk)
        #expect(response.image.packedBytes() == cold.image.packedBytes())
        #expect(warm.pipeline.statistics.decodes == 1)        // the stored PNG, not the original
        #expect(warm.pipeline.statistics.processingRuns == 0)
        await fixture.tearDown()
    }
}
