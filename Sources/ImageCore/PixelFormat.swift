/// How the bytes of one pixel are laid out.
///
/// Decoders produce ``rgba8`` with straight alpha (what file formats store) or ``gray8``;
/// processors that blend or resample convert to ``rgba8Premultiplied`` first so transparent
/// pixels do not bleed dark halos into their neighbours, and convert back at the end.
public enum PixelFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// Red, green, blue, alpha; 8 bits each; colour channels not multiplied by alpha.
    case rgba8
    /// Red, green, blue, alpha; 8 bits each; colour channels already multiplied by alpha.
    case rgba8Premultiplied
    /// One 8-bit luminance sample, no alpha.
    case gray8

    /// Bytes one pixel takes.
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8, .rgba8Premultiplied: return 4
        case .gray8: return 1
        }
    }

    /// Whether the layout has an alpha channel at all (not whether any pixel is transparent).
    public var hasAlphaChannel: Bool { self != .gray8 }
}
