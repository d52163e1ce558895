/// Decode-size advice from a request's first processor (a downscaling resize): the JPEG decoder
/// may then decode at a DCT scale instead of full size. Its identifier becomes part of the
/// cache keys, so a reduced decode is never served to a request that needs full size.
struct ShrinkOnLoad: Sendable {
    /// The identifier of the processor that gave the advice.
    let identifier: String
    private let advice: @Sendable (PixelSize) -> PixelSize?

    init(identifier: String, advice: @escaping @Sendable (PixelSize) -> PixelSize?) {
        self.identifier = identifier
        self.advice = advice
    }

    /// The smallest size the decode may produce for a source of `original` size, or `nil` for full size.
    func minimumDecodeSize(_ original: PixelSize) -> PixelSize? { advice(original) }
}
