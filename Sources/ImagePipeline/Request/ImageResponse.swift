import Foundation

/// Where an image came from.
public enum ImageSource: String, Sendable, Hashable, Codable {
    /// The memory cache (the processed image itself).
    case memory
    /// The disk store, fresh.
    case disk
    /// The network (or a file: / data: URL).
    case network
    /// The disk store, after the server confirmed with 304 Not Modified that it is current.
    case revalidated
}

/// A loaded image with where it came from and the HTTP metadata of its transfer.
public struct ImageResponse: Sendable {
    /// The processed image.
    public var image: Image
    /// Memory, disk, network or revalidated.
    public var source: ImageSource
    /// The URL that was requested.
    public var url: URL
    /// The HTTP status of the transfer that produced the bytes (`nil` when served from a cache
    /// without a transfer, or for file: and data: URLs).
    public var httpStatus: Int?
    /// Response headers of that transfer (names lowercased).
    public var headers: [String: String]
}

/// One frame of a progressive load: previews while bytes arrive, then the final image.
public struct ImageFrame: Sendable {
    /// A preview (processed like the final image) or the final image.
    public var image: Image
    /// `true` for the last frame of the stream, which is the complete image.
    public var isFinal: Bool
    /// For the final frame, the full response; `nil` for previews.
    public var response: ImageResponse?
}
