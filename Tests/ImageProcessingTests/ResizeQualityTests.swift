import Foundation
import ImageCore
import ImageProcessing
import TestSupport
import Testing

/// Compares our Lanczos-3 with Pillow's on Kodak images. The references come from
/// `make_lanczos_references.py` (python3 + Pillow); without them the test fails, never skips.
@Suite struct ResizeQualityTests {
    struct Case: Decodable {
        var name: String
        var source: String
        var sourceWidth: Int
        var sourceHeight: Int
        var reference: String
        var width: Int
        var height: Int
    }

    /// Benchmarks/make_lanczos_references.py (kept outside the test target so SwiftPM has no
    /// unhandled file to warn about). This file is Tests/ImageProcessingTests/ResizeQualityTests.swift.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Benchmarks/make_lanczos_references.py")

    /// Runs the reference script into a fresh temporary folder and returns the folder and its cases.
    static func makeReferences() throws -> (URL, [Case]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lanczos-references-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, Corpus.root.path, folder.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ReferenceError(message: "make_lanczos_references.py failed (python3 and Pillow are required): \(message)")
        }
        let manifest = try Data(contentsOf: folder.appendingPathComponent("manifest.json"))
        return (folder, try JSONDecoder().decode([Case].self, from: manifest))
    }

    struct ReferenceError: Error, CustomStringConvertible { var description: String; init(message: String) { description = message } }

    @Test func lanczosMatchesPillow() throws {
        let (folder, cases) = try Self.makeReferences()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(cases.count >= 12)
        for testCase in cases {
            let sourceBytes = try Data(contentsOf: folder.appendingPathComponent(testCase.source))
            let source = Image(width: testCase.sourceWidth, height: testCase.sourceHeight, pixelFormat: .rgba8, packed: sourceBytes)
            let reference = [UInt8](try Data(contentsOf: folder.appendingPathComponent(testCase.reference)))
            let resized = try Resize(width: testCase.width, height: testCase.height, mode: .exact, upscale: true).process(source)
            #expect(resized.dimensions == (testCase.width, testCase.height))
            let psnr = psnrRGB(resized.packedBytes(), reference)
            print("PSNR \(testCase.name) \(testCase.sourceWidth)x\(testCase.sourceHeight) -> \(testCase.width)x\(testCase.height): "
                  + String(format: "%.2f dB", psnr))
            #expect(psnr >= 35, "\(testCase.reference): \(psnr) dB")
        }
    }
}
