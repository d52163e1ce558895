import ArgumentParser
import Foundation
import ImagePipeline

/// `imagepipe bench thumbnail DIR --size N`: decode every image of a folder and make a
/// thumbnail whose longest side is N, on all cores, and report images per second.
struct BenchThumbnailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Decode and thumbnail every image in a folder (images/s).",
        discussion: """
            Each job reads the file, decodes it (a JPEG at the smallest DCT scale that still \
            covers the thumbnail: shrink on load) and resizes it with Lanczos-3 to fit N×N. One \
            untimed pass warms up, then --repeat timed passes run on --threads worker threads. \
            --json prints {"imagesPerSecond": …, "megapixelsDecoded": …, …}.
            """
    )

    @Argument(help: "A folder of JPEG, PNG, WebP or GIF files.")
    var directory: String

    @Option(help: "Longest side of the thumbnail in pixels.")
    var size: Int

    @Option(help: "Timed passes over the folder.")
    var `repeat`: Int = 3

    @Option(help: "Worker threads (default: one per core).")
    var threads: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() async throws {
        guard size > 0, `repeat` > 0, threads > 0 else { throw ValidationError("--size, --repeat and --threads must be positive") }
        let folder = URL(fileURLWithPath: directory, isDirectory: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { ImageFormat(fileExtension: ($0 as NSString).pathExtension) != nil }.sorted()
        guard !names.isEmpty else { throw ValidationError("no .jpg, .png, .webp or .gif files in \(directory)") }
        let files = names.map { folder.appendingPathComponent($0) }
        let pool = BlockingWorkPool(width: threads, name: "bench.thumbnail")
        let resize = Resize(width: size, height: size, mode: .fit, upscale: false)

        _ = try await Self.thumbnails(files, resize: resize, pool: pool)       // warm-up: page cache, buffer pool
        let clock = ContinuousClock()
        var decodedPixels = 0
        // All passes in one batch: no worker idles at the end of a pass waiting for the slowest file.
        let jobs = Array(repeatElement(files, count: `repeat`).joined())
        let elapsed = try await clock.measure {
            decodedPixels = try await Self.thumbnails(jobs, resize: resize, pool: pool)
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let images = files.count * `repeat`
        let result: [String: Any] = [
            "imagesPerSecond": Double(images) / seconds, "images": images, "seconds": seconds,
            "megapixelsDecoded": Double(decodedPixels) / 1e6, "threads": threads, "size": size,
        ]
        if json {
            let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(String(format: "%d images in %.3f s: %.1f images/s, %.1f Mpx decoded, %d threads",
                         images, seconds, Double(images) / seconds, Double(decodedPixels) / 1e6, threads))
        }
    }

    /// A thumbnail of each file, `pool.width` at a time; returns the number of pixels decoded.
    private static func thumbnails(_ files: [URL], resize: Resize, pool: BlockingWorkPool) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for file in files {
                group.addTask { try await pool.run { try thumbnail(file, resize: resize) } }
            }
            return try await group.reduce(0, +)
        }
    }

    private static func thumbnail(_ file: URL, resize: Resize) throws -> Int {
        let data = try Data(contentsOf: file)
        let decoder = try Codecs.decoder(for: data)
        var options = DecodingOptions(decodesAllFrames: false)
        let header = try decoder.readHeader(data)
        options.minimumSize = resize.minimumInputSize(for: PixelSize(width: header.width, height: header.height))
        let image = try decoder.decode(data, options: options)
        _ = try resize.process(image)
        return image.width * image.height
    }
}
