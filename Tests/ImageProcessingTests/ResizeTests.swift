import ImageCore
import ImageProcessing
import Testing

@Suite struct ResizeTests {
    /// A smooth, non-trivial opaque test picture.
    static func picture(_ width: Int, _ height: Int, format: PixelFormat = .rgba8) -> Image {
        Image.make(width: width, height: height, format: format) { x, y in
            let r = UInt8((x * 255) / max(width - 1, 1)), g = UInt8((y * 255) / max(height - 1, 1))
            return format == .gray8 ? [UInt8((Int(r) + Int(g)) / 2)] : [r, g, UInt8((x + y) % 256), 255]
        }
    }

    @Test(arguments: [
        (Resize.Mode.fit, 768, 512, 256, 256, 256, 171),
        (.fit, 512, 768, 256, 256, 171, 256),
        (.fit, 768, 512, 300, 100, 150, 100),
        (.fill, 768, 512, 256, 256, 256, 256),
        (.fill, 512, 768, 100, 300, 100, 300),
        (.exact, 768, 512, 100, 300, 100, 300),
        (.exact, 768, 512, 1, 1, 1, 1),
    ])
    func outputSizes(mode: Resize.Mode, sourceWidth: Int, sourceHeight: Int, width: Int, height: Int,
                     expectedWidth: Int, expectedHeight: Int) throws {
        for filter in ResamplingFilter.allCases {
            let result = try Resize(width: width, height: height, mode: mode, filter: filter)
                .process(Self.picture(sourceWidth, sourceHeight))
            #expect(result.dimensions == (expectedWidth, expectedHeight), "\(filter)")
            #expect(result.pixelFormat == .rgba8)
        }
    }

    @Test func noUpscalingUnlessAllowed() throws {
        let small = Self.picture(100, 50)
        #expect(try Resize(width: 200, height: 200, mode: .fit).process(small) == small)
        #expect(try Resize(width: 200, height: 200, mode: .fill).process(small) == small)
        #expect(try Resize(width: 200, height: 30, mode: .exact).process(small).dimensions == (100, 30))
        // Fill without upscaling only crops: 80x50 out of the middle, pixels untouched.
        let cropped = try Resize(width: 80, height: 80, mode: .fill).process(small)
        #expect(cropped == (try Crop(width: 80, height: 50).process(small)))

        #expect(try Resize(width: 200, height: 200, mode: .fit, upscale: true).process(small).dimensions == (200, 100))
        #expect(try Resize(width: 200, height: 200, mode: .fill, upscale: true).process(small).dimensions == (200, 200))
        #expect(try Resize(width: 200, height: 30, mode: .exact, upscale: true).process(small).dimensions == (200, 30))
    }

    @Test func fillKeepsTheAnchoredPart() throws {
        // Red encodes the source column, so the first output column tells where the crop window starts.
        let source = Image.make(width: 200, height: 100) { x, _ in [UInt8(x), 0, 0, 255] }
        let expectedStart: [Anchor: UInt8] = [.left: 0, .topLeft: 0, .bottomLeft: 0, .center: 50, .top: 50,
                                              .bottom: 50, .right: 100, .topRight: 100, .bottomRight: 100]
        for (anchor, start) in expectedStart {
            let result = try Resize(width: 100, height: 100, mode: .fill, anchor: anchor).process(source)
            #expect(result.dimensions == (100, 100))
            #expect(result.pixel(0, 0)[0] == start, "\(anchor)")
            #expect(result.pixel(99, 99)[0] == start + 99, "\(anchor)")
        }
        // Scaled: 400x200 into 100x100 keeps a 200x200 window; red = x/2, so column 0 averages the window start.
        let wide = Image.make(width: 400, height: 200) { x, _ in [UInt8(x / 2), 0, 0, 255] }
        let left = try Resize(width: 100, height: 100, mode: .fill, anchor: .left).process(wide)
        let center = try Resize(width: 100, height: 100, mode: .fill, anchor: .center).process(wide)
        let right = try Resize(width: 100, height: 100, mode: .fill, anchor: .right).process(wide)
        #expect(abs(Int(left.pixel(50, 50)[0]) - 50) <= 1)
        #expect(abs(Int(center.pixel(50, 50)[0]) - 100) <= 1)
        #expect(abs(Int(right.pixel(50, 50)[0]) - 150) <= 1)
    }

    @Test(arguments: ResamplingFilter.allCases)
    func constantStaysConstant(filter: ResamplingFilter) throws {
        for (format, value) in [(PixelFormat.rgba8, [UInt8]([12, 200, 77, 255])), (.gray8, [99]), (.rgba8, [200, 100, 50, 128])] {
            let source = Image.solid(width: 97, height: 61, format: format, value)
            for (w, h) in [(31, 20), (10, 7), (200, 130), (97, 30)] {
                let result = try Resize(width: w, height: h, mode: .exact, upscale: true, filter: filter).process(source)
                #expect(result.dimensions == (w, h))
                // Opaque and gray are exact; half-transparent colour goes through 8-bit premultiplied
                // alpha, which cannot round-trip every value (200·128/255 → 100 → 199).
                let tolerance = value.count == 4 && value[3] < 255 ? 1 : 0
                let packed = result.packedBytes()
                let bad = packed.indices.filter { i in
                    let expected = value[i % value.count]
                    return i % value.count == value.count - 1 ? packed[i] != expected : abs(Int(packed[i]) - Int(expected)) > tolerance
                }
                #expect(bad.isEmpty, "\(format) \(w)x\(h): wrong bytes at \(bad.prefix(8))")
            }
        }
    }

    /// Half-transparent red next to fully transparent green: resampling in straight alpha would
    /// mix in green (and darken); in premultiplied alpha the visible colour stays pure red.
    @Test(arguments: ResamplingFilter.allCases)
    func noFringesFromTransparentNeighbours(filter: ResamplingFilter) throws {
        let source = Image.make(width: 40, height: 40) { x, y in
            (x / 5 + y / 5) % 2 == 0 ? [255, 0, 0, 128] : [0, 255, 0, 0]
        }
        for (w, h) in [(13, 13), (7, 9), (90, 90)] {
            let result = try Resize(width: w, height: h, mode: .exact, upscale: true, filter: filter).process(source)
            #expect(result.pixelFormat == .rgba8)
            let packed = result.packedBytes()
            let fringed = stride(from: 0, to: packed.count, by: 4).filter {
                packed[$0 + 3] >= 16 && (packed[$0 + 1] != 0 || packed[$0 + 2] != 0 || packed[$0] < 240)
            }
            #expect(fringed.isEmpty, "\(w)x\(h): fringed pixels at byte offsets \(fringed.prefix(8))")
        }
    }

    @Test func premultipliedInputStaysPremultiplied() throws {
        let source = Image.make(width: 30, height: 30) { x, _ in x < 15 ? [255, 0, 0, 128] : [0, 255, 0, 0] }
            .converted(to: .rgba8Premultiplied)
        let result = try Resize(width: 9, height: 9, mode: .exact).process(source)
        #expect(result.pixelFormat == .rgba8Premultiplied)
        for y in 0 ..< 9 { for x in 0 ..< 9 { let p = result.pixel(x, y); #expect(p[0] <= p[3] && p[1] == 0) } }
    }

    @Test(arguments: ResamplingFilter.allCases)
    func grayStaysGrayAndMatchesRGBA(filter: ResamplingFilter) throws {
        let gray = Self.picture(120, 80, format: .gray8)
        let rgba = gray.converted(to: .rgba8)
        for (w, h) in [(40, 27), (50, 80), (200, 133)] {
            let resize = Resize(width: w, height: h, mode: .exact, upscale: true, filter: filter)
            let grayResult = try resize.process(gray)
            let rgbaResult = try resize.process(rgba)
            #expect(grayResult.pixelFormat == .gray8)
            #expect(grayResult.dimensions == (w, h))
            let difference = zip(grayResult.channel(0), rgbaResult.channel(0)).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(difference <= 1, "\(w)x\(h)")
        }
    }

    /// A large reduction goes through the box pre-shrink; a linear ramp must come out as the
    /// same ramp sampled at the output pixel centres (so the coordinate mapping is right).
    @Test(arguments: [(1024, 64), (1000, 60), (999, 100), (1024, 300)])
    func largeReductionsKeepGeometry(sourceWidth: Int, outputWidth: Int) throws {
        let source = Image.make(width: sourceWidth, height: 16) { x, _ in [UInt8(x * 255 / (sourceWidth - 1)), 0, 0, 255] }
        let result = try Resize(width: outputWidth, height: 4, mode: .exact).process(source)
        let scale = Double(sourceWidth) / Double(outputWidth)
        for x in 4 ..< outputWidth - 4 {
            let center = (Double(x) + 0.5) * scale - 0.5
            let expected = center * 255 / Double(sourceWidth - 1)
            #expect(abs(Double(result.pixel(x, 2)[0]) - expected) <= 1.6, "x=\(x)")
        }
    }

    @Test func minimumInputSizeForShrinkOnLoad() throws {
        let original = PixelSize(width: 4000, height: 3000)
        #expect(Resize(width: 256, height: 256, mode: .fit).minimumInputSize(for: original) == PixelSize(width: 256, height: 192))
        #expect(Resize(width: 256, height: 256, mode: .fill).minimumInputSize(for: original) == PixelSize(width: 342, height: 256))
        #expect(Resize(width: 100, height: 5000, mode: .exact).minimumInputSize(for: original) == PixelSize(width: 100, height: 3000))
        #expect(Resize(width: 8000, height: 8000, mode: .fit, upscale: true).minimumInputSize(for: original) == nil)
        #expect(Resize(width: 4000, height: 3000, mode: .fill).minimumInputSize(for: original) == nil)
        #expect(Crop(width: 10, height: 10).minimumInputSize(for: original) == nil)
        #expect(GaussianBlur().minimumInputSize(for: original) == nil)
        let chain = ProcessorChain([Resize(width: 256, height: 256, mode: .fill), Circle()])
        #expect(chain.minimumInputSize(for: original) == PixelSize(width: 342, height: 256))
        #expect(ProcessorChain([Circle(), Resize(width: 256, height: 256)]).minimumInputSize(for: original) == nil)

        // Resizing from the minimum size gives the same output size as from the original.
        for mode in Resize.Mode.allCases {
            let resize = Resize(width: 120, height: 90, mode: mode)
            let source = PixelSize(width: 800, height: 500)
            let minimum = try #require(resize.minimumInputSize(for: source))
            let fromFull = try resize.process(Self.picture(source.width, source.height))
            let fromMinimum = try resize.process(Self.picture(minimum.width, minimum.height))
            #expect(fromFull.dimensions == fromMinimum.dimensions, "\(mode)")
        }
    }

    @Test func invalidTargetsFail() {
        let image = Self.picture(10, 10)
        let zero = Resize(width: 0, height: 10)
        #expect(throws: ImagePipelineError.processingFailed(processor: zero.identifier, message: "target size 0x10 must be positive")) {
            try zero.process(image)
        }
        #expect(throws: ImagePipelineError.self) {
            try Resize(width: 100_000, height: 100_000, mode: .exact, upscale: true).process(image)
        }
    }
}
