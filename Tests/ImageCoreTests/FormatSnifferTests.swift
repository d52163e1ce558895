import Testing
import ImageCore

@Suite("Format sniffing")
struct FormatSnifferTests {
    static let cases: [([UInt8], ImageFormat?)] = [
        ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], .jpeg),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], .png),
        (Array("GIF89a".utf8) + [1, 0], .gif),
        (Array("GIF87a".utf8) + [1, 0], .gif),
        (Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8), .webp),
        (Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVEfmt ".utf8), nil),
        (Array("BM".utf8) + [UInt8](repeating: 0, count: 20), .bmp),
        ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], .tiff),
        ([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], .tiff),
        ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0], .heic),
        ([0, 0, 0, 0x18] + Array("ftypmif1".utf8) + [0, 0, 0, 0], .heic),
        ([0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0], .avif),
        ([0, 0, 1, 0, 1, 0, 16, 16], .ico),
        (Array("\u{FEFF}  <svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), .svg),
        (Array("<?xml version=\"1.0\"?>\n<svg></svg>".utf8), .svg),
        (Array("<?xml version=\"1.0\"?>\n<html></html>".utf8), nil),
        (Array("<html><body>404</body></html>".utf8), nil),
        ([0xFF, 0xD8], nil),
        ([], nil),
    ]

    @Test("recognises formats from their first bytes", arguments: cases)
    func sniff(bytes: [UInt8], expected: ImageFormat?) {
        #expect(ImageFormat.sniff(bytes) == expected)
    }

    @Test("only JPEG, PNG, GIF and WebP are decodable")
    func decodable() {
        #expect(ImageFormat.allCases.filter(\.isDecodable) == [.jpeg, .png, .gif, .webp])
    }
}
