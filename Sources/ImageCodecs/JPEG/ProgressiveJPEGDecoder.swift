import Foundation
import ImageCore

/// Previews of a progressive JPEG while it downloads: one per completed scan.
///
/// ``append(_:)`` follows the marker structure incrementally (cheap: each byte is looked at
/// once) and returns `true` when a new scan has ended, that is, when the marker after it (the
/// next scan's tables or SOS, or EOI) has arrived. ``makePreview()`` decodes the data up to the
/// end of the last complete scan with an EOI appended: a full-size image whose detail grows
/// with each scan. The scan ended by EOI gives the complete image.
///
/// A baseline (sequential) JPEG gives no previews: ``append(_:)`` always returns `false` and
/// ``makePreview()`` returns `nil`; the final image comes from ``JPEGDecoder``.
///
/// ```swift
/// let progressive = ProgressiveJPEGDecoder()
/// for chunk in chunks where progressive.append(chunk) {
///     if let preview = try progressive.makePreview() { show(preview) }
/// }
/// ```
public final class ProgressiveJPEGDecoder: ProgressiveImageDecoding {
    private let options: DecodingOptions
    private var bytes: [UInt8] = []
    private var tracker = JPEGScanTracker()
    private var reportedScans = 0

    /// - Parameter options: applied to every preview (pixel limit, DCT-scaled preview size).
    public init(options: DecodingOptions = DecodingOptions()) {
        self.options = options
    }

    public func append(_ chunk: Data) -> Bool {
        bytes.append(contentsOf: chunk)
        guard bytes.count >= 3 else { return false }
        guard bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF else { return false }
        bytes.withUnsafeBytes { tracker.advance(over: $0) }
        guard tracker.isProgressive, tracker.completedScans > reportedScans else { return false }
        reportedScans = tracker.completedScans
        return true
    }

    public func makePreview() throws(ImagePipelineError) -> Image? {
        if tracker.isMalformed || (bytes.count >= 3 && !(bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF)) {
            throw .corruptData(format: .jpeg, message: "broken marker structure")
        }
        guard tracker.isProgressive, let end = tracker.lastScanEnd else { return nil }
        var prefix = Data(capacity: end + 2)
        prefix.append(contentsOf: bytes[0 ..< end])
        prefix.append(contentsOf: [0xFF, 0xD9])
        return try JPEGDecoder().decode(prefix, options: options)
    }
}
