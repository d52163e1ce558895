import ArgumentParser
import Foundation
import ImagePipeline
import LoopbackHTTPServer

/// `imagepipe demo`: the whole pipeline on built-in sample data, end to end.
///
/// Serves the sample images over loopback, then runs `imagepipe fetch` on them twice, each in a
/// fresh process sharing one disk cache: the cold run downloads (coalescing repeated URLs),
/// the warm run is served from disk with no network request.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Serve the sample images on loopback and fetch them twice (cold, then warm from disk)."
    )

    @Option(help: "Folder of sample images to serve.")
    var samples: String = "Examples/SampleImages"

    @Option(help: "How many times each URL is listed (repeats are coalesced or served from memory).")
    var copies: Int = 3

    @Option(help: "Thumbnail size passed to fetch --max-size.")
    var maxSize: Int = 256

    func run() async throws {
        let folder = URL(fileURLWithPath: samples, isDirectory: true).standardizedFileURL
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { ["jpg", "jpeg", "png", "webp", "gif"].contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted()
        guard !names.isEmpty else { throw ValidationError("no sample images in \(folder.path)") }

        let workspace = FileManager.default.temporaryDirectory
            .appendingPathComponent("imagepipe-demo-\(UUID().uuidString)", isDirectory: true)
        let cache = workspace.appendingPathComponent("cache", isDirectory: true)
        let output = workspace.appendingPathComponent("thumbnails", isDirectory: true)
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: workspace) }

        let server = try await LoopbackHTTPServer.start(routes: ["/samples/": .directory(folder)])
        let urls = names.map { server.url("/samples/\($0)").absoluteString }
        let list = workspace.appendingPathComponent("urls.txt")
        try (Array(repeating: urls, count: max(1, copies)).flatMap { $0 }.joined(separator: "\n") + "\n")
            .write(to: list, atomically: true, encoding: .utf8)
        print("Serving \(names.count) sample images at \(server.baseURL.absoluteString)/samples/; each URL listed \(copies) times.")

        var summaries: [String] = []
        for (label, extra) in [("cold", ["--progressive"]), ("warm", [])] {
            let arguments = ["fetch", "--input-file", list.path, "--cache-dir", cache.path, "-o", output.path,
                             "--max-size", String(maxSize), "--json"] + extra
            print("\n== \(label) run (fresh process): imagepipe \(arguments.joined(separator: " "))")
            fflush(nil)   // all streams (naming the C global `stdout` is an error in Swift 6): keep our lines ahead of the child's
            let (status, stdout) = try await Self.runSelf(arguments)
            let summary = stdout.split(separator: "\n").last.map(String.init) ?? ""
            print(summary)
            summaries.append(summary)
            guard status == 0 else {
                await server.shutdown()
                throw ExitCode(status)
            }
        }
        await server.shutdown()
        let written = (try? FileManager.default.contentsOfDirectory(atPath: output.path).count) ?? 0
        print("\n\(written) thumbnails written; server saw \(server.requests.all.count) requests in all.")
        print("The warm run answered from the disk cache: see networkRequests and diskHits above.")
    }

    /// Runs this executable with `arguments`, passing stderr through; returns its status and stdout.
    private static func runSelf(_ arguments: [String]) async throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.standardError
        // Reading blocks until the child closes stdout: do it on a pool thread, not a cooperative one.
        let reader = Task { try await BlockingWorkPool.shared.run { pipe.fileHandleForReading.readDataToEndOfFile() } }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        let data = try await reader.value
        return (status, String(decoding: data, as: UTF8.self))
    }
}
