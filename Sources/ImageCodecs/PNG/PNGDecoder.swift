import CImageSupport
import Foundation
import ImageCore

/// Decodes PNG with libpng: every colour type and bit depth, palettes, tRNS, Adam7 interlacing.
///
/// Output: gray images without a tRNS chunk become ``PixelFormat/gray8``; everything else
/// becomes ``PixelFormat/rgba8`` with straight alpha (palettes expanded, tRNS applied as
/// alpha). 16-bit samples are scaled with `round(v × 255 / 65535)`. Gamma, chromaticity,
/// sRGB, ICC and sBIT chunks are ignored: the stored sample values are returned. CRC errors,
/// truncation and every libpng error throw ``ImagePipelineError/corruptData(format:message:)``.
///
/// ```swift
/// let image = try PNGDecoder().decode(data, options: DecodingOptions())
/// ```
public struct PNGDecoder: ImageDecoding {
    public static let format = ImageFormat.png

    public init() {}

    public func readHeader(_ data: Data) throws(ImagePipelineError) -> ImageHeader {
        let info = try PNGDecoder.withBytes(data) { bytes throws(ImagePipelineError) in
            try PNGDecoder.readInfo(bytes, maxPixelCount: Int.max)
        }
        return ImageHeader(format: .png, width: Int(info.width), height: Int(info.height), hasAlpha: info.has_alpha != 0,
                           frameCount: 1, isProgressive: info.interlaced != 0)
    }

    public func decode(_ data: Data, options: DecodingOptions) throws(ImagePipelineError) -> Image {
        try PNGDecoder.withBytes(data) { bytes throws(ImagePipelineError) in
            var info = try PNGDecoder.readInfo(bytes, maxPixelCount: options.maxPixelCount)
            try options.checkPixelCount(width: Int(info.width), height: Int(info.height))
            var image = Image(uninitializedWidth: Int(info.width), height: Int(info.height),
                              pixelFormat: PNGDecoder.pixelFormat(info),
                              metadata: ImageMetadata(sourceFormat: .png, hasAlpha: info.has_alpha != 0))
            let stride = image.bytesPerRow
            var message = PNGDecoder.messageBuffer()
            let status = image.withUnsafeMutableBytes { pixels in
                cis_png_decode(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count,
                               UInt64(options.maxPixelCount), &info,
                               pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), stride, &message)
            }
            try PNGDecoder.check(status, message: message, bytes: bytes, maxPixelCount: options.maxPixelCount)
            return image
        }
    }

    // MARK: - Shared with the progressive decoder

    static func pixelFormat(_ info: cis_png_info) -> PixelFormat {
        info.output_channels == Int32(CIS_PNG_OUTPUT_GRAY) ? .gray8 : .rgba8
    }

    static func messageBuffer() -> [CChar] { [CChar](repeating: 0, count: Int(CIS_ERROR_MESSAGE_CAPACITY)) }

    static func readInfo(_ bytes: UnsafeRawBufferPointer, maxPixelCount: Int) throws(ImagePipelineError) -> cis_png_info {
        var info = cis_png_info()
        var message = messageBuffer()
        let status = cis_png_read_info(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count,
                                       UInt64(maxPixelCount), &info, &message)
        try check(status, message: message, bytes: bytes, maxPixelCount: maxPixelCount)
        return info
    }

    /// Maps a cis_png status to the error type.
    static func check(_ status: Int32, message: [CChar], bytes: UnsafeRawBufferPointer,
                      maxPixelCount: Int) throws(ImagePipelineError) {
        if let error = error(for: status, message: message, size: headerSize(bytes), maxPixelCount: maxPixelCount) {
            throw error
        }
    }

    /// The error for a cis_png status, `nil` for success. `size` is the IHDR size, when known.
    static func error(for status: Int32, message: [CChar], size: PixelSize?, maxPixelCount: Int) -> ImagePipelineError? {
        switch Int(status) {
        case Int(CIS_PNG_OK):
            return nil
        case Int(CIS_PNG_ERROR_TOO_LARGE):
            let size = size ?? PixelSize(width: 0, height: 0)
            return .imageTooLarge(width: size.width, height: size.height, maxPixelCount: maxPixelCount)
        default:
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return .corruptData(format: .png, message: text.isEmpty ? "libpng error \(status)" : text)
        }
    }

    /// Width and height straight from the IHDR chunk (it always comes first, at a fixed offset).
    static func headerSize<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> PixelSize? where Bytes.Index == Int {
        guard bytes.count >= 24 else { return nil }
        let base = bytes.startIndex
        func read32(_ offset: Int) -> Int {
            (base + offset ..< base + offset + 4).reduce(0) { $0 << 8 | Int(bytes[$1]) }
        }
        return PixelSize(width: read32(16), height: read32(20))
    }

    static func withBytes<R>(_ data: Data, _ body: (UnsafeRawBufferPointer) throws(ImagePipelineError) -> R)
        throws(ImagePipelineError) -> R {
        guard data.count >= 8 else { throw .corruptData(format: .png, message: "only \(data.count) bytes") }
        let result: Result<R, ImagePipelineError> = data.withUnsafeBytes { bytes in
            Result { () throws(ImagePipelineError) -> R in try body(bytes) }
        }
        return try result.get()
    }
}
