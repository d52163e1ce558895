import ImageCore

extension Image {
    /// The pixels rearranged the way EXIF `orientation` says to display them: orientations 5–8
    /// swap width and height. Metadata is copied unchanged (callers set what they mean).
    func transformed(by orientation: ExifOrientation) -> Image {
        if orientation == .up { return self }
        let (outputWidth, outputHeight) = orientation.swapsDimensions ? (height, width) : (width, height)
        // Stored position of output pixel (x', y'):  x = ax·x' + bx·y' + cx,  y = ay·x' + by·y' + cy.
        let w = width - 1, h = height - 1
        let (ax, bx, cx, ay, by, cy): (Int, Int, Int, Int, Int, Int)
        switch orientation {
        case .up:            (ax, bx, cx, ay, by, cy) = (1, 0, 0, 0, 1, 0)
        case .upMirrored:    (ax, bx, cx, ay, by, cy) = (-1, 0, w, 0, 1, 0)
        case .down:          (ax, bx, cx, ay, by, cy) = (-1, 0, w, 0, -1, h)
        case .downMirrored:  (ax, bx, cx, ay, by, cy) = (1, 0, 0, 0, -1, h)
        case .leftMirrored:  (ax, bx, cx, ay, by, cy) = (0, 1, 0, 1, 0, 0)
        case .right:         (ax, bx, cx, ay, by, cy) = (0, 1, 0, -1, 0, h)
        case .rightMirrored: (ax, bx, cx, ay, by, cy) = (0, -1, w, -1, 0, h)
        case .left:          (ax, bx, cx, ay, by, cy) = (0, -1, w, 1, 0, 0)
        }
        var result = Image(width: outputWidth, height: outputHeight, pixelFormat: pixelFormat, metadata: metadata)
        let bytesPerPixel = pixelFormat.bytesPerPixel
        let (sourceStride, destinationStride) = (bytesPerRow, result.bytesPerRow)
        // Byte step in the source for one step right in the output.
        let step = ax * bytesPerPixel + ay * sourceStride
        withUnsafeBytes { source in
            result.withUnsafeMutableBytes { destination in
                for row in 0 ..< outputHeight {
                    var offset = (bx * row + cx) * bytesPerPixel + (by * row + cy) * sourceStride
                    let to = destination.baseAddress! + row * destinationStride
                    if bytesPerPixel == 4 {
                        for column in 0 ..< outputWidth {
                            to.storeBytes(of: source.load(fromByteOffset: offset, as: UInt32.self),
                                          toByteOffset: column * 4, as: UInt32.self)
                            offset += step
                        }
                    } else {
                        for column in 0 ..< outputWidth {
                            to.storeBytes(of: source[offset], toByteOffset: column, as: UInt8.self)
                            offset += step
                        }
                    }
                }
            }
        }
        return result
    }
}

/// Rotates the stored pixels clockwise by a quarter, half or three-quarter turn.
///
/// Identifier: `rotate(degrees=90)`. Leaves `metadata.orientation` unchanged.
public struct Rotate: ImageProcessor {
    public enum Angle: Int, Sendable, Hashable, CaseIterable {
        case degrees90 = 90, degrees180 = 180, degrees270 = 270
    }

    public var angle: Angle

    public init(_ angle: Angle) { self.angle = angle }

    public var identifier: String { ProcessorIdentifier.make("rotate", ["degrees": "\(angle.rawValue)"]) }

    public func process(_ image: Image) throws -> Image {
        let orientation: ExifOrientation
        switch angle {
        case .degrees90: orientation = .right
        case .degrees180: orientation = .down
        case .degrees270: orientation = .left
        }
        return image.mappingEveryFrame { $0.transformed(by: orientation) }
    }
}

/// Mirrors the stored pixels left to right (`.horizontal`) or top to bottom (`.vertical`).
///
/// Identifier: `flip(axis=horizontal)`. Leaves `metadata.orientation` unchanged.
public struct Flip: ImageProcessor {
    public enum Axis: String, Sendable, Hashable, CaseIterable {
        case horizontal, vertical
    }

    public var axis: Axis

    public init(_ axis: Axis) { self.axis = axis }

    public var identifier: String { ProcessorIdentifier.make("flip", ["axis": axis.rawValue]) }

    public func process(_ image: Image) throws -> Image {
        let orientation: ExifOrientation = axis == .horizontal ? .upMirrored : .downMirrored
        return image.mappingEveryFrame { $0.transformed(by: orientation) }
    }
}

/// Applies the EXIF orientation in `metadata.orientation` (1–8) to the pixels and sets it to
/// `.up`, so the stored pixels are upright. Orientations 5–8 swap width and height.
///
/// Identifier: `orient()`. Put it first in a chain when later sizes refer to the upright image.
public struct Orient: ImageProcessor {
    public init() {}

    public var identifier: String { "orient()" }

    public func process(_ image: Image) throws -> Image {
        let orientation = image.metadata.orientation
        var result = image.mappingEveryFrame { $0.transformed(by: orientation) }
        result.metadata.orientation = .up
        for index in result.metadata.frames.indices { result.metadata.frames[index].image.metadata.orientation = .up }
        return result
    }
}
