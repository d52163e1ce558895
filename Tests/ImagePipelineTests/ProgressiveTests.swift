import Foundation
import Testing
import ImagePipeline
import LoopbackHTTPServer
import TestSupport

@Suite("Progressive frames")
struct ProgressiveTests {
    static let cases: [(name: String, path: String)] = [
        ("progressive JPEG", "bench/jpeg-q85-progressive/kodim03.jpg"),
        ("interlaced PNG", "pngsuite/basi6a08.png"),
    ]

    @Test("served slowly with no Content-Length: at least 2 previews, then one final frame equal to a plain decode",
          arguments: cases)
    func previewsThenFinal(name: String, path: String) async throws {
        let data = try Corpus.data(path)
        let fixture = try await PipelineFixture.make()
        let gate = ReleaseGate()
        fixture.server.setRoute("/slow", .chunked(data, chunkSize: max(16, data.count / 40), pacing: .gate(gate)))
        var previews: [Image] = []
        var finals: [Image] = []
        let frames = fixture.pipeline.images(for: fixture.server.url("/slow"))
        let stepper = stepChunks(gate, fixture.pipeline)
        for try await frame in frames {
            if frame.isFinal { finals.append(frame.image) } else { previews.append(frame.image) }
        }
        stepper.cancel()
        gate.open()
        let plain = try Codecs.decode(data)
        #expect(finals.count == 1)
        #expect(finals.first == plain)
        #expect(previews.count >= 2, "\(name): \(previews.count) previews")
        #expect(previews.allSatisfy { $0.width == plain.width && $0.height == plain.height })
        #expect(fixture.pipeline.statistics.previewsDecoded >= 2)
        await fixture.tearDown()
    }

    @Test("previews go through the request's processors")
    func previewsAreProcessed() async throws {
        let fixture = try await PipelineFixture.make()
        let gate = ReleaseGate()
        let data = Samples.progressiveJPEG
        fixture.server.setRoute("/p.jpg", .chunked(data, chunkSize: 2048, pacing: .gate(gate)))
        let stepper = stepChunks(gate, fixture.pipeline)
        var sizes: [(Int, Int, Bool)] = []
        let request = ImageRequest(url: fixture.server.url("/p.jpg"), processors: [Resize(width: 100, height: 100, mode: .exact, upscale: false)])
        for try await frame in fixture.pipeline.images(for: request) {
            sizes.append((frame.image.width, frame.image.height, frame.isFinal))
        }
        stepper.cancel()
        gate.open()
        #expect(sizes.count >= 2)
        #expect(sizes.allSatisfy { $0.0 == 100 && $0.1 == 100 })
        #expect(sizes.last?.2 == true)
        await fixture.tearDown()
    }
}

/// Lets the server send one chunk at a time, the next only once the pipeline has received the
/// previous one, so the decoder sees the data grow in steps however busy the machine is.
func stepChunks(_ gate: ReleaseGate, _ pipeline: Pipeline) -> Task<Void, Never> {
    Task {
        var received = pipeline.statistics.bytesLoaded
        while !Task.isCancelled {
            gate.release(1)
            _ = await eventually { Task.isCancelled || pipeline.statistics.bytesLoaded > received }
            received = pipeline.statistics.bytesLoaded
        }
    }
}
