import Foundation
import Testing
import ImagePipeline
import LoopbackHTTPServer

@Suite("Pipeline cancellation")
struct CancellationTests {
    @Test("cancelling 1 of 5 waiters: that one gets CancellationError, the other 4 the image, one transfer")
    func cancelOneOfFive() async throws {
        let fixture = try await PipelineFixture.make()
        let gate = ReleaseGate()
        fixture.server.setRoute("/five.jpg", .chunked(Samples.baselineJPEG, chunkSize: 8192, pacing: .gate(gate)))
        let url = fixture.server.url("/five.jpg")
        let pipeline = fixture.pipeline
        let tasks = (0 ..< 5).map { _ in Task { try await pipeline.image(url) } }
        #expect(await eventually { pipeline.statistics.coalescedJoins >= 4 })
        _ = try await fixture.server.requests.first { $0.path == "/five.jpg" }
        tasks[0].cancel()
        await #expect(throws: CancellationError.self) { try await tasks[0].value }
        gate.open()
        for task in tasks.dropFirst() {
            let image = try await task.value
            #expect(image.width == 640 || image.height == 640)
        }
        #expect(fixture.server.requestCount(path: "/five.jpg") == 1)
        await fixture.tearDown()
    }

    @Test("cancelling every waiter closes the connection at the server")
    func cancelAll() async throws {
        let fixture = try await PipelineFixture.make()
        let gate = ReleaseGate()
        fixture.server.setRoute("/all.jpg", .chunked(Samples.baselineJPEG, chunkSize: 8192, pacing: .gate(gate)))
        let url = fixture.server.url("/all.jpg")
        let pipeline = fixture.pipeline
        let tasks = (0 ..< 5).map { _ in Task { try await pipeline.image(url, processors: [Grayscale()]) } }
        _ = try await fixture.server.requests.first { $0.path == "/all.jpg" }
        gate.release(1)  // some bytes are on their way: the transfer is mid-body
        for task in tasks { task.cancel() }
        for task in tasks { await #expect(throws: CancellationError.self) { try await task.value } }
        try await fixture.server.waitForConnectionClosed(servingPath: "/all.jpg")
        // Nothing half-loaded was cached: a new caller starts a new transfer.
        gate.open()
        _ = try await pipeline.image(url, processors: [Grayscale()])
        #expect(fixture.server.requestCount(path: "/all.jpg") == 2)
        await fixture.tearDown()
    }

    @Test("a progressive stream cancelled by its consumer stops the shared work")
    func cancelProgressiveConsumer() async throws {
        let fixture = try await PipelineFixture.make()
        let gate = ReleaseGate()
        fixture.server.setRoute("/p.jpg", .chunked(Samples.progressiveJPEG, chunkSize: 4096, pacing: .gate(gate)))
        let url = fixture.server.url("/p.jpg")
        let pipeline = fixture.pipeline
        let consumer = Task {
            for try await _ in pipeline.images(for: url) {}
        }
        _ = try await fixture.server.requests.first { $0.path == "/p.jpg" }
        consumer.cancel()
        try await fixture.server.waitForConnectionClosed(servingPath: "/p.jpg")
        await fixture.tearDown()
    }
}
