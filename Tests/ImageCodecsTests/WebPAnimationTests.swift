import Foundation
import ImageCodecs
import ImageCore
import Testing
import TestSupport

@Suite("Animated WebP")
struct WebPAnimationTests {
    @Test("frames, durations and loop count", arguments: [
        ("bench/anim/kodak-8frames-384x256-lossy.webp", 8, 384, 256, 0.5),
        ("bench/anim/kodak-8frames-384x256-lossless.webp", 8, 384, 256, 0.5),
        ("webp/image-webp/animated/random_lossless.webp", 3, 64, 63, 0.1),
        ("webp/image-webp/animated/random_lossy.webp", 4, 99, 87, 0.15),
    ])
    func animation(path: String, frameCount: Int, width: Int, height: Int, duration: Double) throws {
        let data = try Corpus.data(path)
        let image = try WebPDecoder().decode(data, options: DecodingOptions())
        #expect(image.width == width && image.height == height)
        #expect(image.metadata.frames.count == frameCount)
        #expect(image.metadata.loopCount == 0)
        for frame in image.metadata.frames {
            #expect(abs(frame.duration - duration) < 1e-9)
            #expect(frame.image.width == width && frame.image.height == height && frame.image.pixelFormat == .rgba8)
        }
        // The returned image is the first frame.
        #expect(WebPGIFTestSupport.difference(image.packedBytes(), image.metadata.frames[0].image.packedBytes()) == nil)
        let header = try WebPDecoder().readHeader(data)
        #expect(header.frameCount == frameCount && !header.isProgressive)
    }

    /// The lossy references are dwebp decodes of each frame (exact). The lossless ones went
    /// through `webpmux -get frame` and ImageMagick's `convert` (see CREDITS.md), which moves
    /// frames 2 and 3 by one level in every channel; libwebp itself blends these opaque frames
    /// exactly, so there a difference of 1 is allowed.
    @Test("every composited frame matches the reference",
          arguments: [("random_lossless", 3, 1), ("random_lossy", 4, 0)])
    func framesMatchReference(name: String, frameCount: Int, tolerance: Int) throws {
        let image = try WebPDecoder().decode(try Corpus.data("webp/image-webp/animated/\(name).webp"),
                                             options: DecodingOptions())
        #expect(image.metadata.frames.count == frameCount)
        for (index, frame) in image.metadata.frames.enumerated() {
            let reference = try WebPGIFTestSupport.referencePNG("webp/image-webp/reference/animated/\(name)-\(index + 1).png")
            let decoded = frame.image.packedBytes()
            #expect(decoded.count == reference.rgba.count)
            let largest = zip(decoded, reference.rgba).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(largest <= tolerance, "frame \(index + 1): largest difference \(largest)")
        }
    }

    @Test("SDWebImage's animated test image")
    func sdwebimage() throws {
        let image = try WebPDecoder().decode(try Corpus.data("webp/sdwebimage-TestImageAnimated.webp"),
                                             options: DecodingOptions())
        #expect(image.metadata.isAnimated)
        #expect(image.metadata.frames.allSatisfy { $0.duration > 0 })
        let data = try Corpus.data("webp/sdwebimage-TestImageAnimated.webp")
        #expect(try WebPDecoder().readHeader(data).frameCount == image.metadata.frames.count)
    }

    @Test("first frame only when not all frames are wanted")
    func firstFrameOnly() throws {
        let data = try Corpus.data("bench/anim/kodak-8frames-384x256-lossy.webp")
        let all = try WebPDecoder().decode(data, options: DecodingOptions())
        let first = try WebPDecoder().decode(data, options: DecodingOptions(decodesAllFrames: false))
        #expect(first.metadata.frames.isEmpty)
        #expect(WebPGIFTestSupport.difference(first.packedBytes(), all.packedBytes()) == nil)
    }

    @Test("the pixel limit covers all frames together")
    func frameBudget() throws {
        let data = try Corpus.data("bench/anim/kodak-8frames-384x256-lossy.webp")
        // One frame fits, eight do not.
        let options = DecodingOptions(maxPixelCount: 384 * 256 * 4)
        #expect(throws: ImagePipelineError.imageTooLarge(width: 384, height: 256 * 8, maxPixelCount: 384 * 256 * 4)) {
            try WebPDecoder().decode(data, options: options)
        }
        var firstOnly = options
        firstOnly.decodesAllFrames = false
        #expect(try WebPDecoder().decode(data, options: firstOnly).width == 384)
    }
}
