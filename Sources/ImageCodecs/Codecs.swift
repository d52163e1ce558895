import Foundation
import ImageCore

/// Picks the decoder, progressive decoder or encoder for a format.
///
/// The format is always sniffed from the bytes (``ImageFormat/sniff(_:)``), never taken from a
/// file name or a Content-Type.
///
/// ```swift
/// let image = try Codecs.decode(data)                        // any supported format
/// let png = try Codecs.encode(image, as: .png)
/// ```
public enum Codecs {
    /// The decoder for the format `data` starts with.
    /// - Throws: ``ImagePipelineError/unsupportedFormat(_:)`` for a recognised format without a
    ///   decoder (BMP, TIFF, HEIC, ...), ``ImagePipelineError/unknownFormat`` otherwise.
    public static func decoder(for data: Data) throws(ImagePipelineError) -> any ImageDecoding {
        guard let format = ImageFormat.sniff(data) else { throw .unknownFormat }
        return try decoder(for: format)
    }

    /// The decoder of a format.
    public static func decoder(for format: ImageFormat) throws(ImagePipelineError) -> any ImageDecoding {
        switch format {
        case .jpeg: return JPEGDecoder()
        case .png: return PNGDecoder()
        case .gif: return GIFDecoder()
        case .webp: return WebPDecoder()
        case .bmp, .tiff, .heic, .avif, .ico, .svg: throw .unsupportedFormat(format)
        }
    }

    /// Decodes data of any supported format.
    public static func decode(_ data: Data, options: DecodingOptions = DecodingOptions()) throws(ImagePipelineError) -> Image {
        try decoder(for: data).decode(data, options: options)
    }

    /// A progressive decoder for data that starts like `head` (at least
    /// ``ImageFormat/sniffLength`` bytes), or `nil` when the format has none (GIF).
    /// A baseline JPEG or a non-interlaced PNG gets one too; it simply offers fewer previews.
    public static func progressiveDecoder(for head: Data, options: DecodingOptions = DecodingOptions()) -> (any ProgressiveImageDecoding)? {
        switch ImageFormat.sniff(head) {
        case .jpeg?: return ProgressiveJPEGDecoder(options: options)
        case .png?: return ProgressivePNGDecoder(options: options)
        case .webp?: return ProgressiveWebPDecoder(options: options)
        default: return nil
        }
    }

    /// Encodes an image as JPEG, PNG or WebP.
    /// - Parameter quality: 1–100 for JPEG and lossy WebP; WebP at 100 is lossless. PNG ignores it.
    public static func encode(_ image: Image, as format: ImageFormat, quality: Int = 85) throws(ImagePipelineError) -> Data {
        switch format {
        case .jpeg: return try JPEGEncoder(quality: quality).encode(image)
        case .png: return try PNGEncoder().encode(image)
        case .webp:
            return try WebPEncoder(compression: quality >= 100 ? .lossless : .lossy(quality: Float(quality))).encode(image)
        default:
            throw .encodingFailed(format: format, message: "no encoder for \(format.rawValue); use jpeg, png or webp")
        }
    }

    /// Encodes a processed image for the disk cache: the source's format where there is an
    /// encoder (JPEG stays JPEG at `quality`, WebP stays WebP), PNG otherwise (GIF, or images
    /// made in memory), so transparency is never lost.
    public static func encodeForCache(_ image: Image, quality: Int) throws(ImagePipelineError) -> Data {
        switch image.metadata.sourceFormat {
        case .jpeg?: return try encode(image, as: .jpeg, quality: quality)
        case .webp?: return try encode(image, as: .webp, quality: image.metadata.hasAlpha ? 100 : quality)
        default: return try encode(image, as: .png)
        }
    }
}

extension ImageFormat {
    /// The usual file extension (without the dot).
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .tiff: return "tif"
        default: return rawValue
        }
    }

    /// The format a file extension names (case-insensitive; `jpg`, `jpeg`, `png`, `webp`, `gif`, ...),
    /// for choosing an *output* format. Input formats are always sniffed from the bytes.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "png": self = .png
        case "gif": self = .gif
        case "webp": self = .webp
        default: return nil
        }
    }
}
