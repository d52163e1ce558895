import ArgumentParser
import Foundation
import ImageCodecs
import ImageCore

/// `imagepipe bench decode DIR`: JPEG decode throughput on one thread, full size and at a DCT scale.
///
/// Each file is decoded once to warm up, then `--repeat` times; every decoded image is released
/// before the next decode, so the pooled pixel buffer is reused as in a long-running service.
struct BenchDecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode every JPEG in a folder: Mpx/s at full size, ms per image at a DCT scale."
    )

    @Argument(help: "Folder of .jpg/.jpeg files (or one JPEG file).")
    var directory: String

    @Option(name: .customLong("repeat"), help: "Timed decodes per file.")
    var repetitions = 10

    @Option(help: "Also decode at this DCT scale (1/2, 3/8, 1/4, 1/8 ...).")
    var scale: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    struct FileResult: Codable {
        var file: String
        var width: Int
        var height: Int
        var fullMegapixelsPerSecond: Double
        var fullMilliseconds: Double
        var scaledWidth: Int?
        var scaledHeight: Int?
        var scaledMilliseconds: Double?
    }

    struct Report: Codable {
        var files: [FileResult]
        var repetitions: Int
        var scale: String?
        /// Total megapixels decoded divided by total time, full size.
        var fullMegapixelsPerSecond: Double
    }

    func validate() throws {
        guard repetitions > 0 else { throw ValidationError("--repeat must be positive") }
        if let scale, Self.parseScale(scale) == nil { throw ValidationError("--scale must look like 1/8") }
    }

    func run() async throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder) else {
            throw ValidationError("no such file or folder: \(directory)")
        }
        let paths: [URL]
        if isFolder.boolValue {
            let folder = URL(fileURLWithPath: directory, isDirectory: true)
            paths = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { ["jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
                .map { folder.appendingPathComponent($0) }
        } else {
            paths = [URL(fileURLWithPath: directory)]   // one file: lets a script interleave with a peer tool
        }
        guard !paths.isEmpty else { throw ValidationError("no JPEG files in \(directory)") }
        let inputs = try paths.map { ($0.lastPathComponent, try Data(contentsOf: $0)) }
        let (repetitions, scale) = (self.repetitions, self.scale.flatMap(Self.parseScale))
        // One dedicated thread: the measurement is single-threaded and stays off the cooperative pool.
        let pool = BlockingWorkPool(width: 1, name: "imagepipe.bench.decode")
        let results = try await pool.run { try inputs.map { try Self.measure(name: $0.0, data: $0.1, repetitions: repetitions, scale: scale) } }

        let totalMegapixels = results.reduce(0.0) { $0 + Double($1.width * $1.height) / 1e6 }
        let totalSeconds = results.reduce(0.0) { $0 + $1.fullMilliseconds / 1000 }
        let report = Report(files: results, repetitions: repetitions, scale: self.scale,
                            fullMegapixelsPerSecond: totalMegapixels / totalSeconds)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
            return
        }
        for result in results {
            var line = "\(result.file)  \(result.width)x\(result.height)  full: "
                + String(format: "%.1f Mpx/s (%.2f ms)", result.fullMegapixelsPerSecond, result.fullMilliseconds)
            if let ms = result.scaledMilliseconds, let w = result.scaledWidth, let h = result.scaledHeight {
                line += String(format: "  %@ -> %dx%d: %.2f ms", self.scale ?? "", w, h, ms)
            }
            print(line)
        }
        print(String(format: "all files, full size: %.1f Mpx/s (single thread, %d repeats)",
                     report.fullMegapixelsPerSecond, repetitions))
    }

    static func parseScale(_ text: String) -> (num: Int, denom: Int)? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let num = Int(parts[0]), let denom = Int(parts[1]), num > 0, denom > 0, num <= denom
        else { return nil }
        return (num, denom)
    }

    static func measure(name: String, data: Data, repetitions: Int,
                        scale: (num: Int, denom: Int)?) throws -> FileResult {
        let decoder = JPEGDecoder()
        let header = try decoder.readHeader(data)
        let full = try time(repetitions) { try decoder.decode(data, options: DecodingOptions()) }
        var result = FileResult(file: name, width: header.width, height: header.height,
                                fullMegapixelsPerSecond: Double(header.width * header.height) / 1e6 / (full.milliseconds / 1000),
                                fullMilliseconds: full.milliseconds)
        if let scale {
            // Asking for exactly the scaled size makes the decoder pick that DCT scale.
            let minimum = PixelSize(width: (header.width * scale.num + scale.denom - 1) / scale.denom,
                                    height: (header.height * scale.num + scale.denom - 1) / scale.denom)
            let scaled = try time(repetitions) { try decoder.decode(data, options: DecodingOptions(minimumSize: minimum)) }
            result.scaledWidth = scaled.image.width
            result.scaledHeight = scaled.image.height
            result.scaledMilliseconds = scaled.milliseconds
        }
        return result
    }

    /// Mean milliseconds of `repetitions` runs after one warm-up run; returns the last image's size.
    static func time(_ repetitions: Int, _ body: () throws -> Image) throws -> (milliseconds: Double, image: PixelSize) {
        var size = PixelSize(width: 0, height: 0)
        do {
            let warm = try body()
            size = PixelSize(width: warm.width, height: warm.height)
        }
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for _ in 0 ..< repetitions { _ = try body() }   // each image is released before the next decode
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (seconds * 1000 / Double(repetitions), size)
    }
}
