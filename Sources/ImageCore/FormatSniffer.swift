extension ImageFormat {
    /// The number of leading bytes ``sniff(_:)`` needs to tell every format apart.
    public static let sniffLength = 32

    /// Recognises a format from the first bytes of the data, never from a file name or a
    /// Content-Type, which are routinely wrong. Returns `nil` when nothing matches (or when
    /// too few bytes have arrived yet to tell).
    ///
    /// ```swift
    /// if ImageFormat.sniff(data) == .webp { ... }
    /// ```
    public static func sniff<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> ImageFormat? {
        let head = Array(bytes.prefix(sniffLength))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            guard head.count >= offset + signature.count else { return false }
            return head[offset ..< offset + signature.count].elementsEqual(signature)
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("BM".utf8)) && head.count >= 14 { return .bmp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        // ICO: reserved 0, type 1, then a non-zero image count.
        if starts([0x00, 0x00, 0x01, 0x00]) && head.count >= 6 && (head[4] != 0 || head[5] != 0) { return .ico }
        if starts(Array("ftyp".utf8), at: 4), head.count >= 12 {
            let brand = String(decoding: head[8 ..< 12], as: UTF8.self)
            switch brand {
            case "avif", "avis": return .avif
            case "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1": return .heic
            default: break
            }
        }
        if looksLikeSVG(bytes) { return .svg }
        return nil
    }

    /// SVG is text: skip a byte-order mark and white space, then look for `<svg` or an XML
    /// prolog followed (within the first kilobyte) by an `<svg` element.
    private static func looksLikeSVG<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var text = Substring(String(decoding: bytes.prefix(1024), as: UTF8.self))
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        text = text.drop(while: { $0.isWhitespace })
        if text.hasPrefix("<svg") { return true }
        return (text.hasPrefix("<?xml") || text.hasPrefix("<!DOCTYPE svg")) && text.contains("<svg")
    }
}
