import Foundation
import ImagePipeline
import LoopbackHTTPServer
import TestSupport

/// A pipeline wired to real parts: the curl loader, a memory cache and a disk store in a fresh
/// temporary directory, with previews allowed as fast as they can be made.
struct PipelineFixture {
    let server: LoopbackHTTPServer
    let directory: URL
    let pipeline: Pipeline

    static func make(diskStore: Bool = true, directory: URL? = nil,
                     server: LoopbackHTTPServer? = nil) async throws -> PipelineFixture {
        let server = if let server { server } else { try await LoopbackHTTPServer.start() }
        let directory = directory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("imagepipeline-tests-\(UUID().uuidString)", isDirectory: true)
        let pipeline = try await makePipeline(directory: diskStore ? directory : nil)
        return PipelineFixture(server: server, directory: directory, pipeline: pipeline)
    }

    /// A new pipeline (empty memory cache) on the same disk directory, as a fresh process would see it.
    func reopened() async throws -> PipelineFixture {
        PipelineFixture(server: server, directory: directory, pipeline: try await Self.makePipeline(directory: directory))
    }

    private static func makePipeline(directory: URL?) async throws -> Pipeline {
        var configuration = Pipeline.Configuration(dataLoader: CurlDataLoader(configuration: patientLoader()),
                                                   previewInterval: .zero)
        if let directory { configuration.diskStore = try await DiskStore(directory: directory) }
        return Pipeline(configuration: configuration)
    }

    func tearDown() async {
        await server.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Loader limits for tests that hold a transfer on a gate: a busy CI machine can keep the test
/// task from opening the gate for longer than the default 10 s stall limit.
func patientLoader() -> CurlDataLoader.Configuration {
    var configuration = CurlDataLoader.Configuration()
    configuration.totalTimeout = .seconds(600)
    configuration.stallTimeout = .seconds(600)
    return configuration
}

enum Samples {
    static let baselineJPEG = try! Corpus.data("bench/http-50k/kodim01.jpg")
    static let otherJPEG = try! Corpus.data("bench/http-50k/kodim02.jpg")
    static let progressiveJPEG = try! Corpus.data("bench/jpeg-q85-progressive/kodim03.jpg")
    static let png = try! Corpus.data("pngsuite/basn2c08.png")
}

/// Waits, without sleeping, until `condition` holds, giving other tasks the threads meanwhile.
/// Gives up after `limit` so a broken expectation fails instead of hanging; the limit is
/// generous because a loaded CI machine can starve this task for a long while.
func eventually(limit: Duration = .seconds(120), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        await Task.yield()
    }
    return await condition()
}
