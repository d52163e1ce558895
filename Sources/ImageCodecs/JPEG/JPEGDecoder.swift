import CImageSupport
import CTurboJPEG
import Foundation
import ImageCore

/// Decodes JPEG with libjpeg-turbo (TurboJPEG API): baseline, progressive, grayscale
/// (→ ``PixelFormat/gray8``), CMYK and YCCK (→ ``PixelFormat/rgba8``), every chroma subsampling.
///
/// Pixels are written straight into the ``Image``'s aligned buffer. The EXIF orientation is
/// read into the metadata, not applied. When ``DecodingOptions/minimumSize`` is set, the
/// decoder uses libjpeg's DCT scaling (1/8 … 7/8) to decode at the smallest size that still
/// covers it: much faster for thumbnails. Like every size in the codecs, the minimum is in stored
/// orientation (callers that think in displayed size swap it for orientations 5–8). Truncated or damaged data throws
/// ``ImagePipelineError/corruptData(format:message:)``, never a partly grey image.
///
/// ```swift
/// let thumbnailSource = try JPEGDecoder().decode(data, options: DecodingOptions(minimumSize: PixelSize(width: 256, height: 256)))
/// ```
public struct JPEGDecoder: ImageDecoding {
    public static let format = ImageFormat.jpeg

    public init() {}

    public func readHeader(_ data: Data) throws(ImagePipelineError) -> ImageHeader {
        try Self.withBytes(data) { bytes throws(ImagePipelineError) in
            let handle = try Self.decompressor()
            let header = try Self.readFrameHeader(bytes, handle: handle)
            let markers = JPEGMarkerScanner.summary(of: bytes)
            return ImageHeader(format: .jpeg, width: header.width, height: header.height,
                               orientation: markers.orientation, hasAlpha: false, frameCount: 1,
                               isProgressive: markers.isProgressive)
        }
    }

    public func decode(_ data: Data, options: DecodingOptions) throws(ImagePipelineError) -> Image {
        try Self.withBytes(data) { bytes throws(ImagePipelineError) in
            try Self.decode(bytes, options: options)
        }
    }

    // MARK: - Implementation

    struct FrameHeader {
        var width: Int
        var height: Int
        var colorspace: Int32
    }

    /// Calls `body` with the bytes of `data`, refusing data too short to be a JPEG.
    static func withBytes<R>(_ data: Data, _ body: (UnsafeRawBufferPointer) throws(ImagePipelineError) -> R)
        throws(ImagePipelineError) -> R {
        guard data.count >= 4 else { throw .corruptData(format: .jpeg, message: "only \(data.count) bytes") }
        let result: Result<R, ImagePipelineError> = data.withUnsafeBytes { bytes in
            Result { () throws(ImagePipelineError) -> R in try body(bytes) }
        }
        return try result.get()
    }

    static func decompressor() throws(ImagePipelineError) -> tjhandle {
        guard let handle = cis_jpeg_thread_decompressor() else {
            throw .corruptData(format: .jpeg, message: "could not create a TurboJPEG decompressor (out of memory)")
        }
        return handle
    }

    static func readFrameHeader(_ bytes: UnsafeRawBufferPointer, handle: tjhandle) throws(ImagePipelineError) -> FrameHeader {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = tjDecompressHeader3(handle, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                         UInt(bytes.count), &width, &height, &subsampling, &colorspace)
        guard status == 0, width > 0, height > 0 else {
            let message = errorMessage(handle)
            cis_jpeg_thread_discard_decompressor()
            throw .corruptData(format: .jpeg, message: message)
        }
        return FrameHeader(width: Int(width), height: Int(height), colorspace: colorspace)
    }

    /// `skipsUnusedScans: false` always decodes every scan (tests compare both ways).
    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodingOptions,
                       skipsUnusedScans: Bool = true) throws(ImagePipelineError) -> Image {
        var handle = try decompressor()
        let header = try readFrameHeader(bytes, handle: handle)
        try options.checkPixelCount(width: header.width, height: header.height)
        let markers = JPEGMarkerScanner.summary(of: bytes)

        var target = PixelSize(width: header.width, height: header.height)
        if let minimum = options.minimumSize {
            target = JPEGScaling.scaledSize(width: header.width, height: header.height, covering: minimum)
        }

        let isGray = header.colorspace == Int32(TJCS_GRAY.rawValue)
        let isCMYK = header.colorspace == Int32(TJCS_CMYK.rawValue) || header.colorspace == Int32(TJCS_YCCK.rawValue)
        let turboFormat = isGray ? TJPF_GRAY : (isCMYK ? TJPF_CMYK : TJPF_RGBA)
        var image = Image(uninitializedWidth: target.width, height: target.height,
                          pixelFormat: isGray ? .gray8 : .rgba8,
                          metadata: ImageMetadata(sourceFormat: .jpeg, orientation: markers.orientation, hasAlpha: false))
        let pitch = image.bytesPerRow
        // Default accurate IDCT and fancy upsampling (what tjbench measures too). LIMITSCANS refuses
        // progressive files with an absurd number of scans, a cheap way to burn a decoder's CPU.
        func decompress(_ handle: tjhandle, _ source: UnsafeRawBufferPointer) -> Int32 {
            image.withUnsafeMutableBytes { destination in
                tjDecompress2(handle, source.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(source.count),
                              destination.baseAddress!.assumingMemoryBound(to: UInt8.self),
                              Int32(target.width), Int32(pitch), Int32(target.height),
                              Int32(turboFormat.rawValue), TJFLAG_LIMITSCANS)
            }
        }
        var status: Int32 = -1
        // Progressive at 1/8: skip the AC scans that cannot change the result (see JPEGEighthScaleScans).
        if skipsUnusedScans, markers.isProgressive, JPEGScaling.isOneEighth(target, width: header.width, height: header.height),
           let pruned = JPEGEighthScaleScans.prunedStream(of: bytes) {
            status = pruned.withUnsafeBytes { decompress(handle, $0) }
            if status != 0 {
                // Let the whole file decide: it decodes, or its own error is reported.
                cis_jpeg_thread_discard_decompressor()
                handle = try decompressor()
            }
        }
        if status != 0 { status = decompress(handle, bytes) }
        if status != 0 {
            let message = errorMessage(handle)
            let isWarning = tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
            // After an error TurboJPEG 2.1 leaves libjpeg mid-file and the handle's next call fails
            // (measured). After warnings we have not seen that, but they are rare and a fresh handle
            // is cheap, so every non-clean decode starts the next one on a new handle.
            cis_jpeg_thread_discard_decompressor()
            if !(isWarning && JPEGWarnings.isHarmless(message)) {
                throw .corruptData(format: .jpeg, message: message)
            }
        }
        if isCMYK {
            image.withUnsafeMutableBytes { pixels in
                CMYKConversion.convertToRGBA(pixels, width: target.width, height: target.height, bytesPerRow: pitch,
                                             inverted: markers.hasAdobeMarker)
            }
        }
        return image
    }

    static func errorMessage(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown TurboJPEG error" }
        return String(cString: text)
    }
}
