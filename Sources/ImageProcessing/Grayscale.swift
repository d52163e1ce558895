import ImageCore

/// Replaces colour by its BT.601 luma (0.299 R + 0.587 G + 0.114 B), keeping alpha.
///
/// RGBA input stays RGBA (R = G = B = luma), so transparency survives and later processors
/// such as ``Circle`` work as before; `gray8` input is returned unchanged. In premultiplied
/// input the luma of the premultiplied channels is exactly the premultiplied luma.
///
/// Identifier: `grayscale()`.
public struct Grayscale: ImageProcessor {
    public init() {}

    public var identifier: String { "grayscale()" }

    public func process(_ image: Image) throws -> Image {
        image.mappingEveryFrame { frame in
            guard frame.pixelFormat != .gray8 else { return frame }
            var result = frame
            let (width, stride) = (frame.width, frame.bytesPerRow)
            result.withUnsafeMutableBytes { bytes in
                for row in 0 ..< frame.height {
                    let pixels = (bytes.baseAddress! + row * stride).assumingMemoryBound(to: UInt8.self)
                    for x in 0 ..< width {
                        let p = x * 4
                        // 16-bit fixed-point weights, as ImageCore's RGBA → gray conversion uses.
                        let luma = (19595 * UInt32(pixels[p]) + 38470 * UInt32(pixels[p + 1])
                                    + 7471 * UInt32(pixels[p + 2]) + 32768) >> 16
                        let value = UInt8(truncatingIfNeeded: luma)
                        pixels[p] = value; pixels[p + 1] = value; pixels[p + 2] = value
                    }
                }
            }
            return result
        }
    }
}
