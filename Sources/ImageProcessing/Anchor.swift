import ImageCore

/// Which part of an image a crop keeps: one of nine positions.
public enum Anchor: String, Sendable, Hashable, CaseIterable {
    case topLeft, top, topRight
    case left, center, right
    case bottomLeft, bottom, bottomRight

    /// Horizontal position of the kept window in the free space: 0 left, 0.5 centre, 1 right.
    var horizontalFraction: Double {
        switch self {
        case .topLeft, .left, .bottomLeft: return 0
        case .top, .center, .bottom: return 0.5
        case .topRight, .right, .bottomRight: return 1
        }
    }

    /// Vertical position of the kept window in the free space: 0 top, 0.5 centre, 1 bottom.
    var verticalFraction: Double {
        switch self {
        case .topLeft, .top, .topRight: return 0
        case .left, .center, .right: return 0.5
        case .bottomLeft, .bottom, .bottomRight: return 1
        }
    }

    /// The origin of a `size` window inside a `container`, in whole pixels (floors the centre).
    func origin(of size: PixelSize, in container: PixelSize) -> (x: Int, y: Int) {
        let freeX = container.width - size.width, freeY = container.height - size.height
        return (Int((Double(freeX) * horizontalFraction).rounded(.down)),
                Int((Double(freeY) * verticalFraction).rounded(.down)))
    }
}
