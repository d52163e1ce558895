import CWebP
import Foundation
import ImageCore

/// Encodes an ``Image`` as WebP with libwebp's advanced API (`WebPConfig` + `WebPPicture`).
///
/// Lossless mode sets `exact`, so the RGB of fully transparent pixels is kept and a decode
/// gives back the very same straight-alpha pixels. Animations are not encoded: only the
/// image's own pixels (the first frame) are written.
///
/// ```swift
/// let small = try WebPEncoder(compression: .lossy(quality: 80)).encode(image)
/// let exact = try WebPEncoder(compression: .lossless).encode(image)
/// ```
public struct WebPEncoder: ImageEncoding {
    public static let format = ImageFormat.webp

    /// How the pixels are compressed.
    public enum Compression: Sendable, Hashable {
        /// VP8 lossy; `quality` from 0 (smallest) to 100 (best).
        case lossy(quality: Float)
        /// VP8L lossless, bit-exact including the colour of transparent pixels.
        case lossless
    }

    /// Lossy or lossless, and the lossy quality.
    public var compression: Compression
    /// Speed against size, 0 (fastest) … 6 (smallest); libwebp's `method`.
    public var method: Int

    /// - Parameters:
    ///   - compression: default `.lossy(quality: 80)`.
    ///   - method: default 4, libwebp's own default.
    public init(compression: Compression = .lossy(quality: 80), method: Int = 4) {
        self.compression = compression
        self.method = method
    }

    public func encode(_ image: Image) throws(ImagePipelineError) -> Data {
        let source = image.converted(to: .rgba8)
        guard source.width <= Int(WEBP_MAX_DIMENSION), source.height <= Int(WEBP_MAX_DIMENSION) else {
            throw .encodingFailed(format: .webp, message: "\(source.width)x\(source.height) exceeds WebP's "
                                  + "maximum of \(WEBP_MAX_DIMENSION) pixels per side")
        }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw .encodingFailed(format: .webp, message: "libwebp version mismatch")
        }
        switch compression {
        case .lossy(let quality):
            config.quality = min(100, max(0, quality))
        case .lossless:
            config.lossless = 1
            config.exact = 1
            config.quality = 75   // for lossless this is effort, not fidelity
        }
        config.method = Int32(min(6, max(0, method)))
        guard WebPValidateConfig(&config) != 0 else {
            throw .encodingFailed(format: .webp, message: "invalid encoder configuration")
        }

        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw .encodingFailed(format: .webp, message: "libwebp version mismatch")
        }
        defer { WebPPictureFree(&picture) }
        picture.use_argb = 1
        picture.width = Int32(source.width)
        picture.height = Int32(source.height)
        let imported = source.withUnsafeBytes { pixels in
            WebPPictureImportRGBA(&picture, pixels.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                  Int32(source.bytesPerRow))
        }
        guard imported != 0 else {
            throw .encodingFailed(format: .webp, message: "libwebp could not import the pixels (out of memory)")
        }

        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let encoded = withUnsafeMutablePointer(to: &writer) { writerPointer in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
            return WebPEncode(&config, &picture)
        }
        guard encoded != 0, let bytes = writer.mem else {
            throw .encodingFailed(format: .webp, message: WebPEncoder.describe(picture.error_code))
        }
        return Data(bytes: bytes, count: writer.size)
    }

    private static func describe(_ code: WebPEncodingError) -> String {
        switch code {
        case VP8_ENC_ERROR_OUT_OF_MEMORY, VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory"
        case VP8_ENC_ERROR_BAD_DIMENSION: return "bad picture dimensions"
        case VP8_ENC_ERROR_PARTITION0_OVERFLOW, VP8_ENC_ERROR_PARTITION_OVERFLOW: return "partition overflow"
        case VP8_ENC_ERROR_FILE_TOO_BIG: return "the file would exceed 4 GiB"
        default: return "libwebp encoding error \(code.rawValue)"
        }
    }
}
