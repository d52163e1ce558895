#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ImageCore

/// Rounds the four corners with quarter circles of `radius` pixels, anti-aliased.
///
/// Pixels outside the arcs become transparent; pixels the arc crosses keep the fraction of
/// alpha the arc covers. The radius is clamped to half the shorter side. `gray8` input becomes
/// `rgba8` (it needs an alpha channel); RGBA input keeps its format.
///
/// Identifier: `roundedCorners(radius=16)`.
public struct RoundedCorners: ImageProcessor {
    /// Corner radius in pixels of the processed image.
    public var radius: Double

    public init(radius: Double) { self.radius = radius }

    public var identifier: String { ProcessorIdentifier.make("roundedCorners", ["radius": ProcessorIdentifier.number(radius)]) }

    public func process(_ image: Image) throws -> Image {
        guard radius.isFinite, radius >= 0 else {
            throw ImagePipelineError.processing(self, "radius \(radius) must be a finite number ≥ 0")
        }
        return image.mappingEveryFrame { $0.withRoundedCorners(radius: radius) }
    }
}

/// Crops to the centred inscribed square and masks it with an anti-aliased circle.
///
/// `gray8` input becomes `rgba8`. Identifier: `circle()`.
///
/// ```swift
/// let avatar = try ProcessorChain([Resize(width: 128, height: 128, mode: .fill), Circle()]).process(image)
/// ```
public struct Circle: ImageProcessor {
    public init() {}

    public var identifier: String { "circle()" }

    public func process(_ image: Image) throws -> Image {
        image.mappingEveryFrame { frame in
            let side = min(frame.width, frame.height)
            let origin = Anchor.center.origin(of: PixelSize(width: side, height: side), in: PixelSize(frame))
            let square = frame.cropped(to: PixelRect(x: origin.x, y: origin.y, width: side, height: side))
            return square.withRoundedCorners(radius: Double(side) / 2)
        }
    }
}

extension Image {
    /// Multiplies alpha in the four corners by the coverage of a quarter circle of `radius`.
    func withRoundedCorners(radius requested: Double) -> Image {
        var result = pixelFormat == .gray8 ? converted(to: .rgba8) : self
        result.metadata.hasAlpha = true
        let radius = min(requested, Double(min(width, height)) / 2)
        let size = Int(radius.rounded(.up))
        guard size > 0 else { return result }
        // Coverage of the pixel `size-1-i, size-1-j` steps in from the corner, computed once for
        // one corner and mirrored to the others so all four are exact mirror images.
        var coverage = [UInt16](repeating: 0, count: size * size)
        for j in 0 ..< size {
            for i in 0 ..< size {
                let dx = radius - (Double(i) + 0.5), dy = radius - (Double(j) + 0.5)
                // Only the part of the corner square outside the arc's centre lines is curved.
                let distance = dx > 0 && dy > 0 ? (dx * dx + dy * dy).squareRoot() : max(dx, dy, 0)
                // Signed distance to the arc, turned into covered fraction of a pixel (in 1/256).
                let covered = min(max(radius - distance + 0.5, 0), 1)
                coverage[j * size + i] = UInt16((covered * 256).rounded())
            }
        }
        let (width, height, stride) = (result.width, result.height, result.bytesPerRow)
        let channels = result.pixelFormat == .rgba8Premultiplied ? 0 ..< 4 : 3 ..< 4
        result.withUnsafeMutableBytes { bytes in
            let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            func scale(_ x: Int, _ y: Int, by factor: UInt32) {
                let pixel = base + y * stride + x * 4
                for channel in channels { pixel[channel] = UInt8((UInt32(pixel[channel]) * factor + 128) >> 8) }
            }
            for j in 0 ..< size {
                for i in 0 ..< size {
                    let factor = UInt32(coverage[j * size + i])
                    if factor == 256 { continue }
                    // The mirrored positions; on an odd side's centre line a mirror is the pixel itself.
                    let (mirroredX, mirroredY) = (width - 1 - i, height - 1 - j)
                    scale(i, j, by: factor)
                    if mirroredX != i { scale(mirroredX, j, by: factor) }
                    if mirroredY != j {
                        scale(i, mirroredY, by: factor)
                        if mirroredX != i { scale(mirroredX, mirroredY, by: factor) }
                    }
                }
            }
        }
        return result
    }
}
