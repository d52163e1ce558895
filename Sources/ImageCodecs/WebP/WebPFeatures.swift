import CWebP
import Foundation
import ImageCore

/// What the RIFF/VP8X header of a WebP file says, read with `WebPGetFeatures` (no pixels decoded).
struct WebPFeatures {
    /// Canvas size: the VP8X canvas for extended files, else the bitstream's own size.
    let width: Int
    let height: Int
    let hasAlpha: Bool
    let hasAnimation: Bool
    /// `true` for VP8L (lossless), `false` for VP8 (lossy); mixed for animations (first frame).
    let isLossless: Bool

    /// Reads the features of complete or partial data.
    /// - Returns: `nil` when more data is needed to see the header.
    static func read(_ bytes: UnsafeRawBufferPointer) throws(ImagePipelineError) -> WebPFeatures? {
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &features)
        switch status {
        case VP8_STATUS_OK:
            return WebPFeatures(width: Int(features.width), height: Int(features.height),
                                hasAlpha: features.has_alpha != 0, hasAnimation: features.has_animation != 0,
                                isLossless: features.format == 2)
        case VP8_STATUS_NOT_ENOUGH_DATA:
            return nil
        default:
            throw .corruptData(format: .webp, message: WebPFeatures.describe(status))
        }
    }

    /// Reads the features of complete data; truncation before the header is corruption.
    static func readComplete(_ bytes: UnsafeRawBufferPointer) throws(ImagePipelineError) -> WebPFeatures {
        guard let features = try read(bytes) else {
            throw .corruptData(format: .webp, message: "the data ends inside the header")
        }
        guard features.width > 0, features.height > 0 else {
            throw .corruptData(format: .webp, message: "the header declares an empty image")
        }
        return features
    }

    /// libwebp's status codes in words.
    static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: return "libwebp ran out of memory"
        case VP8_STATUS_INVALID_PARAM: return "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature"
        case VP8_STATUS_SUSPENDED: return "decoding suspended"
        case VP8_STATUS_USER_ABORT: return "decoding aborted"
        case VP8_STATUS_NOT_ENOUGH_DATA: return "the data is truncated"
        default: return "libwebp status \(status.rawValue)"
        }
    }
}
