import Foundation
import ImageCodecs
import ImageCore
import Testing
import TestSupport

/// Damaged input must give a typed error or a valid image: never a crash, a hang or a
/// partial result.
@Suite("WebP and GIF robustness")
struct WebPGIFRobustnessTests {
    static let malformedGIFs = Corpus.files(in: "gif/image-gif/malformed", extensions: ["gif"])

    /// Decodes `data` whole and reads its header. Both throw only `ImagePipelineError` (typed
    /// throws); what this checks is that neither crashes, hangs or returns an inconsistent image.
    static func check<Decoder: ImageDecoding>(_ decoder: Decoder, _ data: Data) {
        if let image = try? decoder.decode(data, options: DecodingOptions(maxPixelCount: 20_000_000)) {
            #expect(image.width > 0 && image.height > 0)
            #expect(image.metadata.frames.allSatisfy { $0.image.width == image.width && $0.image.height == image.height })
            #expect(image.metadata.frames.count != 1)
        }
        _ = try? decoder.readHeader(data)
    }

    @Test("image-gif's malformed files", arguments: malformedGIFs)
    func malformedGIF(name: String) throws {
        Self.check(GIFDecoder(), try Corpus.data("gif/image-gif/malformed/\(name)"))
    }

    static let damagedGIFSources = ["gif/image-gif/samples/moon_impact.gif", "gif/image-gif/samples/interlaced.gif",
                                    "gif/image-gif/samples/alpha_gif_a.gif", "gif/swift-libs/kingfisher-dancing-banana.gif",
                                    "gif/image-gif/samples/2x2.gif"]
        + malformedGIFs.map { "gif/image-gif/malformed/\($0)" }

    @Test("GIFs cut short and with flipped bytes", arguments: damagedGIFSources)
    func damagedGIF(path: String) throws {
        let data = try Corpus.data(path)
        for (index, variant) in WebPGIFTestSupport.damagedVariants(of: data, seed: UInt64(data.count)).enumerated() {
            _ = index
            Self.check(GIFDecoder(), variant)
        }
    }

    static let damagedWebPSources = [
        "webp/image-webp/gallery1/1.webp", "webp/image-webp/gallery2/1_webp_a.webp",
        "webp/image-webp/gallery2/1_webp_ll.webp", "webp/image-webp/animated/random_lossy.webp",
        "webp/image-webp/animated/random_lossless.webp", "webp/sdwebimage-TestImageAnimated.webp",
        "webp/libwebp-test-data/lossy_alpha1.webp", "webp/libwebp-test-data/vp80-00-comprehensive-001.webp",
    ] + Corpus.files(in: "webp/image-webp/regression", extensions: ["webp"]).map { "webp/image-webp/regression/\($0)" }

    @Test("WebPs cut short and with flipped bytes, whole and incrementally", arguments: damagedWebPSources)
    func damagedWebP(path: String) throws {
        let data = try Corpus.data(path)
        for variant in WebPGIFTestSupport.damagedVariants(of: data, seed: UInt64(data.count)) {
            Self.check(WebPDecoder(), variant)
            let progressive = ProgressiveWebPDecoder(options: DecodingOptions(maxPixelCount: 20_000_000))
            var offset = 0
            while offset < variant.count {
                let end = min(variant.count, offset + 700)
                if progressive.append(variant.subdata(in: offset ..< end)) {
                    _ = try? progressive.makePreview()
                }
                offset = end
            }
        }
    }
}
