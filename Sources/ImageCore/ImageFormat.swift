/// An encoded image format, as recognised from the data's first bytes.
///
/// ImagePipeline decodes ``jpeg``, ``png``, ``gif`` and ``webp``. The other cases are
/// recognised only so that an error can name them (``ImagePipelineError/unsupportedFormat(_:)``).
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case jpeg, png, gif, webp
    case bmp, tiff, heic, avif, ico, svg

    /// Whether this package has a decoder for the format.
    public var isDecodable: Bool {
        switch self {
        case .jpeg, .png, .gif, .webp: return true
        default: return false
        }
    }

    /// The conventional MIME type, for Content-Type and disk metadata.
    public var mimeType: String {
        switch self {
        case .jpeg: return "image/jpeg"
        case .png: return "image/png"
        case .gif: return "image/gif"
        case .webp: return "image/webp"
        case .bmp: return "image/bmp"
        case .tiff: return "image/tiff"
        case .heic: return "image/heic"
        case .avif: return "image/avif"
        case .ico: return "image/vnd.microsoft.icon"
        case .svg: return "image/svg+xml"
        }
    }
}
