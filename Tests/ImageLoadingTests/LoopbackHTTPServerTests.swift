import Foundation
import ImageLoading
import LoopbackHTTPServer
import Testing
import TestSupport

@Suite("LoopbackHTTPServer", .timeLimit(.minutes(1)))
struct LoopbackHTTPServerTests {
    @Test("stored gzip has the RFC 1952 layout and the standard CRC-32")
    func gzipLayout() {
        let encoded = GzipEncoding.storedGzip(Data("123456789".utf8))
        #expect(encoded.prefix(3) == Data([0x1F, 0x8B, 0x08]))
        let trailer = [UInt8](encoded.suffix(8))
        let crc = UInt32(trailer[0]) | UInt32(trailer[1]) << 8 | UInt32(trailer[2]) << 16 | UInt32(trailer[3]) << 24
        #expect(crc == 0xCBF4_3926)   // the check value of CRC-32/ISO-HDLC
        #expect(trailer[4] == 9)
    }

    @Test("a directory route serves its files and refuses others")
    func directory() async throws {
        let server = try await LoopbackHTTPServer.start(routes: ["/images/": .directory(Corpus.url("bench/http-50k"))])
        let loader = CurlDataLoader()
        let (head, body) = try await loader.data(for: DataRequest(url: server.url("/images/kodim02.jpg")))
        #expect(head.contentType == "image/jpeg")
        #expect(sameBytes(body, try Corpus.data("bench/http-50k/kodim02.jpg")))
        for path in ["/images/nope.jpg", "/images/..%2Fhttp-50k%2Fkodim01.jpg", "/elsewhere"] {
            let (_, error) = await collect(loader.load(DataRequest(url: server.url(path))))
            #expect(error != nil, "\(path) should not be served")
        }
        #expect(server.requestCount(path: "/images/kodim02.jpg") == 1)
        await server.shutdown()
    }

    @Test("a gated chunked route sends one chunk per permit")
    func gatedChunks() async throws {
        let server = try await LoopbackHTTPServer.start()
        let gate = ReleaseGate()
        server.setRoute("/steps", .chunked(Data("aaaabbbbcccc".utf8), chunkSize: 4, pacing: .gate(gate)))
        let loader = CurlDataLoader(configuration: CancellationAndPriorityTests.patientConfiguration())
        var iterator = loader.load(DataRequest(url: server.url("/steps"))).makeAsyncIterator()
        gate.release()
        var received = Data()
        guard case .response? = try await iterator.next() else { throw CancellationError() }
        while received.count < 12 {
            guard case .chunk(let chunk)? = try await iterator.next() else { break }
            received.append(chunk)
            #expect(received.count % 4 == 0)   // nothing beyond the permits given arrives
            gate.release()
        }
        #expect(try await iterator.next() == nil)
        #expect(received == Data("aaaabbbbcccc".utf8))
        await server.shutdown()
    }

    @Test("shutdown ends stalled connections")
    func shutdownEndsStalls() async throws {
        let server = try await LoopbackHTTPServer.start(routes: ["/stall": .stall()])
        let transfer = CurlDataLoader().load(DataRequest(url: server.url("/stall")))
        let consumer = Task { await collect(transfer) }
        _ = try await server.requests.first { $0.path == "/stall" }
        await server.shutdown()
        let result = await consumer.value
        #expect(result.error != nil)
    }
}
