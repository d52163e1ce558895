import ImageCore

/// Bounds the memory an animated decode may allocate.
///
/// Every frame of an animation is a full-canvas image, so the pixel-count limit of
/// ``DecodingOptions/maxPixelCount`` applies to all frames together (`canvas × frames`), and a
/// frame count cap stops files of many tiny frames (each still costs an allocation). The WebP
/// and GIF decoders admit each frame here before allocating it.
struct AnimationFrameBudget {
    /// Most frames one decode accepts. A 380-frame GIF is ordinary; tens of thousands are not.
    static let maxFrameCount = 10_000

    let canvasWidth: Int
    let canvasHeight: Int
    let maxPixelCount: Int
    private(set) var admittedFrames = 0

    init(canvasWidth: Int, canvasHeight: Int, maxPixelCount: Int) {
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.maxPixelCount = maxPixelCount
    }

    /// Throws when `frameCount` frames would not fit the budget.
    func check(frameCount: Int, format: ImageFormat) throws(ImagePipelineError) {
        guard frameCount <= Self.maxFrameCount else {
            throw .corruptData(format: format, message: "more than \(Self.maxFrameCount) frames")
        }
        let (total, overflow) = (canvasWidth * canvasHeight).multipliedReportingOverflow(by: frameCount)
        if overflow || total > maxPixelCount {
            // Reported as one tall image: the pixels of all frames stacked.
            throw .imageTooLarge(width: canvasWidth, height: canvasHeight * frameCount, maxPixelCount: maxPixelCount)
        }
    }

    /// Counts one more frame, throwing when it would not fit.
    mutating func admitFrame(format: ImageFormat) throws(ImagePipelineError) {
        try check(frameCount: admittedFrames + 1, format: format)
        admittedFrames += 1
    }
}
