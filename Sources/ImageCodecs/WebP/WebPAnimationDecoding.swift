import CWebP
import Foundation
import ImageCore

/// Animated WebP through libwebpdemux's `WebPAnimDecoder`, which composites each frame
/// (blend and dispose) onto the full canvas for us.
enum WebPAnimationDecoding {
    /// Number of frames the demuxer finds.
    static func frameCount(_ bytes: UnsafeRawBufferPointer) throws(ImagePipelineError) -> Int {
        var webpData = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demuxer = WebPDemux(&webpData) else {
            throw .corruptData(format: .webp, message: "the animation's chunks cannot be parsed")
        }
        defer { WebPDemuxDelete(demuxer) }
        return Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, features: WebPFeatures,
                       options: DecodingOptions) throws(ImagePipelineError) -> Image {
        var webpData = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        var decoderOptions = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&decoderOptions) != 0 else {
            throw .corruptData(format: .webp, message: "libwebp version mismatch")
        }
        // MODE_RGBA is straight alpha (MODE_rgbA would be premultiplied); decode on this thread.
        decoderOptions.color_mode = MODE_RGBA
        decoderOptions.use_threads = 0
        guard let decoder = WebPAnimDecoderNew(&webpData, &decoderOptions) else {
            throw .corruptData(format: .webp, message: "the animation's chunks cannot be parsed")
        }
        defer { WebPAnimDecoderDelete(decoder) }
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
            throw .corruptData(format: .webp, message: "the animation header cannot be read")
        }
        let width = Int(info.canvas_width), height = Int(info.canvas_height)
        let frameCount = Int(info.frame_count)
        guard frameCount > 0 else { throw .corruptData(format: .webp, message: "the animation has no frames") }
        try options.checkPixelCount(width: width, height: height)
        if options.decodesAllFrames {
            let budget = AnimationFrameBudget(canvasWidth: width, canvasHeight: height,
                                              maxPixelCount: options.maxPixelCount)
            try budget.check(frameCount: frameCount, format: .webp)
        }
        let metadata = ImageMetadata(sourceFormat: .webp, hasAlpha: features.hasAlpha,
                                     loopCount: Int(info.loop_count))
        var frames: [AnimationFrame] = []
        frames.reserveCapacity(options.decodesAllFrames ? frameCount : 1)
        var previousTimestamp: Int32 = 0
        while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
            var canvas: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
                throw .corruptData(format: .webp, message: "frame \(frames.count + 1) of \(frameCount) cannot be decoded")
            }
            // libwebp reports each frame's end time since the start; the difference is its duration.
            let duration = Double(max(0, timestamp - previousTimestamp)) / 1000
            previousTimestamp = timestamp
            let image = copyCanvas(canvas, width: width, height: height,
                                   metadata: ImageMetadata(sourceFormat: .webp, hasAlpha: features.hasAlpha))
            frames.append(AnimationFrame(image: image, duration: duration))
            if !options.decodesAllFrames { break }
        }
        guard let first = frames.first else {
            throw .corruptData(format: .webp, message: "the animation has no frames")
        }
        var result = first.image
        result.metadata = metadata
        // A one-frame animation is a still image: `frames` stays empty, as the metadata documents.
        if options.decodesAllFrames && frames.count > 1 { result.metadata.frames = frames }
        return result
    }

    /// Copies libwebp's tightly packed canvas (reused for the next frame) into an aligned image.
    private static func copyCanvas(_ canvas: UnsafePointer<UInt8>, width: Int, height: Int,
                                   metadata: ImageMetadata) -> Image {
        var image = Image(uninitializedWidth: width, height: height, pixelFormat: .rgba8, metadata: metadata)
        let stride = image.bytesPerRow, rowLength = width * 4
        image.withUnsafeMutableBytes { pixels in
            for row in 0 ..< height {
                (pixels.baseAddress! + row * stride).copyMemory(from: canvas + row * rowLength, byteCount: rowLength)
            }
        }
        return image
    }
}
