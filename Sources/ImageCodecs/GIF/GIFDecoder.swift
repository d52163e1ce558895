import CGIF
import Foundation
import ImageCore

/// Decodes GIF (still and animated) with giflib, compositing every frame onto the full canvas.
///
/// - Frames: the returned image is the first frame; with ``DecodingOptions/decodesAllFrames``
///   `metadata.frames` holds every frame of an animation as a full-canvas image (each with its
///   own pixel memory), drawn with the disposal methods browsers use: unspecified and "do not
///   dispose" keep the frame, "background" clears its rectangle to transparent, "previous"
///   restores the canvas from before the frame. Frames reaching past the canvas are clipped;
///   interlaced frames are put back in row order.
/// - Durations: the graphic control extension's delay in centiseconds, in seconds. A delay of
///   0 or 1 cs is read as 0.1 s, as browsers do, because such files were written expecting it.
/// - Loop count: the NETSCAPE2.0 (or ANIMEXTS1.0) extension's value as stored, 0 meaning
///   forever (the number SDWebImage and ImageIO report; browsers play such a file once more
///   than the value). Without the extension the file plays once: `loopCount == 1`.
/// - Alpha: `hasAlpha` is set when a frame declares a transparent colour index or part of the
///   canvas is left uncovered (the first frame smaller than the canvas, or cleared by disposal).
/// - Damaged data: a file that ends (or meets an unknown block) between records after at least
///   one complete frame gives the complete frames, as browsers do; trailing bytes after the
///   trailer are ignored. A frame cut short is a ``ImagePipelineError/corruptData(format:message:)``.
/// - Memory: the canvas is checked against ``DecodingOptions/maxPixelCount`` from the header,
///   and all frames together (`canvas × frames`) must fit it too.
///
/// ```swift
/// let image = try GIFDecoder().decode(data, options: DecodingOptions())
/// for frame in image.metadata.frames { show(frame.image, for: frame.duration) }
/// ```
public struct GIFDecoder: ImageDecoding {
    public static let format = ImageFormat.gif

    public init() {}

    public func decode(_ data: Data, options: DecodingOptions) throws(ImagePipelineError) -> Image {
        let result: Result<Image, ImagePipelineError> = data.withUnsafeBytes { bytes in
            do throws(ImagePipelineError) {
                let reader = try GIFFileReader(bytes)
                try options.checkPixelCount(width: reader.canvasWidth, height: reader.canvasHeight)
                guard reader.canvasWidth > 0, reader.canvasHeight > 0 else {
                    throw .corruptData(format: .gif, message: "the logical screen is empty")
                }
                var animation = GIFAnimationDecoding(reader: reader, options: options)
                return .success(try animation.decode())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Reads the screen size and walks the blocks (without decompressing any pixels) to count
    /// frames and see whether any declares a transparent colour.
    public func readHeader(_ data: Data) throws(ImagePipelineError) -> ImageHeader {
        let result: Result<ImageHeader, ImagePipelineError> = data.withUnsafeBytes { bytes in
            do throws(ImagePipelineError) {
                let reader = try GIFFileReader(bytes)
                guard reader.canvasWidth > 0, reader.canvasHeight > 0 else {
                    throw .corruptData(format: .gif, message: "the logical screen is empty")
                }
                var frameCount = 0
                var hasAlpha = false
                scan: while true {
                    guard let record = reader.nextRecordType() else {
                        if frameCount > 0 && reader.lastErrorIsEndOfStream { break scan }
                        throw reader.lastError
                    }
                    switch record {
                    case IMAGE_DESC_RECORD_TYPE:
                        _ = try reader.readImageDescriptor()
                        try reader.skipImageData()
                        frameCount += 1
                    case EXTENSION_RECORD_TYPE:
                        let (code, blocks) = try reader.readExtension()
                        if code == GRAPHICS_EXT_FUNC_CODE, let control = GIFAnimationDecoding.graphicsControl(blocks),
                           control.TransparentColor != NO_TRANSPARENT_COLOR {
                            hasAlpha = true
                        }
                    case TERMINATE_RECORD_TYPE:
                        break scan
                    default:
                        break
                    }
                }
                guard frameCount > 0 else { throw .corruptData(format: .gif, message: "the file has no image") }
                return .success(ImageHeader(format: .gif, width: reader.canvasWidth, height: reader.canvasHeight,
                                            hasAlpha: hasAlpha, frameCount: frameCount))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
