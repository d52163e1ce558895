import ArgumentParser
import Foundation
import ImageCodecs
import ImageCore
import ImageProcessing

/// `imagepipe bench resize FILE --width W --height H`: milliseconds per resize of an image
/// that is already decoded (decoding is outside the timed loop).
struct BenchResizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resize",
        abstract: "Time Resize on an already decoded image (milliseconds per resize).",
        discussion: """
            FILE is an encoded image (JPEG, PNG, WebP, GIF), or raw RGBA (4 bytes per pixel, rows \
            packed, top row first) described by --source-size WxH. Prints the time per resize; \
            --json prints {"msPerOp": …, …}.
            """
    )

    @Argument(help: "An image file, or raw RGBA with --source-size.")
    var file: String

    @Option(help: "Source size of a raw file, as WIDTHxHEIGHT.")
    var sourceSize: String?

    @Option(help: "Target width.")
    var width: Int

    @Option(help: "Target height.")
    var height: Int

    @Option(help: "Resize mode: fit, fill or exact.")
    var mode: String = "fit"

    @Option(help: "Filter: lanczos3, bicubic, bilinear or box.")
    var filter: String = "lanczos3"

    @Option(help: "Timed repetitions (after one untimed warm-up).")
    var `repeat`: Int = 20

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        guard let filter = ResamplingFilter(rawValue: filter) else {
            throw ValidationError("unknown filter \(filter); use one of \(ResamplingFilter.allCases.map(\.rawValue))")
        }
        guard let mode = Resize.Mode(rawValue: mode) else {
            throw ValidationError("unknown mode \(mode); use fit, fill or exact")
        }
        guard `repeat` > 0 else { throw ValidationError("--repeat must be positive") }
        let image = try loadImage()
        let resize = Resize(width: width, height: height, mode: mode, upscale: true, filter: filter)
        let result = try ResizeBenchmark.run(resize, on: image, repetitions: `repeat`)
        if json {
            let object: [String: Any] = [
                "msPerOp": result.millisecondsPerOperation, "repeat": `repeat`, "filter": filter.rawValue,
                "source": "\(image.width)x\(image.height)", "output": "\(result.outputWidth)x\(result.outputHeight)",
                "processor": resize.identifier,
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(String(format: "%@ %dx%d -> %dx%d: %.2f ms per resize (%d runs)", filter.rawValue, image.width, image.height,
                         result.outputWidth, result.outputHeight, result.millisecondsPerOperation, `repeat`))
        }
    }

    /// Decodes FILE, or reads it as raw RGBA when --source-size is given.
    private func loadImage() throws -> Image {
        guard let sourceSize else {
            return try Codecs.decode(try Data(contentsOf: URL(fileURLWithPath: file)))
        }
        let parts = sourceSize.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else {
            throw ValidationError("--source-size must look like 4000x3000")
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        guard data.count == parts[0] * parts[1] * 4 else {
            throw ValidationError("\(file) has \(data.count) bytes; \(sourceSize) RGBA needs \(parts[0] * parts[1] * 4)")
        }
        var image = Image(uninitializedWidth: parts[0], height: parts[1], pixelFormat: .rgba8)
        let (rowLength, stride) = (parts[0] * 4, image.bytesPerRow)
        image.withUnsafeMutableBytes { pixels in
            data.withUnsafeBytes { raw in
                for row in 0 ..< parts[1] {
                    (pixels.baseAddress! + row * stride).copyMemory(from: raw.baseAddress! + row * rowLength, byteCount: rowLength)
                }
            }
        }
        return image
    }
}

/// Times a processor on a decoded image: the entry point for any image source.
enum ResizeBenchmark {
    struct Result {
        var millisecondsPerOperation: Double
        var outputWidth: Int
        var outputHeight: Int
    }

    /// Runs `processor` once untimed (warming caches and the pixel-buffer pool), then
    /// `repetitions` times, and returns the mean wall-clock time per run.
    static func run(_ processor: some ImageProcessor, on image: Image, repetitions: Int) throws -> Result {
        var output = try processor.process(image)
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for _ in 0 ..< repetitions { output = try processor.process(image) }
        }
        let milliseconds = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) * 1e-15
        return Result(millisecondsPerOperation: milliseconds / Double(repetitions),
                      outputWidth: output.width, outputHeight: output.height)
    }
}
