/// A width and height in pixels.
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    /// The dimensions of an image as stored.
    public init(_ image: Image) {
        self.init(width: image.width, height: image.height)
    }

    public var description: String { "\(width)x\(height)" }
}
