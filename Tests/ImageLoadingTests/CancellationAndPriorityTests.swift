import Foundation
import ImageCore
import ImageLoading
import LoopbackHTTPServer
import Testing

@Suite("CurlDataLoader cancellation and queueing", .timeLimit(.minutes(1)))
struct CancellationAndPriorityTests {
    /// Timeouts far beyond the test's time limit: a connection can only close because of cancellation.
    static func patientConfiguration() -> CurlDataLoader.Configuration {
        var configuration = CurlDataLoader.Configuration()
        configuration.totalTimeout = .seconds(600)
        configuration.stallTimeout = .seconds(600)
        return configuration
    }

    @Test("cancelling the consuming task closes the connection at the server", arguments: ["/stall", "/stall-after-head"])
    func cancellationReachesServer(path: String) async throws {
        let loader = CurlDataLoader(configuration: Self.patientConfiguration())
        try await withTestServer { server in
            let transfer = loader.load(DataRequest(url: server.url(path)))
            let consumer = Task { await collect(transfer) }
            _ = try await server.requests.first { $0.path == path }
            consumer.cancel()
            let result = await consumer.value
            #expect(result.error is CancellationError)
            try await server.waitForConnectionClosed(servingPath: path)
        }
    }

    @Test("dropping an unconsumed transfer cancels it at the server")
    func droppedTransfer() async throws {
        let loader = CurlDataLoader(configuration: Self.patientConfiguration())
        try await withTestServer { server in
            var transfer: DataTransfer? = loader.load(DataRequest(url: server.url("/stall")))
            _ = try await server.requests.first { $0.path == "/stall" }
            #expect(transfer != nil)
            transfer = nil   // the last reference goes; nobody will ever iterate it
            try await server.waitForConnectionClosed(servingPath: "/stall")
        }
    }

    @Test("queued transfers start by priority as the slot frees", arguments: [
        (CurlDataLoader.Configuration.QueueOrder.fifo, ["/vh1", "/h1", "/h2", "/n1", "/l1", "/l2", "/vl1"]),
        (CurlDataLoader.Configuration.QueueOrder.lifo, ["/vh1", "/h2", "/h1", "/n1", "/l2", "/l1", "/vl1"]),
    ])
    func priorityOrder(order: CurlDataLoader.Configuration.QueueOrder, expected: [String]) async throws {
        var configuration = Self.patientConfiguration()
        configuration.maxConcurrentTransfers = 1
        configuration.queueOrder = order
        let loader = CurlDataLoader(configuration: configuration)
        try await withTestServer { server in
            let gate = ReleaseGate()
            server.setRoute("/held", .chunked(Data("held".utf8), chunkSize: 4, pacing: .gate(gate)))
            let queued: [(String, DataRequest.Priority)] = [
                ("/l1", .low), ("/h1", .high), ("/n1", .normal), ("/vl1", .veryLow),
                ("/vh1", .veryHigh), ("/l2", .low), ("/h2", .high),
            ]
            for (path, _) in queued { server.setRoute(path, .body(Data(path.utf8))) }

            let held = loader.load(DataRequest(url: server.url("/held")))
            let heldConsumer = Task { await collect(held) }
            _ = try await server.requests.first { $0.path == "/held" }
            // load() hands each request to the engine before returning, so this order is the queue's order.
            let transfers = queued.map { path, priority in
                loader.load(DataRequest(url: server.url(path), priority: priority))
            }
            gate.open()
            #expect(await heldConsumer.value.error == nil)
            for transfer in transfers {
                #expect(await collect(transfer).error == nil)
            }
            let arrivalOrder = server.requests.all.map(\.path).filter { $0 != "/held" }
            #expect(arrivalOrder == expected)
        }
    }

    @Test("a queued transfer that is cancelled never reaches the server")
    func cancelWhileQueued() async throws {
        var configuration = Self.patientConfiguration()
        configuration.maxConcurrentTransfers = 1
        let loader = CurlDataLoader(configuration: configuration)
        try await withTestServer { server in
            let gate = ReleaseGate()
            server.setRoute("/held", .chunked(Data("held".utf8), chunkSize: 4, pacing: .gate(gate)))
            let held = loader.load(DataRequest(url: server.url("/held")))
            let heldConsumer = Task { await collect(held) }
            _ = try await server.requests.first { $0.path == "/held" }

            let queued = loader.load(DataRequest(url: server.url("/image.jpg")))
            let queuedConsumer = Task { await collect(queued) }
            queuedConsumer.cancel()
            #expect(await queuedConsumer.value.error is CancellationError)

            gate.open()
            #expect(await heldConsumer.value.error == nil)
            // A later request runs after the held one; the cancelled one must not have run before it.
            _ = try await loader.data(for: DataRequest(url: server.url("/chunked")))
            #expect(server.requestCount(path: "/image.jpg") == 0)
        }
    }

    @Test("the total timeout ends a transfer whose body never comes")
    func totalTimeout() async throws {
        let loader = CurlDataLoader(configuration: Self.patientConfiguration())
        try await withTestServer { server in
            let request = DataRequest(url: server.url("/stall-after-head"), timeout: .milliseconds(300))
            let (_, error) = await collect(loader.load(request))
            #expect(error as? ImagePipelineError == .timedOut(.total))
        }
    }

    @Test("the stall timeout ends a transfer that receives nothing")
    func stallTimeout() async throws {
        var configuration = Self.patientConfiguration()
        configuration.stallTimeout = .seconds(1)
        let loader = CurlDataLoader(configuration: configuration)
        try await withTestServer { server in
            let (_, error) = await collect(loader.load(DataRequest(url: server.url("/stall"))))
            #expect(error as? ImagePipelineError == .timedOut(.stall))
        }
    }

    @Test("a refused connection is connectionFailed")
    func connectionRefused() async throws {
        let server = try await LoopbackHTTPServer.start()
        let url = server.url("/image.jpg")
        await server.shutdown()
        await #expect(throws: ImagePipelineError.self) {
            _ = try await CurlDataLoader().data(for: DataRequest(url: url))
        }
        let (_, error) = await collect(CurlDataLoader().load(DataRequest(url: url)))
        guard case .connectionFailed? = error as? ImagePipelineError else {
            Issue.record("expected connectionFailed, got \(String(describing: error))")
            return
        }
    }
}

@Suite("Raising a queued transfer's priority")
struct RaisePriorityTests {
    @Test("a raised transfer starts ahead of the ones queued before it; a lower priority is ignored")
    func raiseQueued() async throws {
        // Patient limits: the held transfer waits on the gate for as long as a busy machine
        // keeps this task from opening it.
        var configuration = CancellationAndPriorityTests.patientConfiguration()
        configuration.maxConcurrentTransfers = 1
        let loader = CurlDataLoader(configuration: configuration)
        let server = try await LoopbackHTTPServer.start()
        let gate = ReleaseGate()
        server.setRoute("/held", .chunked(Data("held".utf8), chunkSize: 4, pacing: .gate(gate)))
        for path in ["/a", "/b", "/c"] { server.setRoute(path, .body(Data(path.utf8))) }
        let held = loader.load(DataRequest(url: server.url("/held")))
        let heldConsumer = Task { for try await _ in held {} }
        _ = try await server.requests.first { $0.path == "/held" }
        let transfers = ["/a", "/b", "/c"].map { loader.load(DataRequest(url: server.url($0), priority: .low)) }
        transfers[2].raisePriority(to: .high)
        transfers[0].raisePriority(to: .veryLow)
        gate.open()
        _ = try await heldConsumer.value
        for transfer in transfers { for try await _ in transfer {} }
        let order = server.requests.all.map(\.path).filter { $0 != "/held" }
        #expect(order == ["/c", "/a", "/b"])
        await server.shutdown()
    }
}
