import ImageCore

/// A rectangle of pixels: origin at the top-left corner, `y` growing downwards.
public struct PixelRect: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// Cuts out a rectangle, given either exactly or as a size placed at an ``Anchor``.
///
/// A rectangle that is empty or not entirely inside the image, or a size larger than the
/// image, throws ``ImageCore/ImagePipelineError/processingFailed(processor:message:)``.
///
/// Identifiers: `crop(x=10,y=20,w=100,h=50)` and `crop(w=100,h=50,anchor=center)`.
///
/// ```swift
/// let square = try Crop(width: 512, height: 512, anchor: .center).process(image)
/// ```
public struct Crop: ImageProcessor {
    public enum Region: Sendable, Hashable {
        case rect(PixelRect)
        case size(width: Int, height: Int, anchor: Anchor)
    }

    public var region: Region

    /// Crops to `rect`.
    public init(_ rect: PixelRect) {
        region = .rect(rect)
    }

    /// Crops to `width × height` at `anchor`.
    public init(width: Int, height: Int, anchor: Anchor = .center) {
        region = .size(width: width, height: height, anchor: anchor)
    }

    public var identifier: String {
        switch region {
        case .rect(let rect):
            return ProcessorIdentifier.make("crop", ["x": "\(rect.x)", "y": "\(rect.y)",
                                                     "w": "\(rect.width)", "h": "\(rect.height)"])
        case let .size(width, height, anchor):
            return ProcessorIdentifier.make("crop", ["w": "\(width)", "h": "\(height)", "anchor": anchor.rawValue])
        }
    }

    public func process(_ image: Image) throws -> Image {
        try image.mappingEveryFrame { frame in
            let rect = try resolvedRect(in: PixelSize(frame))
            return frame.cropped(to: rect)
        }
    }

    /// The rectangle this crop takes out of an image of `size`, or an error when it does not fit.
    func resolvedRect(in size: PixelSize) throws -> PixelRect {
        let rect: PixelRect
        switch region {
        case .rect(let given):
            rect = given
        case let .size(width, height, anchor):
            guard width <= size.width, height <= size.height else {
                throw ImagePipelineError.processing(self, "crop size \(width)x\(height) is larger than the image (\(size))")
            }
            let origin = anchor.origin(of: PixelSize(width: width, height: height), in: size)
            rect = PixelRect(x: origin.x, y: origin.y, width: width, height: height)
        }
        guard rect.width > 0, rect.height > 0 else {
            throw ImagePipelineError.processing(self, "crop rectangle \(rect.width)x\(rect.height) is empty")
        }
        guard rect.x >= 0, rect.y >= 0, rect.x <= size.width - rect.width, rect.y <= size.height - rect.height else {
            throw ImagePipelineError.processing(
                self, "crop rectangle \(rect.width)x\(rect.height) at (\(rect.x), \(rect.y)) is outside the image (\(size))")
        }
        return rect
    }
}

extension Image {
    /// A copy of the pixels inside `rect`; the caller has checked that `rect` lies inside the image.
    func cropped(to rect: PixelRect) -> Image {
        if rect.x == 0, rect.y == 0, rect.width == width, rect.height == height { return self }
        var result = Image(uninitializedWidth: rect.width, height: rect.height, pixelFormat: pixelFormat, metadata: metadata)
        let bytesPerPixel = pixelFormat.bytesPerPixel
        let (sourceStride, destinationStride) = (bytesPerRow, result.bytesPerRow)
        let rowLength = rect.width * bytesPerPixel
        withUnsafeBytes { source in
            result.withUnsafeMutableBytes { destination in
                for row in 0 ..< rect.height {
                    let from = source.baseAddress! + (rect.y + row) * sourceStride + rect.x * bytesPerPixel
                    let to = destination.baseAddress! + row * destinationStride
                    to.copyMemory(from: from, byteCount: rowLength)
                    // Keep the alignment padding zero, as every other image constructor does.
                    (to + rowLength).initializeMemory(as: UInt8.self, repeating: 0, count: destinationStride - rowLength)
                }
            }
        }
        return result
    }
}
