import ImageCore

extension Image {
    /// Applies `transform` to the image and to every frame in `metadata.frames`.
    ///
    /// The image's own pixels are the first frame; when `frames[0]` shares that memory (as
    /// decoders produce it) the first result is reused instead of computed twice. Frame images
    /// are processed with empty `frames` of their own. The result keeps the transformed image's
    /// metadata, with the transformed frames in place of the old ones.
    func mappingEveryFrame(_ transform: (Image) throws -> Image) rethrows -> Image {
        let frames = metadata.frames
        var still = self
        still.metadata.frames = []
        var result = try transform(still)
        guard !frames.isEmpty else { return result }
        var mapped: [AnimationFrame] = []
        mapped.reserveCapacity(frames.count)
        for (index, frame) in frames.enumerated() {
            if index == 0, frame.image.sharesStorage(with: self) {
                mapped.append(AnimationFrame(image: result, duration: frame.duration))
            } else {
                var frameImage = frame.image
                frameImage.metadata.frames = []
                mapped.append(AnimationFrame(image: try transform(frameImage), duration: frame.duration))
            }
        }
        result.metadata.frames = mapped
        return result
    }
}
