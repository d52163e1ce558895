import Foundation
import Testing
@testable import ImagePipeline
import LoopbackHTTPServer

@Suite("Pipeline coalescing")
struct CoalescingTests {
    @Test("1,000 concurrent callers of one URL cause exactly one request at the server")
    func thousandCallersOneRequest() async throws {
        let fixture = try await PipelineFixture.make()
        let gate = ReleaseGate()
        fixture.server.setRoute("/one.jpg", .chunked(Samples.baselineJPEG, chunkSize: 16_384, pacing: .gate(gate)))
        let url = fixture.server.url("/one.jpg")
        let pipeline = fixture.pipeline
        let images = try await withThrowingTaskGroup(of: Image.self) { group in
            for _ in 0 ..< 1000 { group.addTask { try await pipeline.image(url) } }
            // Every caller must have joined before the body may arrive.
            #expect(await eventually { pipeline.statistics.coalescedJoins >= 999 })
            gate.open()
            return try await group.reduce(into: [Image]()) { $0.append($1) }
        }
        #expect(images.count == 1000)
        #expect(fixture.server.requestCount(path: "/one.jpg") == 1)
        #expect(pipeline.statistics.networkRequests == 1)
        #expect(pipeline.statistics.decodes == 1)
        #expect(images.allSatisfy { $0.sharesStorage(with: images[0]) })
        await fixture.tearDown()
    }

    @Test("100 URLs × 10 callers cause 100 requests")
    func hundredURLsTenCallers() async throws {
        let fixture = try await PipelineFixture.make()
        let gate = ReleaseGate()
        for index in 0 ..< 100 {
            fixture.server.setRoute("/img\(index).png", .chunked(Samples.png, chunkSize: 65_536, pacing: .gate(gate)))
        }
        let pipeline = fixture.pipeline
        let server = fixture.server
        let count = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0 ..< 100 {
                for _ in 0 ..< 10 {
                    group.addTask { try await pipeline.image(server.url("/img\(index).png")).width }
                }
            }
            #expect(await eventually { pipeline.statistics.coalescedJoins >= 900 })
            gate.open()
            return try await group.reduce(0) { $0 + ($1 == 32 ? 1 : 0) }
        }
        #expect(count == 1000)
        #expect(server.requests.all.count == 100)
        #expect(Set(server.requests.all.map(\.path)).count == 100)
        #expect(pipeline.statistics.networkRequests == 100)
        await fixture.tearDown()
    }

    @Test("one URL with 3 processor chains: 1 download, 1 decode, 3 processing runs")
    func threeChainsOneDecode() async throws {
        let fixture = try await PipelineFixture.make()
        let gate = ReleaseGate()
        fixture.server.setRoute("/chains.jpg", .chunked(Samples.baselineJPEG, chunkSize: 65_536, pacing: .gate(gate)))
        let url = fixture.server.url("/chains.jpg")
        let pipeline = fixture.pipeline
        let chains: [[any ImageProcessor]] = [[Grayscale()], [Circle()], [Flip(.horizontal), Grayscale()]]
        let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
            for chain in chains {
                for _ in 0 ..< 4 { group.addTask { try await pipeline.image(url, processors: chain).width } }
            }
            // 12 callers: 9 join a processing task, 2 join the decode, none joins the load.
            #expect(await eventually { pipeline.statistics.coalescedJoins >= 11 })
            gate.open()
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(sizes.count == 12)
        #expect(fixture.server.requestCount(path: "/chains.jpg") == 1)
        #expect(pipeline.statistics.decodes == 1)
        #expect(pipeline.statistics.processingRuns == 3)
        await fixture.tearDown()
    }

    @Test("a second request for a finished image is a memory hit with no new work")
    func memoryHit() async throws {
        let fixture = try await PipelineFixture.make(diskStore: false)
        fixture.server.setRoute("/m.jpg", .body(Samples.baselineJPEG, contentType: "image/jpeg"))
        let request = ImageRequest(url: fixture.server.url("/m.jpg"), processors: [Grayscale()])
        let first = try await fixture.pipeline.response(for: request)
        let second = try await fixture.pipeline.response(for: request)
        #expect(first.source == .network)
        #expect(second.source == .memory)
        #expect(second.image.sharesStorage(with: first.image))
        #expect(fixture.server.requestCount(path: "/m.jpg") == 1)
        #expect(fixture.pipeline.statistics.memoryHits == 1)
        await fixture.tearDown()
    }
}

@Suite("Shared priority")
struct SharedPriorityTests {
    @Test("a more urgent caller joining a queued load moves its transfer ahead of others")
    func joinRaisesQueuedTransfer() async throws {
        var loaderConfiguration = patientLoader()
        loaderConfiguration.maxConcurrentTransfers = 1
        let loader = CurlDataLoader(configuration: loaderConfiguration)
        let pipeline = Pipeline(configuration: .init(dataLoader: loader, memoryCache: nil))
        let server = try await LoopbackHTTPServer.start()
        let gate = ReleaseGate()
        server.setRoute("/held", .chunked(Data("held".utf8), chunkSize: 4, pacing: .gate(gate)))
        server.setRoute("/a.jpg", .body(Samples.baselineJPEG, contentType: "image/jpeg"))
        server.setRoute("/b.jpg", .body(Samples.otherJPEG, contentType: "image/jpeg"))
        let held = loader.load(DataRequest(url: server.url("/held")))
        let heldConsumer = Task { for try await _ in held {} }
        _ = try await server.requests.first { $0.path == "/held" }

        let lowA = ImageRequest(url: server.url("/a.jpg"), priority: .low)
        let lowB = ImageRequest(url: server.url("/b.jpg"), priority: .low)
        let a = Task { try await pipeline.image(lowA) }
        #expect(await eventually { await pipeline.forwardedLoadPriority(for: lowA) == .low })
        let b = Task { try await pipeline.image(lowB) }
        #expect(await eventually { await pipeline.forwardedLoadPriority(for: lowB) == .low })
        var urgentB = lowB
        urgentB.priority = .veryHigh
        let urgent = Task { try await pipeline.image(urgentB) }
        #expect(await eventually { await pipeline.forwardedLoadPriority(for: lowB) == .veryHigh })

        gate.open()
        _ = try await heldConsumer.value
        _ = try await (a.value, b.value, urgent.value)
        let order = server.requests.all.map(\.path).filter { $0 != "/held" }
        #expect(order == ["/b.jpg", "/a.jpg"])
        #expect(pipeline.statistics.networkRequests == 2)
        await server.shutdown()
    }
}
