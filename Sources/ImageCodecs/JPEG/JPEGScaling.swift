import CTurboJPEG
import ImageCore

/// Chooses a libjpeg DCT scaling factor (shrink on load).
enum JPEGScaling {
    /// The scaling factors libjpeg-turbo offers that do not enlarge (1/1, 7/8, … 1/8).
    static let reducingFactors: [(num: Int, denom: Int)] = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return [(1, 1)] }
        return (0 ..< Int(count)).map { (Int(factors[$0].num), Int(factors[$0].denom)) }.filter { $0.num <= $0.denom }
    }()

    /// `TJSCALED`: the size libjpeg produces for a dimension at a factor (rounded up).
    static func scaled(_ dimension: Int, _ factor: (num: Int, denom: Int)) -> Int {
        (dimension * factor.num + factor.denom - 1) / factor.denom
    }

    /// The smallest decode size whose width and height both stay at or above `minimum`;
    /// the full size when no reducing factor qualifies.
    static func scaledSize(width: Int, height: Int, covering minimum: PixelSize) -> PixelSize {
        var best = PixelSize(width: width, height: height)
        for factor in reducingFactors {
            let candidate = PixelSize(width: scaled(width, factor), height: scaled(height, factor))
            if candidate.width >= minimum.width, candidate.height >= minimum.height,
               candidate.width * candidate.height < best.width * best.height {
                best = candidate
            }
        }
        return best
    }

    /// Whether TurboJPEG, asked for `target`, decodes at 1/8: `target` is the 1/8 size and the
    /// next larger factor (1/4, and so every larger one) would not fit inside it.
    static func isOneEighth(_ target: PixelSize, width: Int, height: Int) -> Bool {
        target.width == scaled(width, (1, 8)) && target.height == scaled(height, (1, 8))
            && (scaled(width, (1, 4)) > target.width || scaled(height, (1, 4)) > target.height)
    }
}
