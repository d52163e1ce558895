import ImageCore

/// Builders and pixel access for synthetic test images.
extension Image {
    /// An image whose pixel at (x, y) is `color(x, y)` (4 bytes for RGBA, 1 for gray).
    static func make(width: Int, height: Int, format: PixelFormat = .rgba8,
                     _ color: (Int, Int) -> [UInt8]) -> Image {
        var packed: [UInt8] = []
        packed.reserveCapacity(width * height * format.bytesPerPixel)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let value = color(x, y)
                precondition(value.count == format.bytesPerPixel)
                packed += value
            }
        }
        return Image(width: width, height: height, pixelFormat: format, packed: packed)
    }

    /// A solid image.
    static func solid(width: Int, height: Int, format: PixelFormat = .rgba8, _ value: [UInt8]) -> Image {
        make(width: width, height: height, format: format) { _, _ in value }
    }

    /// The bytes of the pixel at (x, y).
    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        let size = pixelFormat.bytesPerPixel
        return withUnsafeBytes { bytes in Array(bytes[(y * bytesPerRow + x * size) ..< (y * bytesPerRow + (x + 1) * size)]) }
    }

    /// One channel of every pixel, row by row.
    func channel(_ index: Int) -> [UInt8] {
        let size = pixelFormat.bytesPerPixel
        let packed = packedBytes()
        return stride(from: index, to: packed.count, by: size).map { packed[$0] }
    }

    var dimensions: (Int, Int) { (width, height) }
}

/// Peak signal-to-noise ratio over the RGB channels of two equally sized RGBA byte arrays.
func psnrRGB(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count)
    var squared = 0.0
    var samples = 0
    for i in a.indices where i % 4 != 3 {
        let d = Double(a[i]) - Double(b[i])
        squared += d * d
        samples += 1
    }
    let mse = squared / Double(samples)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
