import ImageCore

/// Separable resampling of a window of an image to a new size, streamed row by row.
///
/// Per source row: premultiply alpha when the row is not opaque (straight RGBA input), add it
/// into an integer box pre-shrink when the reduction is large, resample it horizontally into a
/// small ring of rows. Per output row: combine the ring rows it needs with the vertical weights.
/// No full-size intermediate image is ever made, and the vertical pass reads whole rows.
struct Resampler {
    let source: Image
    let outputWidth: Int
    let outputHeight: Int
    let filter: ResamplingFilter
    /// The source window mapped onto the output, in source pixels (may be fractional).
    let window: (x: Double, y: Double, width: Double, height: Double)

    /// A reduction by more than twice this factor is first done by integer box averaging down
    /// to between 1 and 2 times this factor of the target (the approach libvips and Pillow take).
    static let reducingGap = 2.0

    func run() -> Image {
        let channels = source.pixelFormat.bytesPerPixel
        let straightAlpha = source.pixelFormat == .rgba8
        let boxX = max(1, Int((window.width / Double(outputWidth) / Self.reducingGap).rounded(.down)))
        let boxY = max(1, Int((window.height / Double(outputHeight) / Self.reducingGap).rounded(.down)))
        let boxedWidth = (source.width + boxX - 1) / boxX
        let boxedHeight = (source.height + boxY - 1) / boxY
        let horizontal = AxisWeights(filter: filter, sourceLength: boxedWidth, sourceStart: window.x / Double(boxX),
                                     sourceSpan: window.width / Double(boxX), outputLength: outputWidth)
        let vertical = AxisWeights(filter: filter, sourceLength: boxedHeight, sourceStart: window.y / Double(boxY),
                                   sourceSpan: window.height / Double(boxY), outputLength: outputHeight)

        // Ring capacity: every output row's taps must still be in the ring when it is made.
        var ringCapacity = 1
        var furthestEnd = 0
        for y in 0 ..< outputHeight {
            furthestEnd = max(furthestEnd, vertical.starts[y] + vertical.counts[y])
            ringCapacity = max(ringCapacity, furthestEnd - vertical.starts[y])
        }

        let outputRowBytes = outputWidth * channels
        let ringStride = Image.alignedBytesPerRow(width: outputWidth, pixelFormat: source.pixelFormat)
        let sourceRowBytes = source.width * channels
        let sourceStride = source.bytesPerRow

        let ring = UnsafeMutablePointer<UInt8>.allocate(capacity: ringCapacity * ringStride)
        // Zero padding makes the 16-byte vertical kernel read defined bytes past each row's end.
        ring.initialize(repeating: 0, count: ringCapacity * ringStride)
        let tapRows = UnsafeMutablePointer<UnsafePointer<UInt8>>.allocate(capacity: vertical.stride)
        // Row buffers are padded to a multiple of 16 bytes (the box kernels work 16 bytes at a time).
        let paddedRowBytes = (sourceRowBytes + 15) / 16 * 16
        let premultiplied = UnsafeMutablePointer<UInt8>.allocate(capacity: straightAlpha ? paddedRowBytes : 0)
        let usesBox = boxX > 1 || boxY > 1
        let columnSums = UnsafeMutablePointer<UInt32>.allocate(capacity: usesBox ? paddedRowBytes : 0)
        let boxedRow = UnsafeMutablePointer<UInt8>.allocate(capacity: usesBox ? boxedWidth * channels : 0)
        let blockReciprocals = UnsafeMutablePointer<Float>.allocate(capacity: usesBox ? boxedWidth : 0)
        defer {
            ring.deallocate(); tapRows.deallocate(); premultiplied.deallocate()
            columnSums.deallocate(); boxedRow.deallocate(); blockReciprocals.deallocate()
        }
        if usesBox {
            for x in 0 ..< boxedWidth {
                blockReciprocals[x] = 1 / Float(min(boxX, source.width - x * boxX))
            }
        }

        var output = Image(uninitializedWidth: outputWidth, height: outputHeight, pixelFormat: source.pixelFormat,
                           metadata: source.metadata)
        let outputStride = output.bytesPerRow
        source.withUnsafeBytes { sourceBytes in
            let sourceBase = sourceBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)

            /// Source row `y`, premultiplied when it needs to be.
            func sourceRow(_ y: Int) -> UnsafePointer<UInt8> {
                let row = sourceBase + y * sourceStride
                guard straightAlpha, !rowIsOpaque(row, pixelCount: source.width) else { return row }
                premultiplyRow(row, into: premultiplied, pixelCount: source.width)
                return UnsafePointer(premultiplied)
            }

            /// Row `y` of the (possibly box-reduced) source.
            func boxedSourceRow(_ y: Int) -> UnsafePointer<UInt8> {
                guard usesBox else { return sourceRow(y) }
                let first = y * boxY
                let end = min(first + boxY, source.height)
                for row in first ..< end {
                    accumulateColumns(sourceRow(row), into: columnSums, byteCount: sourceRowBytes, assign: row == first)
                }
                averageBlocks(columnSums, into: boxedRow, channels: channels, sourcePixelCount: source.width,
                              factor: boxX, reciprocals: blockReciprocals, rowScale: 1 / Float(end - first),
                              outputCount: boxedWidth)
                return UnsafePointer(boxedRow)
            }

            horizontal.starts.withUnsafeBufferPointer { hStarts in
            horizontal.counts.withUnsafeBufferPointer { hCounts in
            horizontal.weights.withUnsafeBufferPointer { hWeights in
            vertical.weights.withUnsafeBufferPointer { vWeights in
                output.withUnsafeMutableBytes { outputBytes in
                    let outputBase = outputBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    var nextRow = 0
                    for y in 0 ..< outputHeight {
                        let first = vertical.starts[y], count = vertical.counts[y]
                        nextRow = max(nextRow, first)
                        while nextRow < first + count {
                            let slot = ring + (nextRow % ringCapacity) * ringStride
                            let input = boxedSourceRow(nextRow)
                            if channels == 4 {
                                resampleRowRGBA(input, into: slot, starts: hStarts.baseAddress!, counts: hCounts.baseAddress!,
                                                weights: hWeights.baseAddress!, stride: horizontal.stride,
                                                outputCount: outputWidth)
                            } else {
                                resampleRowGray(input, into: slot, starts: hStarts.baseAddress!, counts: hCounts.baseAddress!,
                                                weights: hWeights.baseAddress!, stride: horizontal.stride,
                                                outputCount: outputWidth)
                            }
                            nextRow += 1
                        }
                        for tap in 0 ..< count {
                            tapRows[tap] = UnsafePointer(ring + ((first + tap) % ringCapacity) * ringStride)
                        }
                        let outputRow = outputBase + y * outputStride
                        // Rounded up to 16 bytes: both the ring and the output rows are 64-byte padded.
                        resampleColumns(rows: tapRows, weights: vWeights.baseAddress! + y * vertical.stride, tapCount: count,
                                        into: outputRow, byteCount: outputRowBytes)
                        switch source.pixelFormat {
                        case .rgba8: unpremultiplyRowInPlace(outputRow, pixelCount: outputWidth)
                        case .rgba8Premultiplied: clampPremultipliedRowInPlace(outputRow, pixelCount: outputWidth)
                        case .gray8: break
                        }
                        let written = (outputRowBytes + 15) / 16 * 16
                        (outputRow + written).initialize(repeating: 0, count: outputStride - written)
                    }
                }
            }
            }
            }
            }
        }
        return output
    }
}
