import ImageCore

/// Processors applied one after another, as one processor.
///
/// Its identifier is the members' identifiers joined with `|`, in order, e.g.
/// `orient()|resize(w=256,h=256,mode=fill,anchor=center,upscale=false,filter=lanczos3)|circle()`.
/// An empty chain has the identifier `""` and returns its input unchanged.
///
/// ```swift
/// let chain = ProcessorChain([Orient(), Resize(width: 256, height: 256, mode: .fill), Circle()])
/// let avatar = try chain.process(image)
/// ```
public struct ProcessorChain: ImageProcessor {
    /// The members, first applied first.
    public var processors: [any ImageProcessor]

    public init(_ processors: [any ImageProcessor]) {
        // Nested chains are flattened so that equal work always has the same identifier.
        self.processors = processors.flatMap { ($0 as? ProcessorChain)?.processors ?? [$0] }
    }

    public var identifier: String { processors.identifier }

    public func process(_ image: Image) throws -> Image {
        try processors.process(image)
    }

    /// What the first member needs (see ``ImageProcessor/minimumInputSize(for:)``).
    public func minimumInputSize(for original: PixelSize) -> PixelSize? {
        processors.minimumInputSize(for: original)
    }
}

extension Array where Element == any ImageProcessor {
    /// The identifiers of the processors joined with `|` (the ``ProcessorChain`` form).
    public var identifier: String {
        map(\.identifier).joined(separator: "|")
    }

    /// Applies the processors in order.
    public func process(_ image: Image) throws -> Image {
        var current = image
        for processor in self {
            try Task.checkCancellation()
            current = try processor.process(current)
        }
        return current
    }

    /// The first processor's ``ImageProcessor/minimumInputSize(for:)``; `nil` for an empty list.
    public func minimumInputSize(for original: PixelSize) -> PixelSize? {
        first?.minimumInputSize(for: original)
    }
}
