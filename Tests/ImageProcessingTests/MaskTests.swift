import ImageCore
import ImageProcessing
import Testing

@Suite struct MaskTests {
    static let color: [UInt8] = [10, 200, 30, 255]

    /// Whether the image equals its mirror images (left-right and top-bottom).
    static func isMirrorSymmetric(_ image: Image) throws -> Bool {
        try Flip(.horizontal).process(image) == image && Flip(.vertical).process(image) == image
    }

    @Test(arguments: [4.0, 8.0, 7.5, 15.0])
    func roundedCornersAreTransparentSmoothAndSymmetric(radius: Double) throws {
        let source = Image.solid(width: 40, height: 30, Self.color)
        let rounded = try RoundedCorners(radius: radius).process(source)
        #expect(rounded.dimensions == (40, 30) && rounded.pixelFormat == .rgba8)
        #expect(rounded.metadata.hasAlpha)
        for (x, y) in [(0, 0), (39, 0), (0, 29), (39, 29)] { #expect(rounded.pixel(x, y)[3] == 0) }
        // Untouched: the centre and everything outside the corner squares; colour never changes.
        let size = Int(radius.rounded(.up))
        var wrong: [(Int, Int)] = []
        for y in 0 ..< 30 {
            for x in 0 ..< 40 {
                let p = rounded.pixel(x, y)
                let inCorner = (x < size || x >= 40 - size) && (y < size || y >= 30 - size)
                if Array(p.prefix(3)) != Array(Self.color.prefix(3)) || (!inCorner && p[3] != 255) { wrong.append((x, y)) }
            }
        }
        #expect(wrong.isEmpty, "changed pixels outside the corners or colour changed: \(wrong.prefix(8))")
        // Anti-aliased: the arc crosses pixels that end up partly transparent, in every corner.
        var partial = 0
        for y in 0 ..< size { for x in 0 ..< size { let a = rounded.pixel(x, y)[3]; if a > 0 && a < 255 { partial += 1 } } }
        #expect(partial >= 2)
        // Alpha grows from the corner towards the centre along the diagonal.
        let diagonal = (0 ..< size).map { rounded.pixel($0, $0)[3] }
        #expect(diagonal == diagonal.sorted())
        #expect(try Self.isMirrorSymmetric(rounded))
    }

    @Test func roundedCornersOnGrayAndPremultiplied() throws {
        let gray = try RoundedCorners(radius: 5).process(Image.solid(width: 20, height: 20, format: .gray8, [100]))
        #expect(gray.pixelFormat == .rgba8)
        #expect(gray.pixel(0, 0)[3] == 0 && gray.pixel(10, 10) == [100, 100, 100, 255])
        let premultiplied = Image.solid(width: 20, height: 20, [200, 100, 50, 255]).converted(to: .rgba8Premultiplied)
        let rounded = try RoundedCorners(radius: 6).process(premultiplied)
        #expect(rounded.pixelFormat == .rgba8Premultiplied)
        for y in 0 ..< 20 { for x in 0 ..< 20 { let p = rounded.pixel(x, y); #expect(p[0] <= p[3] && p[2] <= p[3]) } }
        #expect(rounded.pixel(0, 0) == [0, 0, 0, 0])
    }

    @Test func zeroRadiusChangesNothing() throws {
        let source = Image.solid(width: 6, height: 6, Self.color)
        #expect(try RoundedCorners(radius: 0).process(source).packedBytes() == source.packedBytes())
        #expect(throws: ImagePipelineError.self) { try RoundedCorners(radius: -1).process(source) }
    }

    @Test(arguments: [(50, 30), (30, 50), (31, 31), (64, 64)])
    func circleCropsToTheCentredSquare(width: Int, height: Int) throws {
        // Red and green encode the source position, to check which square was kept.
        let source = Image.make(width: width, height: height) { x, y in [UInt8(x), UInt8(y), 0, 255] }
        let circle = try Circle().process(source)
        let side = min(width, height)
        #expect(circle.dimensions == (side, side))
        let (offsetX, offsetY) = ((width - side) / 2, (height - side) / 2)
        let centre = side / 2
        #expect(circle.pixel(centre, centre) == [UInt8(centre + offsetX), UInt8(centre + offsetY), 0, 255])
        for (x, y) in [(0, 0), (side - 1, 0), (0, side - 1), (side - 1, side - 1)] { #expect(circle.pixel(x, y)[3] == 0) }
        // The alpha mask is a circle: symmetric under both flips and a quarter turn.
        let mask = Image.make(width: side, height: side, format: .gray8) { x, y in [circle.pixel(x, y)[3]] }
        #expect(try Self.isMirrorSymmetric(mask))
        #expect(try Rotate(.degrees90).process(mask) == mask)
        // Edge of the disc: strictly between transparent and opaque somewhere on each side's arc.
        let edgeAlphas = (0 ..< side).map { mask.pixel($0, side / 4)[0] }
        #expect(edgeAlphas.contains { $0 > 0 && $0 < 255 })
        // Disc area ≈ π r².
        let coverage = mask.packedBytes().reduce(0.0) { $0 + Double($1) / 255 }
        let expected = Double.pi * Double(side * side) / 4
        #expect(abs(coverage - expected) / expected < 0.02)
    }
}
