import CWebP
import Foundation
import ImageCore

/// Makes previews of a still WebP from a growing prefix of its bytes with libwebp's
/// incremental decoder (`WebPIDecoder`).
///
/// A preview is the full-size image with every row decoded so far; rows not yet decoded are
/// transparent black (alpha 0), so a viewer can draw it over a placeholder. ``append(_:)``
/// reports a new preview only after at least 1/8 of the height (one row for short images)
/// has been added since the last one, so a stream of small chunks does not cause a copy per
/// chunk. Animated WebP gives no previews (``makePreview()`` returns `nil`); the final image
/// comes from ``WebPDecoder``.
///
/// ```swift
/// let progressive = ProgressiveWebPDecoder()
/// for chunk in chunks where progressive.append(chunk) {
///     if let preview = try progressive.makePreview() { show(preview) }
/// }
/// ```
public final class ProgressiveWebPDecoder: ProgressiveImageDecoding {
    private let options: DecodingOptions
    /// Bytes kept until the header is known (the incremental decoder is created only then,
    /// after the pixel-count check, because it allocates the output as soon as it can).
    private var pendingHeader = Data()
    private var features: WebPFeatures?
    private var decoder: OpaquePointer?
    private var failure: ImagePipelineError?
    private var rowsInLastPreview = 0

    /// - Parameter options: the pixel-count limit applies before the decoder allocates.
    public init(options: DecodingOptions = DecodingOptions()) {
        self.options = options
    }

    deinit {
        if let decoder { WebPIDelete(decoder) }
    }

    public func append(_ chunk: Data) -> Bool {
        guard failure == nil, !chunk.isEmpty else { return false }
        if let features {
            guard !features.hasAnimation else { return false }
            feed(chunk)
        } else {
            pendingHeader.append(chunk)
            startIfHeaderComplete()
        }
        guard let features, !features.hasAnimation, failure == nil else { return false }
        let rows = decodedRows()
        let step = max(1, features.height / 8)
        return rows >= min(features.height, rowsInLastPreview + step) && rows > rowsInLastPreview
    }

    public func makePreview() throws(ImagePipelineError) -> Image? {
        if let failure { throw failure }
        guard let features, !features.hasAnimation, let decoder else { return nil }
        var lastRow: Int32 = 0, width: Int32 = 0, height: Int32 = 0, stride: Int32 = 0
        guard let rgba = WebPIDecGetRGB(decoder, &lastRow, &width, &height, &stride), lastRow > 0,
              Int(width) == features.width, Int(height) == features.height else { return nil }
        var preview = Image(width: features.width, height: features.height, pixelFormat: .rgba8,
                            metadata: ImageMetadata(sourceFormat: .webp, hasAlpha: true))
        let destinationStride = preview.bytesPerRow, rowLength = features.width * 4
        let rows = Int(lastRow)
        preview.withUnsafeMutableBytes { pixels in
            for row in 0 ..< rows {
                (pixels.baseAddress! + row * destinationStride)
                    .copyMemory(from: rgba + row * Int(stride), byteCount: rowLength)
            }
        }
        rowsInLastPreview = rows
        return preview
    }

    private func startIfHeaderComplete() {
        let read: Result<WebPFeatures?, ImagePipelineError> = pendingHeader.withUnsafeBytes { bytes in
            do throws(ImagePipelineError) { return .success(try WebPFeatures.read(bytes)) } catch { return .failure(error) }
        }
        let header: WebPFeatures?
        switch read {
        case .success(let features): header = features
        case .failure(let error): failure = error; return
        }
        guard let header else { return }
        guard header.width > 0, header.height > 0 else {
            failure = .corruptData(format: .webp, message: "the header declares an empty image")
            return
        }
        do {
            try options.checkPixelCount(width: header.width, height: header.height)
        } catch {
            failure = error
            return
        }
        features = header
        guard !header.hasAnimation else { pendingHeader = Data(); return }
        // MODE_RGBA: straight alpha. libwebp owns the output buffer; previews copy from it.
        guard let created = WebPINewRGB(MODE_RGBA, nil, 0, 0) else {
            failure = .corruptData(format: .webp, message: "libwebp could not start an incremental decode")
            return
        }
        decoder = created
        let buffered = pendingHeader
        pendingHeader = Data()
        feed(buffered)
    }

    private func feed(_ chunk: Data) {
        guard let decoder else { return }
        let status = chunk.withUnsafeBytes { bytes in
            WebPIAppend(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        }
        if status != VP8_STATUS_OK && status != VP8_STATUS_SUSPENDED {
            failure = .corruptData(format: .webp, message: WebPFeatures.describe(status))
        }
    }

    private func decodedRows() -> Int {
        guard let decoder else { return 0 }
        var lastRow: Int32 = 0, width: Int32 = 0, height: Int32 = 0, stride: Int32 = 0
        guard WebPIDecGetRGB(decoder, &lastRow, &width, &height, &stride) != nil else { return 0 }
        return Int(lastRow)
    }
}
