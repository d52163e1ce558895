import Foundation
import Testing
import ImagePipeline
import LoopbackHTTPServer
import TestSupport

/// The `imagepipe` tool as a user runs it: a real process, real files, a real server.
@Suite("imagepipe command line")
struct CommandLineTests {
    static func tool() throws -> URL {
        try #require(BuiltProduct.locate("imagepipe"), "imagepipe not built: run `swift build --build-tests`")
    }

    struct Inspected: Decodable {
        var format: String
        var width: Int
        var height: Int
        var frames: Int
        var orientation: Int
        var hasAlpha: Bool
        var rgba_sha256: String
    }

    struct ExpectedPNG: Decodable {
        var width: Int?
        var height: Int?
        var rgba_sha256: String?
        var valid: Bool
    }

    @Test("inspect --json: the documented keys, and rgba_sha256 equal to the PngSuite reference hash",
          arguments: ["basn6a08.png", "basn3p04.png", "tbrn2c08.png", "basi0g08.png"])
    func inspectPNG(name: String) async throws {
        let result = try await BuiltProduct.run(try Self.tool(), ["inspect", Corpus.url("pngsuite/\(name)").path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(Inspected.self, from: Data(result.stdout.utf8))
        let index = try JSONDecoder().decode([String: ExpectedPNG].self,
                                             from: try Corpus.data("expected/pngsuite/index.json"))
        let expected = try #require(index[name])
        #expect(report.format == "png")
        #expect(report.width == expected.width && report.height == expected.height)
        #expect(report.rgba_sha256 == expected.rgba_sha256)
        #expect(report.frames == 1)
    }

    @Test("inspect reports stored size, orientation and frames for JPEG, GIF and WebP")
    func inspectOtherFormats() async throws {
        let tool = try Self.tool()
        let jpeg = try await BuiltProduct.run(tool, ["inspect", Corpus.url("exif-orientation/Landscape_6.jpg").path, "--json"])
        let jpegReport = try JSONDecoder().decode(Inspected.self, from: Data(jpeg.stdout.utf8))
        #expect((jpegReport.format, jpegReport.width, jpegReport.height, jpegReport.orientation) == ("jpeg", 1200, 1800, 6))
        let gif = try await BuiltProduct.run(tool, ["inspect", Corpus.url("bench/anim/kodak-8frames-384x256.gif").path, "--json"])
        let gifReport = try JSONDecoder().decode(Inspected.self, from: Data(gif.stdout.utf8))
        #expect((gifReport.format, gifReport.frames) == ("gif", 8))
        let webp = try await BuiltProduct.run(tool, ["inspect", Corpus.url("bench/webp-q80-alpha/kodim01.webp").path, "--json"])
        let webpReport = try JSONDecoder().decode(Inspected.self, from: Data(webp.stdout.utf8))
        #expect((webpReport.format, webpReport.hasAlpha) == ("webp", true))
    }

    @Test("bad input: exit status 1 and one line on stderr naming the problem", arguments: [
        "pngsuite/xcrn0g04.png", "pngsuite/xs1n0g01.png", "README.md",
    ])
    func inspectBadInput(path: String) async throws {
        let result = try await BuiltProduct.run(try Self.tool(), ["inspect", Corpus.url(path).path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("imagepipe: ") == true)
    }

    @Test("convert applies EXIF orientation and --max-size, encoding by the output's extension",
          arguments: ["png", "jpg", "webp"])
    func convert(extension: String) async throws {
        let tool = try Self.tool()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("convert-\(UUID().uuidString).\(`extension`)")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try await BuiltProduct.run(tool, ["convert", Corpus.url("exif-orientation/Portrait_8.jpg").path,
                                                       output.path, "--max-size", "300", "--quality", "90"])
        #expect(result.status == 0, "\(result.stderr)")
        let image = try Codecs.decode(try Data(contentsOf: output))
        // Portrait files display upright as 1200x1800: fit within 300x300 gives 200x300.
        #expect((image.width, image.height) == (200, 300))
        #expect(image.metadata.orientation == .up)
    }

    @Test("fetch: duplicates coalesce, the JSON summary is the last line, a failure exits 1 with a line on stderr")
    func fetch() async throws {
        let server = try await LoopbackHTTPServer.start()
        server.setRoute("/a.jpg", .body(try Corpus.data("bench/http-50k/kodim01.jpg"), contentType: "image/jpeg"))
        server.setRoute("/b.png", .body(try Corpus.data("pngsuite/basn2c08.png"), contentType: "image/png"))
        server.setRoute("/missing.jpg", .status(404))
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let urls = ["/a.jpg", "/a.jpg", "/b.png", "/a.jpg", "/missing.jpg"].map { server.url($0).absoluteString }
        let result = try await BuiltProduct.run(try Self.tool(), ["fetch"] + urls + ["--cache-dir", cache.path, "--json"])
        await server.shutdown()

        struct Summary: Decodable {
            var images, failed, networkRequests, coalesced, memoryHits, diskHits, notModified, bytes, previews: Int
        }
        let last = try #require(result.stdout.split(separator: "\n").last)
        let summary = try JSONDecoder().decode(Summary.self, from: Data(last.utf8))
        #expect(result.status == 1)
        #expect(summary.images == 4)
        #expect(summary.failed == 1)
        #expect(summary.networkRequests == 3)
        #expect(summary.coalesced + summary.memoryHits == 2)
        #expect(summary.previews == 0)
        #expect(summary.bytes > 0)
        let failures = result.stderr.split(separator: "\n").filter { $0.contains("missing.jpg") }
        #expect(failures.count == 1)
        #expect(failures.first?.contains("404") == true)
        #expect(server.requests.all.count == 3)
    }
}
