import ImageCore
import ImageProcessing
import Testing

@Suite struct BlurTests {
    @Test(arguments: [0.5, 1, 3, 8, 40, 500])
    func constantImageStaysConstant(radius: Double) throws {
        for (format, value) in [(PixelFormat.rgba8, [UInt8]([12, 200, 77, 255])), (.gray8, [99]), (.rgba8Premultiplied, [60, 20, 100, 128])] {
            let source = Image.solid(width: 37, height: 23, format: format, value)
            let blurred = try GaussianBlur(radius: radius).process(source)
            #expect(blurred.pixelFormat == format)
            #expect(blurred.packedBytes() == source.packedBytes(), "\(format) radius \(radius)")
        }
    }

    @Test(arguments: [1.0, 2.5, 6, 30])
    func symmetricInputGivesSymmetricOutput(radius: Double) throws {
        // Symmetric under both flips: a pattern of |x - c| and |y - c|.
        let source = Image.make(width: 41, height: 29) { x, y in
            let dx = abs(x - 20), dy = abs(y - 14)
            return [UInt8((dx * 37 + dy * 11) % 256), UInt8((dx * dy * 5) % 256), dx < 3 && dy < 3 ? 255 : 0, 255]
        }
        let blurred = try GaussianBlur(radius: radius).process(source)
        #expect(try Flip(.horizontal).process(blurred) == blurred)
        #expect(try Flip(.vertical).process(blurred) == blurred)
        #expect(blurred != source)
    }

    /// A bright vertical line spreads into a horizontal profile whose variance is about σ².
    /// (Three boxes match σ² only to within ~15% for σ < 4: see GaussianBlur.boxRadii.)
    @Test(arguments: [4.0, 6, 8])
    func spreadMatchesTheGaussian(sigma: Double) throws {
        let source = Image.make(width: 121, height: 5, format: .gray8) { x, _ in [x == 60 ? 255 : 0] }
        let blurred = try GaussianBlur(radius: sigma).process(source)
        let profile = (0 ..< 121).map { Double(blurred.pixel($0, 2)[0]) }
        let total = profile.reduce(0, +)
        let variance = profile.enumerated().reduce(0.0) { $0 + $1.element * Double(($1.offset - 60) * ($1.offset - 60)) } / total
        #expect(abs(variance - sigma * sigma) / (sigma * sigma) < 0.15, "variance \(variance)")
        #expect(abs(total - 255) < 16)
        #expect(profile[60] == profile.max())
    }

    /// A large radius costs the same per pixel; here only its result is checked: a step edge
    /// becomes a smooth monotonic ramp with the right mean, nothing overflows.
    @Test func largeRadiusGivesASmoothRamp() throws {
        let source = Image.make(width: 600, height: 12, format: .gray8) { x, _ in [x < 300 ? 0 : 240] }
        let blurred = try GaussianBlur(radius: 150).process(source)
        let row = (0 ..< 600).map { blurred.pixel($0, 6)[0] }
        #expect(row == row.sorted())
        #expect(row[0] > 0 && row[599] < 240)
        #expect(abs(Int(row[299]) + Int(row[300]) - 240) <= 4)
        #expect(abs(Double(row.map(Int.init).reduce(0, +)) / 600 - 120) < 2)
        #expect(throws: ImagePipelineError.self) { try GaussianBlur(radius: 1e9).process(source) }
    }

    @Test func transparentNeighboursLeaveNoFringe() throws {
        let source = Image.make(width: 30, height: 30) { x, _ in x < 15 ? [255, 0, 0, 128] : [0, 255, 0, 0] }
        let blurred = try GaussianBlur(radius: 3).process(source)
        #expect(blurred.pixelFormat == .rgba8)
        let packed = blurred.packedBytes()
        let fringed = stride(from: 0, to: packed.count, by: 4).filter { packed[$0 + 3] >= 16 && (packed[$0 + 1] != 0 || packed[$0] < 240) }
        #expect(fringed.isEmpty, "fringed pixels at byte offsets \(fringed.prefix(8))")
    }
}
