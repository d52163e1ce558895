import CGIF
import CPNG
import Crypto
import Foundation
import ImageCore
import TestSupport

/// Helpers shared by the WebP and GIF codec tests.
enum WebPGIFTestSupport {
    /// Decodes a reference PNG to packed straight RGBA with libpng's simplified API, which
    /// handles libpng's longjmp internally (so it is safe to call from Swift). Independent of
    /// the package's own PNG decoder.
    static func referencePNG(_ relativePath: String) throws -> (width: Int, height: Int, rgba: [UInt8]) {
        let data = try Corpus.data(relativePath)
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        let began = data.withUnsafeBytes { bytes in
            png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count)
        }
        guard began != 0 else { throw ReferenceError.unreadable(relativePath) }
        defer { png_image_free(&image) }
        image.format = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)   // PNG_FORMAT_RGBA
        let width = Int(image.width), height = Int(image.height)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let finished = rgba.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, nil, buffer.baseAddress, Int32(width * 4), nil)
        }
        guard finished != 0 else { throw ReferenceError.unreadable(relativePath) }
        return (width, height, rgba)
    }

    enum ReferenceError: Error { case unreadable(String) }

    /// The MD5 `dwebp -pam` prints for a decode: a PAM header and the packed RGBA rows.
    static func pamMD5(_ image: Image) -> String {
        let header = "P7\nWIDTH \(image.width)\nHEIGHT \(image.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        var hash = Insecure.MD5()
        hash.update(data: Data(header.utf8))
        hash.update(data: image.packedBytes())
        return hash.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// `name.webp.pam` → MD5, from libwebp-test-data's list of dwebp outputs.
    static let libwebpPAMChecksums: [String: String] = {
        guard let text = try? String(contentsOf: Corpus.url("webp/libwebp-test-data/libwebp_tests.md5"),
                                     encoding: .utf8) else { return [:] }
        var checksums: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2, parts[1].hasSuffix(".webp.pam") else { continue }
            checksums[String(parts[1].dropLast(4))] = String(parts[0])
        }
        return checksums
    }()

    /// `nil` when equal, else a short description (the arrays themselves are too long to print).
    static func difference(_ a: [UInt8], _ b: [UInt8]) -> String? {
        guard a != b else { return nil }
        guard a.count == b.count else { return "\(a.count) bytes against \(b.count)" }
        let differing = a.indices.filter { a[$0] != b[$0] }
        let first = differing[0]
        return "\(differing.count) bytes differ; first at \(first) (pixel \(first / 4)): \(a[first]) vs \(b[first])"
    }

    /// The CRC-32 of zlib and PNG (reflected polynomial 0xEDB88320).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0 ..< 8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// image-gif's `results.txt`: file name → CRC-32 of its frames' RGBA buffers, one after another.
    static let imageGIFChecksums: [String: UInt32] = {
        guard let text = try? String(contentsOf: Corpus.url("gif/image-gif/results.txt"), encoding: .utf8) else { return [:] }
        var checksums: [String: UInt32] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":")
            guard parts.count == 2, let crc = UInt32(parts[1].trimmingCharacters(in: .whitespaces)) else { continue }
            checksums[String(parts[0].split(separator: "/").last!)] = crc
        }
        return checksums
    }()

    /// Peak signal-to-noise ratio of the RGB channels, in dB (infinity when equal).
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count)
        var squaredError = 0.0, samples = 0
        for index in a.indices where index % 4 != 3 {
            let difference = Double(a[index]) - Double(b[index])
            squaredError += difference * difference
            samples += 1
        }
        guard squaredError > 0 else { return .infinity }
        return 10 * log10(255 * 255 / (squaredError / Double(samples)))
    }


    /// Damaged variants of `data`: cut at many offsets (every byte of the first 64, then about
    /// 48 spread over the rest), and `flips` copies with 1–8 random bytes replaced.
    static func damagedVariants(of data: Data, seed: UInt64, flips: Int = 24) -> [Data] {
        var variants: [Data] = []
        var offsets = Set(0 ..< min(64, data.count))
        let step = max(1, data.count / 48)
        offsets.formUnion(stride(from: 64, to: data.count, by: step))
        for offset in offsets.sorted() { variants.append(data.prefix(offset)) }
        var generator = SeededGenerator(seed: seed)
        for _ in 0 ..< flips where !data.isEmpty {
            var copy = [UInt8](data)
            for _ in 0 ..< Int.random(in: 1 ... 8, using: &generator) {
                // Leave the 12-byte signature alone so the damage reaches the codec, not the sniffer.
                let index = data.count > 12 ? Int.random(in: 12 ..< data.count, using: &generator)
                                            : Int.random(in: 0 ..< data.count, using: &generator)
                copy[index] = UInt8.random(in: 0 ... 255, using: &generator)
            }
            variants.append(Data(copy))
        }
        return variants
    }

    /// An image with smooth gradients and some texture, a stand-in for a photo.
    static func syntheticPhoto(width: Int, height: Int, alpha: Bool) -> Image {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let index = (y * width + x) * 4
                pixels[index] = UInt8((x * 255) / max(1, width - 1))
                pixels[index + 1] = UInt8((y * 255) / max(1, height - 1))
                pixels[index + 2] = UInt8(truncatingIfNeeded: (x ^ y) & 0x3F + 96)
                pixels[index + 3] = alpha ? UInt8(truncatingIfNeeded: (x + y) % 256) : 255
            }
        }
        return Image(width: width, height: height, pixelFormat: .rgba8, packed: pixels)
    }
}
