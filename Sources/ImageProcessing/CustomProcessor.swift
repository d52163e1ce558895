import ImageCore

/// A processor backed by a closure, for work the built-ins do not cover.
///
/// The caller names the work: the identifier is `custom(id=<text>)` with the characters
/// `% ( ) , = |` in the text written as `%XX`, so it cannot collide with a built-in processor
/// or a chain. Give every distinct piece of work (and every distinct parameter value) its own text,
/// because results are cached under it.
///
/// The closure runs once per frame of an animated image. Errors it throws that are not
/// ``ImageCore/ImagePipelineError`` or `CancellationError` are reported as
/// ``ImageCore/ImagePipelineError/processingFailed(processor:message:)``.
///
/// ```swift
/// let invert = CustomProcessor(identifier: "invert-v1") { image in
///     var copy = image
///     copy.withUnsafeMutableBytes { bytes in for i in bytes.indices { bytes[i] = 255 &- bytes[i] } }
///     return copy
/// }
/// ```
public struct CustomProcessor: ImageProcessor {
    /// The caller's text, unescaped.
    public let name: String
    private let transform: @Sendable (Image) throws -> Image

    public init(identifier: String, _ transform: @escaping @Sendable (Image) throws -> Image) {
        self.name = identifier
        self.transform = transform
    }

    public var identifier: String {
        ProcessorIdentifier.make("custom", ["id": ProcessorIdentifier.escape(name)])
    }

    public func process(_ image: Image) throws -> Image {
        do {
            return try image.mappingEveryFrame(transform)
        } catch let error as ImagePipelineError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            throw ImagePipelineError.processing(self, String(describing: error))
        }
    }
}
