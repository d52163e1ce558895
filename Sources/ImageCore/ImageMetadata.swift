/// What is known about an image beyond its pixels.
public struct ImageMetadata: Sendable, Equatable {
    /// The encoded format the image was decoded from; `nil` for images made in memory.
    public var sourceFormat: ImageFormat?
    /// The EXIF orientation of the stored pixels. Decoders never apply it themselves;
    /// the `Orient` processor (or ``Image/orientation`` aware code) does.
    public var orientation: ExifOrientation
    /// Whether the source can carry transparency: an alpha channel, a PNG tRNS chunk or a GIF
    /// transparent colour index. It says nothing about whether any pixel is actually transparent.
    public var hasAlpha: Bool
    /// Every frame of an animated image, the first included; empty for a still image.
    public var frames: [AnimationFrame]
    /// How many times an animation plays; `0` means forever.
    public var loopCount: Int

    public init(sourceFormat: ImageFormat? = nil, orientation: ExifOrientation = .up, hasAlpha: Bool = false,
                frames: [AnimationFrame] = [], loopCount: Int = 0) {
        self.sourceFormat = sourceFormat
        self.orientation = orientation
        self.hasAlpha = hasAlpha
        self.frames = frames
        self.loopCount = loopCount
    }

    /// Whether the image has more than one frame.
    public var isAnimated: Bool { frames.count > 1 }
}

/// One frame of an animation, composited onto the full canvas (so it can be shown on its own).
public struct AnimationFrame: Sendable, Equatable {
    /// The full-canvas pixels of this frame.
    public var image: Image
    /// How long the frame stays on screen, in seconds.
    public var duration: Double

    public init(image: Image, duration: Double) {
        self.image = image
        self.duration = duration
    }
}
