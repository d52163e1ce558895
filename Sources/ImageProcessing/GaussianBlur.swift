import ImageCore

/// Blurs with an approximate Gaussian of standard deviation `radius` pixels.
///
/// Three successive box blurs whose widths are chosen to match the Gaussian's variance, each a
/// running sum: the cost per pixel does not grow with the radius. Edges extend the border
/// pixels. RGBA is blurred in premultiplied alpha (no dark fringes round transparent areas)
/// and returned in the input's format. Intermediate values keep 8 fractional bits, so a
/// constant image stays exactly constant and a symmetric image stays exactly symmetric.
///
/// Identifier: `gaussianBlur(radius=8)`.
public struct GaussianBlur: ImageProcessor {
    /// Standard deviation of the Gaussian, in pixels. `0` leaves the image unchanged.
    public var radius: Double

    /// Largest accepted radius; beyond it a running sum could overflow its 32-bit accumulator.
    public static let maxRadius = 4000.0

    public init(radius: Double = 8) { self.radius = radius }

    public var identifier: String { ProcessorIdentifier.make("gaussianBlur", ["radius": ProcessorIdentifier.number(radius)]) }

    public func process(_ image: Image) throws -> Image {
        guard radius.isFinite, radius >= 0, radius <= Self.maxRadius else {
            throw ImagePipelineError.processing(self, "radius \(radius) must be between 0 and \(Self.maxRadius)")
        }
        let boxRadii = Self.boxRadii(sigma: radius)
        guard boxRadii.contains(where: { $0 > 0 }) else { return image }
        return image.mappingEveryFrame { frame in
            let working = frame.pixelFormat == .rgba8 ? frame.converted(to: .rgba8Premultiplied) : frame
            let blurred = BoxBlur(radii: boxRadii).apply(to: working)
            return blurred.converted(to: frame.pixelFormat)
        }
    }

    /// Radii of three box filters whose combined variance approximates σ² (box widths odd, the
    /// two widths used differing by 2, the count of each chosen to match the variance best).
    static func boxRadii(sigma: Double) -> [Int] {
        let passes = 3.0
        let idealWidth = (12 * sigma * sigma / passes + 1).squareRoot()
        var lower = Int(idealWidth.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        lower = max(lower, 1)
        let upper = lower + 2
        let l = Double(lower)
        let lowerCount = Int(((12 * sigma * sigma - passes * l * l - 4 * passes * l - 3 * passes) / (-4 * l - 4)).rounded())
        return (0 ..< 3).map { ($0 < lowerCount ? lower : upper) / 2 }
    }
}

/// Box blurs of the given radii applied in turn, horizontally then vertically, in fixed point.
struct BoxBlur {
    let radii: [Int]

    /// Fractional bits of intermediate values.
    static let fractionBits: Int32 = 8

    func apply(to image: Image) -> Image {
        let channels = image.pixelFormat.bytesPerPixel
        let (width, height) = (image.width, image.height)
        let rowValues = width * channels
        // The horizontally blurred image, 8.8 fixed point (fits UInt16: 255 << 8 < 65536).
        let intermediate = UnsafeMutablePointer<UInt16>.allocate(capacity: rowValues * height)
        let rowA = UnsafeMutablePointer<Int32>.allocate(capacity: rowValues)
        let rowB = UnsafeMutablePointer<Int32>.allocate(capacity: rowValues)
        let sums = UnsafeMutablePointer<Int32>.allocate(capacity: max(channels, min(rowValues, 256)))
        defer { intermediate.deallocate(); rowA.deallocate(); rowB.deallocate(); sums.deallocate() }

        image.withUnsafeBytes { bytes in
            for y in 0 ..< height {
                let source = (bytes.baseAddress! + y * image.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                for i in 0 ..< rowValues { rowA[i] = Int32(source[i]) << Self.fractionBits }
                var (input, output) = (rowA, rowB)
                for radius in radii where radius > 0 {
                    Self.blurLine(input, into: output, count: width, step: channels, lanes: channels, radius: radius, sums: sums)
                    swap(&input, &output)
                }
                let target = intermediate + y * rowValues
                for i in 0 ..< rowValues { target[i] = UInt16(truncatingIfNeeded: input[i]) }
            }
        }

        var result = Image(uninitializedWidth: width, height: height, pixelFormat: image.pixelFormat, metadata: image.metadata)
        let resultStride = result.bytesPerRow
        // Vertical passes on strips of columns, so the working set stays small and rows are read whole.
        let stripValues = min(rowValues, 256)
        let stripA = UnsafeMutablePointer<Int32>.allocate(capacity: stripValues * height)
        let stripB = UnsafeMutablePointer<Int32>.allocate(capacity: stripValues * height)
        defer { stripA.deallocate(); stripB.deallocate() }
        result.withUnsafeMutableBytes { bytes in
            bytes.initializeMemory(as: UInt8.self, repeating: 0)
            var stripStart = 0
            while stripStart < rowValues {
                let lanes = min(stripValues, rowValues - stripStart)
                for y in 0 ..< height {
                    let from = intermediate + y * rowValues + stripStart
                    for i in 0 ..< lanes { stripA[y * lanes + i] = Int32(from[i]) }
                }
                var (input, output) = (stripA, stripB)
                for radius in radii where radius > 0 {
                    Self.blurLine(input, into: output, count: height, step: lanes, lanes: lanes, radius: radius, sums: sums)
                    swap(&input, &output)
                }
                let half: Int32 = 1 << (Self.fractionBits - 1)
                for y in 0 ..< height {
                    let to = (bytes.baseAddress! + y * resultStride + stripStart).assumingMemoryBound(to: UInt8.self)
                    for i in 0 ..< lanes { to[i] = UInt8(clamping: (input[y * lanes + i] + half) >> Self.fractionBits) }
                }
                stripStart += lanes
            }
        }
        return result
    }

    /// One box pass along `count` samples for `lanes` side-by-side lanes at once: sample `k` of
    /// lane `l` is at `k * step + l`. Borders extend the edge sample. The running sum makes the
    /// cost independent of `radius`, and the inner loop runs across lanes (contiguous memory).
    @inline(__always)
    static func blurLine(_ input: UnsafePointer<Int32>, into output: UnsafeMutablePointer<Int32>, count: Int, step: Int,
                         lanes: Int, radius: Int, sums: UnsafeMutablePointer<Int32>) {
        let reciprocal = 1 / Float(2 * radius + 1)
        let last = count - 1
        // Window around sample 0: the edge sample radius+1 times, then the next radius samples.
        for lane in 0 ..< lanes { sums[lane] = Int32(radius + 1) * input[lane] }
        for k in 1 ... radius {
            let row = input + min(k, last) * step
            for lane in 0 ..< lanes { sums[lane] += row[lane] }
        }
        for k in 0 ..< count {
            let target = output + k * step
            // Equal sums give equal values wherever they occur: mirror symmetry stays exact.
            for lane in 0 ..< lanes { target[lane] = Int32(Float(sums[lane]) * reciprocal + 0.5) }
            let entering = input + min(k + radius + 1, last) * step
            let leaving = input + max(k - radius, 0) * step
            for lane in 0 ..< lanes { sums[lane] += entering[lane] - leaving[lane] }
        }
    }
}
