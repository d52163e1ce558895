import Crypto
import Foundation
import ImagePipeline

/// One line of input: its position and text.
struct FetchTarget: Sendable {
    let index: Int
    let text: String
}

/// What happened to one target.
struct FetchOutcome: Sendable {
    let target: FetchTarget
    let result: Result<ImageSource, any Error>
    /// Preview frames received before the final one (with `--progressive`).
    let previews: Int
}

/// Runs targets through the pipeline with bounded concurrency and writes results.
struct FetchRunner: Sendable {
    let pipeline: Pipeline
    let processors: [any ImageProcessor]
    let concurrency: Int
    let progressive: Bool
    let outputDirectory: URL?
    let progress: ProgressReporter

    func run(_ targets: [FetchTarget]) async -> [FetchOutcome] {
        await withTaskGroup(of: FetchOutcome.self) { group in
            var outcomes: [FetchOutcome] = []
            outcomes.reserveCapacity(targets.count)
            var pending = targets.makeIterator()
            for _ in 0 ..< concurrency {
                guard let target = pending.next() else { break }
                group.addTask { await fetch(target) }
            }
            while let outcome = await group.next() {
                outcomes.append(outcome)
                progress.advance(failed: { if case .failure = outcome.result { return true } else { return false } }())
                if let target = pending.next() { group.addTask { await fetch(target) } }
            }
            return outcomes.sorted { $0.target.index < $1.target.index }
        }
    }

    private func fetch(_ target: FetchTarget) async -> FetchOutcome {
        guard let url = URL(string: target.text), url.scheme != nil else {
            return FetchOutcome(target: target, result: .failure(ImagePipelineError.invalidURL(target.text)), previews: 0)
        }
        let request = ImageRequest(url: url, processors: processors)
        do {
            var previews = 0
            var response: ImageResponse?
            if progressive {
                for try await frame in pipeline.images(for: request) {
                    if frame.isFinal { response = frame.response } else { previews += 1 }
                }
            } else {
                response = try await pipeline.response(for: request)
            }
            guard let response else { throw CancellationError() }
            if let outputDirectory { try await write(response.image, for: url, into: outputDirectory) }
            return FetchOutcome(target: target, result: .success(response.source), previews: previews)
        } catch {
            return FetchOutcome(target: target, result: .failure(error), previews: 0)
        }
    }

    /// Writes the image in its source format (GIF becomes PNG: there is no GIF encoder), named
    /// by a hash of the URL plus its last path component, so repeated URLs share one file.
    private func write(_ image: Image, for url: URL, into directory: URL) async throws {
        let format: ImageFormat = switch image.metadata.sourceFormat {
        case .jpeg?: .jpeg
        case .webp?: .webp
        default: .png
        }
        let digest = SHA256.hash(data: Data(url.absoluteString.utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
        let stem = url.deletingPathExtension().lastPathComponent.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        let file = directory.appendingPathComponent("\(digest)-\(stem.prefix(40)).\(format.fileExtension)")
        try await BlockingWorkPool.shared.run {
            let data = try Codecs.encode(image, as: format, quality: 90)
            try data.write(to: file, options: .atomic)
        }
    }
}
