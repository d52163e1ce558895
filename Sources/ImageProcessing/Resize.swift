import ImageCore

/// Scales an image: to fit inside a box, to fill a box (cropping the overflow at an
/// ``Anchor``), or to an exact size.
///
/// Resampling is separable with precomputed weights, done in premultiplied alpha so transparent
/// pixels leave no dark fringes; the result has the input's pixel format (straight `rgba8`
/// stays straight, `gray8` stays gray). Reductions by more than 4× first average integer
/// blocks of pixels, then resample the rest with the filter (as libvips does). Single-threaded.
///
/// Without `upscale`, a source smaller than the target is never enlarged: `.fit` returns it
/// unchanged, `.fill` only crops it to at most the target size, `.exact` clamps each side to the
/// source's side.
///
/// Identifier: `resize(w=256,h=256,mode=fill,anchor=center,upscale=false,filter=lanczos3)`.
///
/// ```swift
/// let thumbnail = try Resize(width: 256, height: 256, mode: .fill).process(image)
/// ```
public struct Resize: ImageProcessor {
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// Keep the aspect ratio; the result fits inside the box (one side may be shorter).
        case fit
        /// Keep the aspect ratio; cover the box, then crop the overflow at the anchor.
        case fill
        /// Stretch to exactly the box.
        case exact
    }

    /// Largest output the processor agrees to allocate (256 megapixels).
    public static let maxOutputPixelCount = 1 << 28

    public var width: Int
    public var height: Int
    public var mode: Mode
    /// Which part `.fill` keeps; ignored by the other modes (but still part of the identifier).
    public var anchor: Anchor
    public var allowsUpscaling: Bool
    public var filter: ResamplingFilter

    public init(width: Int, height: Int, mode: Mode = .fit, anchor: Anchor = .center, upscale: Bool = false,
                filter: ResamplingFilter = .lanczos3) {
        self.width = width
        self.height = height
        self.mode = mode
        self.anchor = anchor
        self.allowsUpscaling = upscale
        self.filter = filter
    }

    public var identifier: String {
        ProcessorIdentifier.make("resize", ["w": "\(width)", "h": "\(height)", "mode": mode.rawValue,
                                            "anchor": anchor.rawValue, "upscale": "\(allowsUpscaling)",
                                            "filter": filter.rawValue])
    }

    public func process(_ image: Image) throws -> Image {
        guard width > 0, height > 0 else {
            throw ImagePipelineError.processing(self, "target size \(width)x\(height) must be positive")
        }
        return try image.mappingEveryFrame { frame in
            let plan = self.plan(for: PixelSize(frame))
            guard plan.output.width.multipliedReportingOverflow(by: plan.output.height).partialValue
                    <= Self.maxOutputPixelCount else {
                throw ImagePipelineError.processing(self, "output \(plan.output) exceeds \(Self.maxOutputPixelCount) pixels")
            }
            if let crop = plan.integerCrop { return frame.cropped(to: crop) }
            return Resampler(source: frame, outputWidth: plan.output.width, outputHeight: plan.output.height,
                             filter: filter, window: plan.window).run()
        }
    }

    /// The smallest source this resize gives the same output size from; `nil` unless it reduces.
    ///
    /// It is the output size (`.fit`, `.exact`) or the scaled size before cropping (`.fill`).
    /// Decoding at that size or larger, then resizing, yields an image of the same dimensions
    /// (up to one pixel of rounding when the decoder's reduced size does not keep the exact
    /// aspect ratio).
    public func minimumInputSize(for original: PixelSize) -> PixelSize? {
        guard width > 0, height > 0, original.width > 0, original.height > 0 else { return nil }
        let needed: PixelSize
        switch mode {
        case .fit, .fill:
            let scale = aspectScale(for: original)
            guard scale < 1 else { return nil }
            needed = PixelSize(width: max(1, Int((Double(original.width) * scale - 1e-9).rounded(.up))),
                                     height: max(1, Int((Double(original.height) * scale - 1e-9).rounded(.up))))
        case .exact:
            needed = PixelSize(width: min(width, original.width), height: min(height, original.height))
        }
        return needed == original ? nil : needed
    }

    // MARK: Geometry

    struct Plan {
        /// Size of the result.
        var output: PixelSize
        /// The source window that maps onto the result, in source pixels.
        var window: (x: Double, y: Double, width: Double, height: Double)
        /// Set when no scaling is needed at all, only this crop (or none: the full rectangle).
        var integerCrop: PixelRect?
    }

    /// Scale factor of `.fit` / `.fill` for a source, upscaling limited as configured.
    private func aspectScale(for source: PixelSize) -> Double {
        let scaleX = Double(width) / Double(source.width), scaleY = Double(height) / Double(source.height)
        let scale = mode == .fill ? max(scaleX, scaleY) : min(scaleX, scaleY)
        return allowsUpscaling ? scale : min(scale, 1)
    }

    func plan(for source: PixelSize) -> Plan {
        let sourceWidth = Double(source.width), sourceHeight = Double(source.height)
        let full = (x: 0.0, y: 0.0, width: sourceWidth, height: sourceHeight)
        var plan: Plan
        switch mode {
        case .fit:
            let scale = aspectScale(for: source)
            let output = PixelSize(width: min(width, max(1, Int((sourceWidth * scale).rounded()))),
                                         height: min(height, max(1, Int((sourceHeight * scale).rounded()))))
            plan = Plan(output: output, window: full)
        case .exact:
            let output = allowsUpscaling ? PixelSize(width: width, height: height)
                : PixelSize(width: min(width, source.width), height: min(height, source.height))
            plan = Plan(output: output, window: full)
        case .fill:
            let scale = aspectScale(for: source)
            let output = PixelSize(width: min(width, max(1, Int((sourceWidth * scale).rounded()))),
                                         height: min(height, max(1, Int((sourceHeight * scale).rounded()))))
            // The window keeps the output's aspect ratio exactly, so pixels stay square.
            let windowWidth = min(sourceWidth, Double(output.width) / scale)
            let windowHeight = min(sourceHeight, Double(output.height) / scale)
            plan = Plan(output: output, window: ((sourceWidth - windowWidth) * anchor.horizontalFraction,
                                                 (sourceHeight - windowHeight) * anchor.verticalFraction,
                                                 windowWidth, windowHeight))
            if scale == 1 {
                // Pure crop: snap to whole pixels rather than resample half a pixel off.
                let origin = anchor.origin(of: output, in: source)
                plan.integerCrop = PixelRect(x: origin.x, y: origin.y, width: output.width, height: output.height)
            }
        }
        if plan.output == source, plan.window.width == sourceWidth, plan.window.height == sourceHeight {
            plan.integerCrop = PixelRect(x: 0, y: 0, width: source.width, height: source.height)
        }
        return plan
    }
}
