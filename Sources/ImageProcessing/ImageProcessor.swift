import ImageCore

/// A transformation of an ``ImageCore/Image``, described by a stable identifier.
///
/// Processors are `Sendable` value types. The pipeline runs ``process(_:)`` on its own worker
/// threads (never on Swift's cooperative pool), so an implementation is plain synchronous,
/// single-threaded CPU work.
///
/// ## Identifiers
/// ``identifier`` goes into memory- and disk-cache keys, so it must name every parameter that
/// changes the output and must never change between releases for the same parameters. Built-in
/// processors use the form `name(key=value,key=value)`, keys in a fixed order, for example
/// `resize(w=256,h=256,mode=fill,anchor=center,upscale=false,filter=lanczos3)`. Numbers are
/// written in their shortest exact decimal form (`8`, `2.5`). A chain joins its members with
/// `|` (see ``ProcessorChain``); a ``CustomProcessor`` escapes the caller's text so it cannot
/// forge either form.
///
/// ## Animated images
/// Built-in processors apply to every frame: the image itself (the first frame) and every
/// ``ImageCore/AnimationFrame`` in `metadata.frames`, so an animation stays an animation.
///
/// ## Orientation
/// Every processor except ``Orient`` works on the stored pixels and leaves
/// `metadata.orientation` alone. Put ``Orient`` first when sizes and anchors are meant for the
/// upright image.
///
/// ```swift
/// let thumbnail = try Resize(width: 256, height: 256, mode: .fill).process(image)
/// ```
public protocol ImageProcessor: Sendable {
    /// A stable description of this processor and all of its parameters (see the type docs).
    var identifier: String { get }

    /// Returns the processed image, or throws ``ImageCore/ImagePipelineError/processingFailed(processor:message:)``.
    func process(_ image: Image) throws -> Image

    /// The smallest decoded size this processor needs from a source of size `original` to give
    /// the same result as from the full-size source, or `nil` when it needs the full size.
    ///
    /// A pipeline uses it for shrink-on-load: a JPEG decoder can decode at 1/2 … 1/8 scale
    /// when the result still covers this size on both sides. Only a downscaling ``Resize``
    /// returns non-`nil`; the default implementation returns `nil`.
    func minimumInputSize(for original: PixelSize) -> PixelSize?
}

extension ImageProcessor {
    public func minimumInputSize(for original: PixelSize) -> PixelSize? { nil }
}
