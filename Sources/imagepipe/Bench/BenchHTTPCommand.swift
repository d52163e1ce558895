import ArgumentParser
import Foundation
import ImageLoading

/// `imagepipe bench http`: fetches a list of URLs through ``CurlDataLoader`` and prints the
/// request rate. Benchmarks/http-loader.sh runs it next to `curl --parallel` on the same list.
struct BenchHTTPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http",
        abstract: "Fetch every URL of a file (one per line) and report requests per second."
    )

    @Option(help: "A file with one URL per line.")
    var urlsFile: String

    @Option(help: "Transfers running at once.")
    var concurrency = 6

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() async throws {
        let text = try String(contentsOfFile: urlsFile, encoding: .utf8)
        let urls = text.split(whereSeparator: \.isNewline).compactMap { URL(string: String($0)) }
        guard !urls.isEmpty else { throw ValidationError("no URLs in \(urlsFile)") }
        var configuration = CurlDataLoader.Configuration()
        configuration.maxConcurrentTransfers = concurrency
        let loader = CurlDataLoader(configuration: configuration)

        let clock = ContinuousClock()
        let start = clock.now
        // Everything is submitted at once, as `curl --parallel` queues its whole list; the
        // loader's queue keeps `concurrency` transfers running. Like `curl -o /dev/null`, each
        // body is received chunk by chunk and discarded (counted, and checked against its
        // Content-Length), not gathered.
        let (bytes, failures) = await withTaskGroup(of: Int?.self) { group in
            for url in urls {
                group.addTask { try? await Self.receive(loader.load(DataRequest(url: url))) }
            }
            var bytes = 0
            var failures = 0
            for await size in group {
                if let size { bytes += size } else { failures += 1 }
            }
            return (bytes, failures)
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = Double(urls.count) / seconds
        if json {
            print(#"{"requests":\#(urls.count),"failures":\#(failures),"bytes":\#(bytes),"seconds":\#(String(format: "%.4f", seconds)),"requestsPerSecond":\#(String(format: "%.1f", rate))}"#)
        } else {
            print(String(format: "%d requests (%d failed), %d bytes in %.3f s: %.0f requests/s",
                         urls.count, failures, bytes, seconds, rate))
        }
    }

    /// Consumes one transfer; returns the body's size, or `nil` when it fell short of its
    /// declared length.
    private static func receive(_ transfer: DataTransfer) async throws -> Int? {
        var expected: Int?
        var received = 0
        for try await event in transfer {
            switch event {
            case .response(let head): expected = head.expectedContentLength
            case .chunk(let bytes): received += bytes.count
            }
        }
        if let expected, expected != received { return nil }
        return received
    }
}
