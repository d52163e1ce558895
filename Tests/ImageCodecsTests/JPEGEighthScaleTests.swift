import Foundation
@testable import ImageCodecs
import ImageCore
import Testing
import TestSupport

/// Progressive JPEGs decoded at 1/8 leave out the AC scans of full-resolution components
/// (JPEGEighthScaleScans): the pixels must be exactly those of decoding every scan.
@Suite("JPEG 1/8-scale scan skipping")
struct JPEGEighthScaleTests {
    static let progressiveFiles = Corpus.files(in: "bench/jpeg-4000x3000-q90", extensions: ["jpg"])
        .filter { $0.contains("progressive") }.map { "bench/jpeg-4000x3000-q90/\($0)" }
        + Corpus.files(in: "bench/jpeg-q85-progressive", extensions: ["jpg"]).map { "bench/jpeg-q85-progressive/\($0)" }

    static func decodeBothWays(_ data: Data, minimum: PixelSize) throws -> (skipping: Image, whole: Image) {
        let options = DecodingOptions(minimumSize: minimum)
        let skipping = try JPEGDecoder.withBytes(data) { bytes throws(ImagePipelineError) in
            try JPEGDecoder.decode(bytes, options: options, skipsUnusedScans: true)
        }
        let whole = try JPEGDecoder.withBytes(data) { bytes throws(ImagePipelineError) in
            try JPEGDecoder.decode(bytes, options: options, skipsUnusedScans: false)
        }
        return (skipping, whole)
    }

    static func samePixels(_ a: Image, _ b: Image) -> Bool {
        guard a.width == b.width, a.height == b.height, a.pixelFormat == b.pixelFormat else { return false }
        let rowBytes = a.width * a.pixelFormat.bytesPerPixel
        return a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                (0 ..< a.height).allSatisfy { y in
                    memcmp(pa.baseAddress! + y * a.bytesPerRow, pb.baseAddress! + y * b.bytesPerRow, rowBytes) == 0
                }
            }
        }
    }

    @Test("Corpus progressive JPEGs: identical pixels at 1/8 from a much shorter stream", arguments: progressiveFiles)
    func corpusFile(path: String) throws {
        let data = try Corpus.data(path)
        let header = try JPEGDecoder().readHeader(data)
        let minimum = PixelSize(width: header.width / 8, height: header.height / 8)
        let (skipping, whole) = try Self.decodeBothWays(data, minimum: minimum)
        #expect((skipping.width, skipping.height) == ((header.width + 7) / 8, (header.height + 7) / 8))
        #expect(Self.samePixels(skipping, whole))
        let pruned = try #require(data.withUnsafeBytes { JPEGEighthScaleScans.prunedStream(of: $0) })
        #expect(pruned.count < data.count / 2, "most of the file is luma AC scans")
    }

    @Test("Progressive 4:4:4, 4:2:2, 4:4:0 and gray JPEGs: identical pixels at 1/8",
          arguments: JPEGEncoder.ChromaSubsampling.allCases.map { Optional($0) } + [nil])
    func encodedLayouts(subsampling: JPEGEncoder.ChromaSubsampling?) throws {
        var source = try Codecs.decode(try Corpus.data("kodak/kodim23.png"))
        if subsampling == nil {
            // Gray from the green channel: enough for a one-component JPEG.
            let rgba = source.packedBytes()
            source = Image(width: source.width, height: source.height, pixelFormat: .gray8,
                           packed: stride(from: 1, to: rgba.count, by: 4).map { rgba[$0] })
        }
        let data = try JPEGEncoder(quality: 90, chromaSubsampling: subsampling ?? .yuv444, progressive: true).encode(source)
        let (skipping, whole) = try Self.decodeBothWays(data, minimum: PixelSize(width: 96, height: 64))
        #expect((skipping.width, skipping.height) == (96, 64))
        #expect(Self.samePixels(skipping, whole))
    }

    @Test("Scans are kept whole above 1/8 and for baseline files")
    func notAtOtherScales() throws {
        let progressive = try Corpus.data("bench/jpeg-4000x3000-q90/kodim05-progressive.jpg")
        let (quarter, wholeQuarter) = try Self.decodeBothWays(progressive, minimum: PixelSize(width: 501, height: 300))
        #expect((quarter.width, quarter.height) == (1000, 750))
        #expect(Self.samePixels(quarter, wholeQuarter))
        let baseline = try Corpus.data("bench/jpeg-4000x3000-q90/kodim05-baseline.jpg")
        #expect(baseline.withUnsafeBytes { JPEGEighthScaleScans.prunedStream(of: $0) } == nil)
    }

    @Test("Truncated progressive files are decoded as before, never from a rewritten stream")
    func truncated() throws {
        let data = try Corpus.data("bench/jpeg-q85-progressive/kodim05.jpg")
        for end in [data.count - 2, data.count * 3 / 4, data.count / 3] {
            let prefix = data.prefix(end)
            #expect(prefix.withUnsafeBytes { JPEGEighthScaleScans.prunedStream(of: $0) } == nil)
            let skipping = Result { try Self.decodeBothWays(prefix, minimum: PixelSize(width: 96, height: 64)) }
            if case .success(let pair) = skipping { #expect(Self.samePixels(pair.skipping, pair.whole)) }
        }
    }
}
