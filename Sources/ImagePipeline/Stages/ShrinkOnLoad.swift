/// Decode-size advice from a request's leading processors: when the chain starts with a
/// downscaling resize (optionally after ``Orient``), the JPEG decoder may decode at a DCT scale
/// instead of full size. The advising processors' identifiers become part of the cache keys, so
/// a reduced decode is never served to a request that needs full size.
struct ShrinkOnLoad: Sendable {
    /// The identifiers of the processors that gave the advice.
    let identifier: String
    private let resize: any ImageProcessor
    private let orientsFirst: Bool

    /// Advice from `processors`, or `nil` when their first real step cannot work from a reduced
    /// decode. A processor is asked with a very large source: one that never accepts a reduced
    /// input answers `nil` for every size.
    init?(processors: [any ImageProcessor]) {
        var index = processors.startIndex
        let orientsFirst = processors.first is Orient
        if orientsFirst { index += 1 }
        guard index < processors.endIndex,
              processors[index].minimumInputSize(for: PixelSize(width: 1 << 20, height: 1 << 20)) != nil else { return nil }
        self.resize = processors[index]
        self.orientsFirst = orientsFirst
        identifier = processors[...index].map(\.identifier).joined(separator: "|")
    }

    /// The smallest size, in stored orientation, that the decode may produce for a source of
    /// `stored` size with EXIF `orientation`, or `nil` for full size.
    func minimumDecodeSize(_ stored: PixelSize, orientation: ExifOrientation) -> PixelSize? {
        let swaps = orientsFirst && orientation.swapsDimensions
        let seen = swaps ? PixelSize(width: stored.height, height: stored.width) : stored
        guard let minimum = resize.minimumInputSize(for: seen) else { return nil }
        return swaps ? PixelSize(width: minimum.height, height: minimum.width) : minimum
    }
}
