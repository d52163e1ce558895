/// The EXIF orientation tag (1–8): how the stored pixels must be turned to display upright.
///
/// Values outside 1...8 (the tag value 0 seen in the wild, for example) are treated as
/// ``up`` by ``init(exifValue:)``, as every mainstream viewer does.
public enum ExifOrientation: Int, Sendable, Hashable, Codable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: mirrored along the top-left to bottom-right diagonal (transpose).
    case leftMirrored = 5
    /// 6: must be rotated 90° clockwise to display.
    case right = 6
    /// 7: transverse (mirrored along the other diagonal).
    case rightMirrored = 7
    /// 8: must be rotated 90° counter-clockwise to display.
    case left = 8

    /// Maps a raw tag value to an orientation; anything outside 1...8 becomes ``up``.
    public init(exifValue: Int) {
        self = ExifOrientation(rawValue: exifValue) ?? .up
    }

    /// Whether displaying the image swaps its width and height (orientations 5–8).
    public var swapsDimensions: Bool { rawValue >= 5 }
}
