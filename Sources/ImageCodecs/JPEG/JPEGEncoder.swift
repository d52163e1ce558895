import CImageSupport
import CTurboJPEG
import Foundation
import ImageCore

/// Encodes JPEG with libjpeg-turbo.
///
/// ``PixelFormat/gray8`` images become grayscale JPEGs; RGBA images become YCbCr JPEGs and
/// their alpha channel is dropped (JPEG has none): the colour samples are written as they are,
/// not composited over a background, so a transparent pixel shows its stored colour.
/// Premultiplied images are un-premultiplied first.
///
/// ```swift
/// let data = try JPEGEncoder(quality: 90, chromaSubsampling: .yuv444).encode(image)
/// ```
public struct JPEGEncoder: ImageEncoding {
    public static let format = ImageFormat.jpeg

    /// How much the colour (chroma) planes are subsampled; ignored for gray images.
    public enum ChromaSubsampling: Sendable, Hashable, CaseIterable {
        /// 4:4:4, no subsampling: best for text and sharp colour edges.
        case yuv444
        /// 4:2:2, half horizontal chroma resolution.
        case yuv422
        /// 4:2:0, half in both directions: the usual choice for photos.
        case yuv420
        /// 4:4:0, half vertical chroma resolution.
        case yuv440

        var turboValue: Int32 {
            switch self {
            case .yuv444: return Int32(TJSAMP_444.rawValue)
            case .yuv422: return Int32(TJSAMP_422.rawValue)
            case .yuv420: return Int32(TJSAMP_420.rawValue)
            case .yuv440: return Int32(TJSAMP_440.rawValue)
            }
        }
    }

    /// 1 (smallest) … 100 (best); clamped into that range.
    public var quality: Int
    /// Chroma subsampling for colour images.
    public var chromaSubsampling: ChromaSubsampling
    /// Writes a progressive JPEG (several scans of increasing detail) instead of a baseline one.
    public var isProgressive: Bool

    public init(quality: Int = 85, chromaSubsampling: ChromaSubsampling = .yuv420, progressive: Bool = false) {
        self.quality = quality
        self.chromaSubsampling = chromaSubsampling
        self.isProgressive = progressive
    }

    public func encode(_ image: Image) throws(ImagePipelineError) -> Data {
        let source = image.pixelFormat == .rgba8Premultiplied ? image.converted(to: .rgba8) : image
        guard source.width <= Int(Int32.max), source.height <= Int(Int32.max) else {
            throw .encodingFailed(format: .jpeg, message: "image too large for JPEG (\(source.width)x\(source.height))")
        }
        // A fresh compressor each time: TurboJPEG 2.1.5 handles go bad after a progressive encode.
        guard let handle = tjInitCompress() else {
            throw .encodingFailed(format: .jpeg, message: "could not create a TurboJPEG compressor (out of memory)")
        }
        let isGray = source.pixelFormat == .gray8
        var output: UnsafeMutablePointer<UInt8>? = nil
        var outputSize: UInt = 0
        let status = source.withUnsafeBytes { pixels in
            tjCompress2(handle, pixels.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        Int32(source.width), Int32(source.bytesPerRow), Int32(source.height),
                        Int32((isGray ? TJPF_GRAY : TJPF_RGBA).rawValue), &output, &outputSize,
                        isGray ? Int32(TJSAMP_GRAY.rawValue) : chromaSubsampling.turboValue,
                        Int32(min(100, max(1, quality))), isProgressive ? TJFLAG_PROGRESSIVE : 0)
        }
        defer {
            if let output { tjFree(output) }
            tjDestroy(handle)
        }
        guard status == 0, let output else {
            let message = JPEGDecoder.errorMessage(handle)
            throw .encodingFailed(format: .jpeg, message: message)
        }
        return Data(bytes: output, count: Int(outputSize))
    }
}
