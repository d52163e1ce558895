import ArgumentParser
import Foundation
import ImagePipeline

/// `imagepipe fetch`: runs URLs through one pipeline concurrently and reports what happened.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch images through one pipeline (coalesced, cached) and print a summary.",
        discussion: """
        Every URL (arguments, then one per line of --input-file; duplicates are kept) goes through \
        one Pipeline, at most --concurrency at a time. With --json the last line of stdout is one \
        JSON object: images, failed, networkRequests, coalesced, memoryHits, diskHits, notModified, \
        bytes, previews. Exit status 1 when any URL failed (one line per failure on stderr).
        """
    )

    @Argument(help: "Image URLs (http, https, file or data).")
    var urls: [String] = []

    @Option(name: .long, help: "A file with one URL per line (blank lines and # comments skipped).")
    var inputFile: String?

    @Option(name: .shortAndLong, help: "Write each image into this directory.")
    var output: String?

    @Option(name: .long, help: "Shrink images to fit within N×N pixels (never enlarges).")
    var maxSize: Int?

    @Option(name: .long, help: "How many URLs are in flight at once.")
    var concurrency: Int = 16

    @Option(name: .long, help: "Disk cache directory (default: $XDG_CACHE_HOME/imagepipeline).")
    var cacheDir: String?

    @Flag(name: .long, help: "Do not use a disk cache.")
    var noDiskCache = false

    @Option(name: .long, help: "Disk cache size limit in megabytes.")
    var diskLimit: Int?

    @Flag(name: .long, help: "Consume progressive frames (previews) while images load.")
    var progressive = false

    @Flag(name: .long, help: "Print the summary as one JSON object on the last line of stdout.")
    var json = false

    mutating func validate() throws {
        guard concurrency > 0 else { throw ValidationError("--concurrency must be at least 1") }
        if let maxSize, maxSize <= 0 { throw ValidationError("--max-size must be positive") }
        if let diskLimit, diskLimit <= 0 { throw ValidationError("--disk-limit must be positive") }
        if urls.isEmpty && inputFile == nil { throw ValidationError("give at least one URL or --input-file") }
    }

    func run() async throws {
        let targets = try readTargets()
        let pipeline = try await makePipeline()
        let outputDirectory = try output.map(prepareOutputDirectory)
        // Upright first: the re-encoded files carry no EXIF orientation.
        var processors: [any ImageProcessor] = [Orient()]
        if let maxSize { processors.append(Resize(width: maxSize, height: maxSize, mode: .fit, upscale: false)) }

        let progress = ProgressReporter(total: targets.count, interactive: isatty(STDERR_FILENO) == 1 && !json)
        let outcomes = await FetchRunner(pipeline: pipeline, processors: processors, concurrency: concurrency,
                                         progressive: progressive, outputDirectory: outputDirectory,
                                         progress: progress).run(targets)
        progress.finish()

        var summary = FetchSummary(statistics: pipeline.statistics)
        for outcome in outcomes {
            switch outcome.result {
            case .success: summary.images += 1
            case .failure(let error):
                summary.failed += 1
                FileHandle.standardError.write(Data("imagepipe: \(outcome.target.text): \(Self.describe(error))\n".utf8))
            }
            summary.previews += outcome.previews
        }
        print(json ? summary.jsonLine() : summary.humanReadable())
        if summary.failed > 0 { throw ExitCode(1) }
    }

    private func readTargets() throws -> [FetchTarget] {
        var lines = urls
        if let inputFile {
            let text: String
            do { text = try String(contentsOfFile: inputFile, encoding: .utf8) } catch {
                throw ValidationError("cannot read --input-file \(inputFile): \(error.localizedDescription)")
            }
            lines += text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
        return lines.enumerated().map { FetchTarget(index: $0.offset, text: $0.element) }
    }

    private func makePipeline() async throws -> Pipeline {
        var configuration = Pipeline.Configuration()
        if !noDiskCache {
            let directory = cacheDir.map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? Pipeline.Configuration.defaultDiskDirectory
            var diskConfiguration = DiskStoreConfiguration()
            if let diskLimit { diskConfiguration.sizeLimit = diskLimit * 1_048_576 }
            do {
                configuration.diskStore = try await DiskStore(directory: directory, configuration: diskConfiguration)
            } catch {
                throw ValidationError("cannot use the disk cache at \(directory.path): \(Self.describe(error))")
            }
        }
        return Pipeline(configuration: configuration)
    }

    private func prepareOutputDirectory(_ path: String) throws -> URL {
        let url = URL(fileURLWithPath: path, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw ValidationError("cannot create output directory \(path): \(error.localizedDescription)")
        }
        return url
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? ImagePipelineError { return error.description }
        return String(describing: error)
    }
}
