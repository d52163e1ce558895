import ImageCore
import ImageProcessing
import Testing

@Suite struct GeometryTests {
    /// 3x2 image whose pixels are a b c / d e f (red = letter index, other channels fixed).
    static let letters = Image.make(width: 3, height: 2) { x, y in [UInt8(y * 3 + x), 7, 9, 255] }

    static func layout(_ image: Image) -> [[UInt8]] {
        (0 ..< image.height).map { y in (0 ..< image.width).map { x in image.pixel(x, y)[0] } }
    }

    @Test func rotateAndFlipMoveKnownPixels() throws {
        let (a, b, c, d, e, f): (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 1, 2, 3, 4, 5)
        #expect(Self.layout(try Rotate(.degrees90).process(Self.letters)) == [[d, a], [e, b], [f, c]])
        #expect(Self.layout(try Rotate(.degrees180).process(Self.letters)) == [[f, e, d], [c, b, a]])
        #expect(Self.layout(try Rotate(.degrees270).process(Self.letters)) == [[c, f], [b, e], [a, d]])
        #expect(Self.layout(try Flip(.horizontal).process(Self.letters)) == [[c, b, a], [f, e, d]])
        #expect(Self.layout(try Flip(.vertical).process(Self.letters)) == [[d, e, f], [a, b, c]])
        // Other channels travel with the pixel.
        #expect(try Rotate(.degrees90).process(Self.letters).pixel(1, 2) == [2, 7, 9, 255])
    }

    @Test func grayRotates() throws {
        let gray = Image.make(width: 3, height: 2, format: .gray8) { x, y in [UInt8(y * 3 + x)] }
        let rotated = try Rotate(.degrees90).process(gray)
        #expect(rotated.pixelFormat == .gray8)
        #expect(Self.layout(rotated) == [[3, 0], [4, 1], [5, 2]])
    }

    /// How a camera stores an upright picture for each EXIF orientation, built from Rotate and
    /// Flip (tested above on known pixels); Orient must undo it exactly.
    static func stored(_ upright: Image, as orientation: ExifOrientation) throws -> Image {
        let steps: [any ImageProcessor]
        switch orientation {
        case .up: steps = []
        case .upMirrored: steps = [Flip(.horizontal)]
        case .down: steps = [Rotate(.degrees180)]
        case .downMirrored: steps = [Flip(.vertical)]
        case .leftMirrored: steps = [Rotate(.degrees90), Flip(.horizontal)]   // transpose
        case .right: steps = [Rotate(.degrees270)]                             // displays after a 90° clockwise turn
        case .rightMirrored: steps = [Rotate(.degrees90), Flip(.vertical)]     // transverse
        case .left: steps = [Rotate(.degrees90)]
        }
        var image = try steps.process(upright)
        image.metadata.orientation = orientation
        return image
    }

    @Test(arguments: ExifOrientation.allCases)
    func orientUndoesEveryOrientation(orientation: ExifOrientation) throws {
        let upright = Image.make(width: 5, height: 3) { x, y in [UInt8(x), UInt8(y), 0, 255] }
        let stored = try Self.stored(upright, as: orientation)
        #expect((stored.width == upright.height) == orientation.swapsDimensions)
        let oriented = try Orient().process(stored)
        #expect(oriented.metadata.orientation == .up)
        #expect(oriented == upright)
    }

    @Test func orientAppliesToEveryFrame() throws {
        var image = Image.solid(width: 4, height: 2, [1, 2, 3, 255])
        let second = Image.make(width: 4, height: 2) { x, y in [UInt8(x), UInt8(y), 0, 255] }
        image.metadata.frames = [AnimationFrame(image: image, duration: 0.1), AnimationFrame(image: second, duration: 0.2)]
        image.metadata.orientation = .right
        let oriented = try Orient().process(image)
        #expect(oriented.dimensions == (2, 4))
        #expect(oriented.metadata.frames.map(\.image.dimensions).allSatisfy { $0 == (2, 4) })
        #expect(oriented.metadata.frames.map(\.duration) == [0.1, 0.2])
        #expect(oriented.metadata.frames[1].image == (try Rotate(.degrees90).process(second)))
    }

    @Test func cropTakesTheRectOrTheAnchoredSize() throws {
        let image = Image.make(width: 10, height: 8) { x, y in [UInt8(x), UInt8(y), 0, 255] }
        let rect = try Crop(PixelRect(x: 2, y: 3, width: 4, height: 5)).process(image)
        #expect(rect.dimensions == (4, 5))
        #expect(rect.pixel(0, 0) == [2, 3, 0, 255] && rect.pixel(3, 4) == [5, 7, 0, 255])
        let expected: [Anchor: [UInt8]] = [.topLeft: [0, 0], .center: [3, 2], .bottomRight: [6, 4], .top: [3, 0], .left: [0, 2]]
        for (anchor, origin) in expected {
            let cropped = try Crop(width: 4, height: 4, anchor: anchor).process(image)
            #expect(Array(cropped.pixel(0, 0).prefix(2)) == origin, "\(anchor)")
        }
        #expect(try Crop(width: 10, height: 8).process(image) == image)
    }

    @Test(arguments: [PixelRect(x: -1, y: 0, width: 4, height: 4), PixelRect(x: 0, y: 0, width: 11, height: 4),
                      PixelRect(x: 7, y: 5, width: 4, height: 4), PixelRect(x: 0, y: 0, width: 0, height: 4),
                      PixelRect(x: 2, y: 2, width: 3, height: -1), PixelRect(x: Int.max, y: 0, width: 2, height: 2)])
    func cropOutsideTheImageFails(rect: PixelRect) {
        let image = Image.solid(width: 10, height: 8, [1, 2, 3, 255])
        let crop = Crop(rect)
        let error = #expect(throws: ImagePipelineError.self) { try crop.process(image) }
        guard case let .processingFailed(processor, _) = error else {
            Issue.record("expected processingFailed, got \(String(describing: error))")
            return
        }
        #expect(processor == crop.identifier)
    }

    @Test func cropSizeLargerThanTheImageFails() {
        let image = Image.solid(width: 10, height: 8, [1, 2, 3, 255])
        #expect(throws: ImagePipelineError.self) { try Crop(width: 11, height: 2).process(image) }
        #expect(throws: ImagePipelineError.self) { try Crop(width: 2, height: 9, anchor: .bottom).process(image) }
    }

    @Test func grayscaleKeepsAlphaAndFormat() throws {
        let image = Image.make(width: 4, height: 1) { x, _ in [[255, 0, 0, 255], [0, 255, 0, 128], [0, 0, 255, 0], [10, 10, 10, 255]][x] }
        let gray = try Grayscale().process(image)
        #expect(gray.pixelFormat == .rgba8)
        #expect(gray.pixel(0, 0) == [76, 76, 76, 255])
        #expect(gray.pixel(1, 0) == [150, 150, 150, 128])
        #expect(gray.pixel(2, 0) == [29, 29, 29, 0])
        #expect(gray.pixel(3, 0) == [10, 10, 10, 255])
        let alreadyGray = Image.solid(width: 3, height: 3, format: .gray8, [42])
        #expect(try Grayscale().process(alreadyGray) == alreadyGray)
    }
}
