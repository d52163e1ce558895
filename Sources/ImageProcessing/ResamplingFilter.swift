#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reconstruction filter a ``Resize`` uses.
public enum ResamplingFilter: String, Sendable, Hashable, CaseIterable {
    /// Windowed sinc with three lobes: the sharpest, with slight ringing on hard edges. The default.
    case lanczos3
    /// Cubic convolution (Keys, a = −0.5): smooth, a little softer than Lanczos.
    case bicubic
    /// Linear interpolation (a triangle filter when reducing): soft, cheap.
    case bilinear
    /// Area average (nearest neighbour when enlarging).
    case box

    /// Half-width of the kernel at scale 1, in source pixels.
    var support: Double {
        switch self {
        case .lanczos3: return 3
        case .bicubic: return 2
        case .bilinear: return 1
        case .box: return 0.5
        }
    }

    /// The kernel at distance `x` (in kernel units); zero outside `-support ..< support`.
    func weight(_ x: Double) -> Double {
        switch self {
        case .lanczos3:
            guard x > -3, x < 3 else { return 0 }
            return Self.sinc(x) * Self.sinc(x / 3)
        case .bicubic:
            let a = -0.5, t = abs(x)
            if t < 1 { return ((a + 2) * t - (a + 3)) * t * t + 1 }
            if t < 2 { return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a }
            return 0
        case .bilinear:
            let t = abs(x)
            return t < 1 ? 1 - t : 0
        case .box:
            return x >= -0.5 && x < 0.5 ? 1 : 0
        }
    }

    private static func sinc(_ x: Double) -> Double {
        if x == 0 { return 1 }
        let px = Double.pi * x
        return sin(px) / px
    }
}

/// Precomputed weights for resampling one axis: for each output position, the first source
/// index it reads and its normalised weights (padded with zeros to ``stride`` entries).
struct AxisWeights {
    /// First source index per output position.
    let starts: [Int]
    /// Number of taps per output position (at most ``stride``).
    let counts: [Int]
    /// Weights, ``stride`` entries per output position.
    let weights: [Float]
    /// Entries reserved per output position: the largest tap count.
    let stride: Int

    /// Weights mapping `sourceSpan` source pixels starting at `sourceStart` (fractional, in
    /// source pixel units) onto `outputLength` pixels. Taps are clipped to `0 ..< sourceLength`
    /// and the remaining weights renormalised, so edges keep their brightness.
    init(filter: ResamplingFilter, sourceLength: Int, sourceStart: Double, sourceSpan: Double, outputLength: Int) {
        let scale = sourceSpan / Double(outputLength)
        let filterScale = max(scale, 1)
        let support = filter.support * filterScale
        var starts = [Int](repeating: 0, count: outputLength)
        var counts = [Int](repeating: 0, count: outputLength)
        var rows: [[Double]] = []
        rows.reserveCapacity(outputLength)
        var stride = 1
        for x in 0 ..< outputLength {
            let center = sourceStart + (Double(x) + 0.5) * scale
            var first = Int((center - support + 0.5).rounded(.down))
            var end = Int((center + support + 0.5).rounded(.down))
            first = min(max(first, 0), sourceLength - 1)
            end = max(min(end, sourceLength), first + 1)
            var row = (first ..< end).map { filter.weight((Double($0) - center + 0.5) / filterScale) }
            var total = row.reduce(0, +)
            if total == 0 {
                // Only possible for a box filter between source pixels: take the nearest one.
                row = row.map { _ in 0 }
                let nearest = min(max(Int(center.rounded(.down)), first), end - 1)
                row[nearest - first] = 1
                total = 1
            }
            // Trim zero weights at both ends: they cost time and say nothing.
            var low = 0, high = row.count
            while high - low > 1, row[high - 1] == 0 { high -= 1 }
            while high - low > 1, row[low] == 0 { low += 1 }
            starts[x] = first + low
            counts[x] = high - low
            rows.append(row[low ..< high].map { $0 / total })
            stride = max(stride, high - low)
        }
        var weights = [Float](repeating: 0, count: outputLength * stride)
        for (x, row) in rows.enumerated() {
            for (t, w) in row.enumerated() { weights[x * stride + t] = Float(w) }
        }
        self.starts = starts
        self.counts = counts
        self.weights = weights
        self.stride = stride
    }
}
