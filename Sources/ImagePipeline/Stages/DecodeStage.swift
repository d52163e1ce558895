import Foundation

/// The middle stage: bytes in, images out. Feeds a progressive decoder while bytes arrive (when
/// a subscriber wants previews), decodes the complete body once, and only then lets the original
/// bytes go to the disk store, so undecodable data is never cached.
enum DecodeStage {
    static func run(request: ImageRequest, plan: RequestPlan, shrink: ShrinkOnLoad?,
                    upstream: @Sendable () async -> CoalescedTask<LoadEvent>.Subscription,
                    context: StageContext, publisher: CoalescedTask<FrameEvent>.Publisher) async throws {
        var previews = PreviewState(interval: context.previewInterval)
        let loading = await upstream()
        loading.task.raisePriority(to: publisher.observePriority { loading.task.raisePriority(to: $0) })
        for try await event in loading.events {
            switch event {
            case let .chunk(chunk, offset):
                guard publisher.wantsPreviews else { continue }
                if let preview = try await previews.feed(chunk, at: offset, context: context) {
                    publisher.sendPreview(.preview(preview))
                }
            case .complete(let loaded):
                let image = try await decodeFinal(loaded.data, request: request, shrink: shrink, context: context)
                // Only bytes that decoded cleanly are stored, and before the result goes out: when a
                // call returns, the disk cache has the image (a process may exit right after).
                if loaded.storeOnDisk { await storeOriginal(loaded, key: request.dataKey, context: context) }
                publisher.finish(with: .final(FinalImage(image: image, source: loaded.source, httpStatus: loaded.httpStatus,
                                                         headers: loaded.headers)))
                return
            }
        }
        try Task.checkCancellation()
    }

    static func decodeFinal(_ data: Data, request: ImageRequest, shrink: ShrinkOnLoad?,
                            context: StageContext) async throws -> Image {
        let maxPixelCount = request.maxPixelCount
        let started = ContinuousClock.now
        let image = try await context.run { () throws -> Image in
            let decoder = try Codecs.decoder(for: data)
            var options = DecodingOptions(maxPixelCount: maxPixelCount)
            if let shrink {
                let header = try decoder.readHeader(data)
                options.minimumSize = shrink.minimumDecodeSize(PixelSize(width: header.width, height: header.height),
                                                               orientation: header.orientation)
            }
            return try decoder.decode(data, options: options)
        }
        context.statistics.recordDecode(seconds: (ContinuousClock.now - started).seconds)
        return image
    }

    private static func storeOriginal(_ loaded: LoadedData, key: String, context: StageContext) async {
        guard let disk = await context.disk?.store else { return }
        do {
            _ = try await disk.store(loaded.data, forKey: key, responseHeaders: loaded.headers.map { ($0.key, $0.value) })
        } catch {
            // The image is still served; only the cache write failed (disk full, permissions).
            context.logger.warning("could not store original bytes", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }
}

/// The progressive decoder of one load and the pacing of its previews.
///
/// Previews are made inline: while one decodes, new chunks wait in the upstream stream, so a
/// preview never starts while the previous one is still decoding, and at most one is made per
/// interval.
private struct PreviewState {
    let interval: Duration
    var decoder: ProgressiveDecoderBox?
    var received = 0
    var head = Data()
    var disabled = false
    var lastPreview: ContinuousClock.Instant?
    /// A better preview became possible but the interval had not passed yet.
    var pending = false

    init(interval: Duration) { self.interval = interval }

    mutating func feed(_ chunk: Data, at offset: Int, context: StageContext) async throws -> Image? {
        guard !disabled else { return nil }
        guard offset == received else {
            disabled = true          // joined late: the prefix is missing, no previews
            return nil
        }
        received += chunk.count
        if decoder == nil {
            head.append(chunk)
            guard head.count >= ImageFormat.sniffLength else { return nil }
            guard let made = Codecs.progressiveDecoder(for: head) else {
                disabled = true      // baseline JPEG, non-interlaced PNG, GIF...: final frame only
                return nil
            }
            decoder = ProgressiveDecoderBox(made)
            let bytes = head
            head = Data()
            return try await offer(bytes, context: context)
        }
        return try await offer(chunk, context: context)
    }

    private mutating func offer(_ bytes: Data, context: StageContext) async throws -> Image? {
        guard let decoder else { return nil }
        if decoder.append(bytes) { pending = true }
        let now = ContinuousClock.now
        guard pending else { return nil }
        if let lastPreview, now - lastPreview < interval { return nil }
        lastPreview = now
        pending = false
        let preview = try await context.run { try decoder.makePreview() }
        if preview != nil { context.statistics.record(.previewDecoded) }
        return preview
    }
}

/// Carries a progressive decoder to the work pool for ``ProgressiveImageDecoding/makePreview()``.
///
/// `@unchecked Sendable` is sound because every use is sequential: `append` runs in the decode
/// task, and `makePreview` runs on the pool while that task awaits its result, so the two never
/// overlap and each hand-over is ordered by the await.
private final class ProgressiveDecoderBox: @unchecked Sendable {   // safety argued in the comment beside it
    private let decoder: any ProgressiveImageDecoding
    init(_ decoder: any ProgressiveImageDecoding) { self.decoder = decoder }
    func append(_ bytes: Data) -> Bool { decoder.append(bytes) }
    func makePreview() throws -> Image? { try decoder.makePreview() }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
