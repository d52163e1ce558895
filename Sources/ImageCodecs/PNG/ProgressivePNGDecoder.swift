import CImageSupport
import Foundation
import ImageCore

/// Previews of an interlaced (Adam7) PNG while it downloads: one per completed pass.
///
/// Bytes go to libpng's push reader as they arrive. ``append(_:)`` returns `true` each time
/// an Adam7 pass has completed (up to 7, the last being the whole image). ``makePreview()``
/// returns a full-size image in the same pixel format as ``PNGDecoder`` gives: each pixel not
/// decoded yet repeats the decoded pixel at the top-left corner of its Adam7 block, so the first
/// pass looks like 8×8 blocks, and every further pass halves the blocks in one direction.
///
/// A non-interlaced PNG gives no previews (its rows arrive top to bottom, and a half-blank
/// image is not a useful preview): ``append(_:)`` returns `false` until the whole image has
/// been read, then `true` once, and ``makePreview()`` then returns the complete image.
public final class ProgressivePNGDecoder: ProgressiveImageDecoding {
    private let options: DecodingOptions
    private let reader: OpaquePointer?
    private var head: [UInt8] = []          // the first 24 bytes, for the IHDR size in errors
    private var failure: ImagePipelineError?
    private var reportedPasses = 0

    /// - Parameter options: the pixel limit is checked from the header before anything is allocated.
    public init(options: DecodingOptions = DecodingOptions()) {
        self.options = options
        reader = cis_png_progressive_create(UInt64(options.maxPixelCount))
        if reader == nil { failure = .corruptData(format: .png, message: "could not create a libpng reader (out of memory)") }
    }

    deinit { cis_png_progressive_destroy(reader) }

    public func append(_ chunk: Data) -> Bool {
        guard failure == nil, let reader, !chunk.isEmpty else { return false }
        if head.count < 24 {
            head.append(contentsOf: chunk.prefix(24 - head.count))
            // libpng's push reader reports the header only at the first IDAT: check the size first.
            if let size = PNGDecoder.headerSize(head) {
                do { try options.checkPixelCount(width: size.width, height: size.height) } catch {
                    failure = error
                    return false
                }
            }
        }
        var message = PNGDecoder.messageBuffer()
        let status = chunk.withUnsafeBytes { bytes in
            cis_png_progressive_feed(reader, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, &message)
        }
        if let error = PNGDecoder.error(for: status, message: message, size: PNGDecoder.headerSize(head),
                                        maxPixelCount: options.maxPixelCount) {
            failure = error
            return false
        }
        let passes = Int(cis_png_progressive_completed_passes(reader))
        guard passes > reportedPasses else { return false }
        reportedPasses = passes
        return true
    }

    public func makePreview() throws(ImagePipelineError) -> Image? {
        if let failure { throw failure }
        guard let reader, reportedPasses > 0 else { return nil }
        var info = cis_png_info()
        guard cis_png_progressive_info(reader, &info) != 0 else { return nil }
        var image = Image(uninitializedWidth: Int(info.width), height: Int(info.height),
                          pixelFormat: PNGDecoder.pixelFormat(info),
                          metadata: ImageMetadata(sourceFormat: .png, hasAlpha: info.has_alpha != 0))
        let stride = image.bytesPerRow
        let passes = Int32(reportedPasses)
        image.withUnsafeMutableBytes { pixels in
            cis_png_progressive_render(reader, passes, pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), stride)
        }
        return image
    }
}
