import CWebP
import Foundation
import ImageCore

/// Decodes WebP (lossy VP8, lossless VP8L, with or without alpha, still or animated) with libwebp.
///
/// Stills decode straight into the image's 64-byte aligned rows. Animations are composited by
/// libwebp's `WebPAnimDecoder` onto the full canvas: the returned image is the first frame and,
/// when ``DecodingOptions/decodesAllFrames`` is set, `metadata.frames` holds every frame with
/// its duration in seconds and `metadata.loopCount` the ANIM chunk's loop count (0 = forever).
/// Output is straight-alpha ``PixelFormat/rgba8``.
///
/// ```swift
/// let image = try WebPDecoder().decode(data, options: DecodingOptions())
/// print(image.width, image.height, image.metadata.frames.count)
/// ```
///
/// The pixel-count limit is checked against the header's canvas size before anything is
/// allocated; for animations every frame counts, so `canvas × frames` must stay within it.
public struct WebPDecoder: ImageDecoding {
    public static let format = ImageFormat.webp

    public init() {}

    public func decode(_ data: Data, options: DecodingOptions) throws(ImagePipelineError) -> Image {
        let result: Result<Image, ImagePipelineError> = data.withUnsafeBytes { bytes in
            do throws(ImagePipelineError) {
                let features = try WebPFeatures.readComplete(bytes)
                try options.checkPixelCount(width: features.width, height: features.height)
                if features.hasAnimation {
                    return .success(try WebPAnimationDecoding.decode(bytes, features: features, options: options))
                }
                return .success(try decodeStill(bytes, features: features))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    public func readHeader(_ data: Data) throws(ImagePipelineError) -> ImageHeader {
        let result: Result<ImageHeader, ImagePipelineError> = data.withUnsafeBytes { bytes in
            do throws(ImagePipelineError) {
                let features = try WebPFeatures.readComplete(bytes)
                var frameCount = 1
                if features.hasAnimation {
                    frameCount = try WebPAnimationDecoding.frameCount(bytes)
                }
                return .success(ImageHeader(format: .webp, width: features.width, height: features.height,
                                            hasAlpha: features.hasAlpha, frameCount: frameCount,
                                            isProgressive: !features.hasAnimation))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private func decodeStill(_ bytes: UnsafeRawBufferPointer, features: WebPFeatures) throws(ImagePipelineError) -> Image {
        var image = Image(uninitializedWidth: features.width, height: features.height, pixelFormat: .rgba8,
                          metadata: ImageMetadata(sourceFormat: .webp, hasAlpha: features.hasAlpha))
        let stride = image.bytesPerRow
        let decoded = image.withUnsafeMutableBytes { pixels in
            WebPDecodeRGBAInto(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                               pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), pixels.count,
                               Int32(stride)) != nil
        }
        guard decoded else {
            throw .corruptData(format: .webp, message: "libwebp could not decode the bitstream")
        }
        return image
    }
}
