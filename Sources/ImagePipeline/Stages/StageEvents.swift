import Foundation

/// What the loading stage publishes: body bytes as they arrive, then the whole body.
enum LoadEvent: Sendable {
    /// Bytes `offset ..< offset + data.count` of the body. A subscriber that joined late sees an
    /// offset past what it has; it then waits for `complete` (no previews from a partial prefix).
    case chunk(Data, offset: Int)
    /// The complete body and where it came from.
    case complete(LoadedData)
}

/// A complete body with its provenance.
struct LoadedData: Sendable {
    var data: Data
    var source: ImageSource
    var httpStatus: Int?
    /// Response headers, names lowercased.
    var headers: [String: String]
    /// Whether the bytes should be written to the disk store once they have decoded cleanly
    /// (nothing undecodable is ever cached).
    var storeOnDisk: Bool
}

/// What the decoding and processing stages publish: previews, then the final image.
enum FrameEvent: Sendable {
    case preview(Image)
    case final(FinalImage)
}

/// The final image of a stage plus what the response needs to say about it.
struct FinalImage: Sendable {
    var image: Image
    var source: ImageSource
    var httpStatus: Int?
    var headers: [String: String]
}
