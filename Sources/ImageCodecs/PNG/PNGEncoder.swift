import CImageSupport
import Foundation
import ImageCore

/// Encodes PNG with libpng, 8 bits per sample, not interlaced.
///
/// ``PixelFormat/gray8`` becomes a gray PNG; RGBA becomes an RGBA PNG, or an RGB PNG when
/// every pixel is opaque (a quarter smaller before compression). Premultiplied images are
/// un-premultiplied first.
///
/// ```swift
/// let data = try PNGEncoder(compressionLevel: 9).encode(image)
/// ```
public struct PNGEncoder: ImageEncoding {
    public static let format = ImageFormat.png

    /// zlib level, 0 (store) … 9 (smallest); clamped into that range.
    public var compressionLevel: Int

    public init(compressionLevel: Int = 6) {
        self.compressionLevel = compressionLevel
    }

    public func encode(_ image: Image) throws(ImagePipelineError) -> Data {
        let source = image.pixelFormat == .rgba8Premultiplied ? image.converted(to: .rgba8) : image
        guard source.width <= Int(UInt32.max / 8), source.height <= Int(UInt32.max / 8) else {
            throw .encodingFailed(format: .png, message: "image too large for PNG (\(source.width)x\(source.height))")
        }
        let channels: Int32 = source.pixelFormat == .gray8 ? 1 : (Self.isOpaque(source) ? 3 : 4)
        var output: UnsafeMutablePointer<UInt8>? = nil
        var outputSize = 0
        var message = PNGDecoder.messageBuffer()
        let status = source.withUnsafeBytes { pixels in
            cis_png_encode(pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), source.bytesPerRow,
                           UInt32(source.width), UInt32(source.height), channels,
                           Int32(min(9, max(0, compressionLevel))), &output, &outputSize, &message)
        }
        defer { cis_png_free(output) }
        guard status == Int32(CIS_PNG_OK), let output else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw .encodingFailed(format: .png, message: text)
        }
        return Data(bytes: output, count: outputSize)
    }

    /// Whether every alpha sample of an RGBA image is 255.
    static func isOpaque(_ image: Image) -> Bool {
        image.withUnsafeBytes { pixels in
            for row in 0 ..< image.height {
                let line = (pixels.baseAddress! + row * image.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                var x = 3
                while x < image.width * 4 {
                    if line[x] != 255 { return false }
                    x += 4
                }
            }
            return true
        }
    }
}
