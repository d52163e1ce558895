import ArgumentParser
import Crypto
import Foundation
import ImagePipeline

/// `imagepipe inspect FILE [--json]`: what an image file is, and a hash of its pixels.
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print an image's format, size, frames, orientation, alpha and pixel hash.",
        discussion: """
        rgba_sha256 is the SHA-256 of the first frame decoded at full size to RGBA8 with straight \
        alpha, rows packed, EXIF orientation not applied. Width and height are as stored.
        """
    )

    @Argument(help: "The image file.")
    var file: String

    @Flag(name: .long, help: "Print one JSON object.")
    var json = false

    func run() async throws {
        let report: InspectReport
        do {
            report = try await BlockingWorkPool.shared.run { [file] in try InspectReport.make(path: file) }
        } catch {
            CommandFailure.report(file, error)
            throw ExitCode(1)
        }
        print(json ? report.jsonLine() : report.humanReadable())
    }
}

/// The facts `inspect` prints.
struct InspectReport: Codable {
    var format: String
    var width: Int
    var height: Int
    var frames: Int
    var orientation: Int
    var hasAlpha: Bool
    var rgba_sha256: String

    static func make(path: String) throws -> InspectReport {
        let data = try FileInput.read(path)
        let decoder = try Codecs.decoder(for: data)
        let image = try decoder.decode(data, options: DecodingOptions())
        let rgba = image.converted(to: .rgba8).packedBytes()
        let digest = SHA256.hash(data: rgba).map { String(format: "%02x", $0) }.joined()
        return InspectReport(format: type(of: decoder).format.rawValue, width: image.width, height: image.height,
                             frames: max(1, image.metadata.frames.count), orientation: image.metadata.orientation.rawValue,
                             hasAlpha: image.metadata.hasAlpha, rgba_sha256: digest)
    }

    func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    func humanReadable() -> String {
        """
        format:      \(format)
        size:        \(width)x\(height) (as stored)
        frames:      \(frames)
        orientation: \(orientation)
        alpha:       \(hasAlpha ? "yes" : "no")
        rgba_sha256: \(rgba_sha256)
        """
    }
}

/// Reading input files with errors in the pipeline's terms.
enum FileInput {
    static func read(_ path: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw ImagePipelineError.fileUnreadable(path: path, message: (error as NSError).localizedDescription)
        }
    }
}

/// One line on stderr naming the problem, as every subcommand reports failures.
enum CommandFailure {
    static func report(_ subject: String, _ error: any Error) {
        let message = (error as? ImagePipelineError)?.description ?? String(describing: error)
        FileHandle.standardError.write(Data("imagepipe: \(subject): \(message)\n".utf8))
    }
}
