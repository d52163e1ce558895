import Foundation
import ImageCore

/// Limits and hints for one decode.
public struct DecodingOptions: Sendable, Hashable {
    /// Largest width × height a decoder accepts. Checked from the header, before any pixel
    /// buffer is allocated, so a hostile header cannot exhaust memory. Default: 100 megapixels.
    public var maxPixelCount: Int
    /// When set, a decoder that can decode at reduced size (JPEG DCT scaling: 1/2 … 1/8) picks
    /// the smallest scale whose result still covers this size on both sides (shrink on load).
    /// `nil` decodes at full size. The result's real size is in the returned image. Sizes are in
    /// stored orientation (EXIF orientation not applied), like the decoded pixels.
    public var minimumSize: PixelSize?
    /// Whether animated formats decode every frame (`false`: the first frame only).
    public var decodesAllFrames: Bool

    /// The default pixel-count limit, 100 megapixels.
    public static let defaultMaxPixelCount = 100_000_000

    public init(maxPixelCount: Int = DecodingOptions.defaultMaxPixelCount, minimumSize: PixelSize? = nil,
                decodesAllFrames: Bool = true) {
        self.maxPixelCount = maxPixelCount
        self.minimumSize = minimumSize
        self.decodesAllFrames = decodesAllFrames
    }

    /// Throws ``ImagePipelineError/imageTooLarge(width:height:maxPixelCount:)`` when a header's
    /// dimensions exceed the limit. Decoders call it before allocating pixels.
    public func checkPixelCount(width: Int, height: Int) throws(ImagePipelineError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixelCount {
            throw .imageTooLarge(width: width, height: height, maxPixelCount: maxPixelCount)
        }
    }
}

/// Decodes complete encoded data of one format into an ``Image``.
///
/// Implementations are stateless values, safe to call from any thread. They return straight
/// alpha ``PixelFormat/rgba8`` or ``PixelFormat/gray8``, never apply EXIF orientation (it is
/// recorded in the metadata), and throw only ``ImagePipelineError``: never a partial image.
public protocol ImageDecoding: Sendable {
    /// The format this decoder reads.
    static var format: ImageFormat { get }
    /// Decodes `data`, which must start with this decoder's format signature.
    func decode(_ data: Data, options: DecodingOptions) throws(ImagePipelineError) -> Image
    /// Reads only the header: dimensions as stored, frame count when cheap, orientation, alpha.
    func readHeader(_ data: Data) throws(ImagePipelineError) -> ImageHeader
}

/// What a header tells without decoding pixels.
public struct ImageHeader: Sendable, Hashable {
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    public var orientation: ExifOrientation
    public var hasAlpha: Bool
    /// Number of frames, when the header tells it (1 for still formats).
    public var frameCount: Int?
    /// Whether a progressive decoder can produce previews from partial data
    /// (progressive JPEG, interlaced PNG, WebP).
    public var isProgressive: Bool

    public init(format: ImageFormat, width: Int, height: Int, orientation: ExifOrientation = .up,
                hasAlpha: Bool, frameCount: Int? = 1, isProgressive: Bool = false) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
        self.hasAlpha = hasAlpha
        self.frameCount = frameCount
        self.isProgressive = isProgressive
    }
}

/// Encodes an ``Image`` into one format.
public protocol ImageEncoding: Sendable {
    /// The format this encoder writes.
    static var format: ImageFormat { get }
    /// Encodes the image (any ``PixelFormat``; premultiplied input is un-premultiplied first).
    func encode(_ image: Image) throws(ImagePipelineError) -> Data
}

/// Turns a growing prefix of one encoded image into preview images.
///
/// Feed it every chunk as it arrives with ``append(_:)``; it answers cheaply whether a
/// better preview than the last one has become possible (a new complete progressive-JPEG
/// scan, a finished Adam7 pass, more WebP rows). Only then call ``makePreview()``, which
/// does the expensive work. The final image comes from the ordinary ``ImageDecoding``
/// decoder once all bytes are in. A progressive decoder is used by one task at a time.
public protocol ProgressiveImageDecoding: AnyObject {
    /// Adds the next bytes. Returns `true` when a new preview can be made.
    func append(_ chunk: Data) -> Bool
    /// Decodes the best preview the bytes so far allow, or `nil` when none is possible.
    /// Throws when the data is already known to be corrupt.
    func makePreview() throws(ImagePipelineError) -> Image?
}
