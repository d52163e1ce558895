extension Image {
    /// Returns the image in another pixel format (or `self` when it already is in that format).
    ///
    /// - straight ↔ premultiplied alpha: colour channels multiplied or divided by alpha, rounded;
    /// - gray → RGBA: the sample copied to the three colour channels, alpha 255;
    /// - RGBA → gray: BT.601 luma of the straight colour (alpha dropped).
    ///
    /// Metadata is carried over; animation frames are converted too.
    public func converted(to target: PixelFormat) -> Image {
        guard target != pixelFormat else { return self }
        var metadata = self.metadata
        metadata.frames = metadata.frames.map { AnimationFrame(image: $0.image.converted(to: target), duration: $0.duration) }
        var result = Image(uninitializedWidth: width, height: height, pixelFormat: target, metadata: metadata)
        let (source, destinationFormat, destinationStride) = (self, target, result.bytesPerRow)
        result.withUnsafeMutableBytes { destination in
            source.withUnsafeBytes { input in
                for row in 0 ..< source.height {
                    let from = (input.baseAddress! + row * source.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                    let to = (destination.baseAddress! + row * destinationStride).assumingMemoryBound(to: UInt8.self)
                    Image.convertRow(from: from, format: source.pixelFormat, to: to, format: destinationFormat,
                                     width: source.width)
                }
            }
        }
        return result
    }

    private static func convertRow(from input: UnsafePointer<UInt8>, format sourceFormat: PixelFormat,
                                   to output: UnsafeMutablePointer<UInt8>, format targetFormat: PixelFormat,
                                   width: Int) {
        for x in 0 ..< width {
            // Bring the pixel to straight RGBA first, then to the target.
            var r, g, b, a: UInt32
            switch sourceFormat {
            case .gray8:
                r = UInt32(input[x]); g = r; b = r; a = 255
            case .rgba8:
                r = UInt32(input[4 * x]); g = UInt32(input[4 * x + 1]); b = UInt32(input[4 * x + 2]); a = UInt32(input[4 * x + 3])
            case .rgba8Premultiplied:
                a = UInt32(input[4 * x + 3])
                if a == 0 {
                    r = 0; g = 0; b = 0
                } else {
                    r = min(255, (UInt32(input[4 * x]) * 255 + a / 2) / a)
                    g = min(255, (UInt32(input[4 * x + 1]) * 255 + a / 2) / a)
                    b = min(255, (UInt32(input[4 * x + 2]) * 255 + a / 2) / a)
                }
            }
            switch targetFormat {
            case .gray8:
                // BT.601 luma with 16-bit fixed-point weights (0.299, 0.587, 0.114).
                output[x] = UInt8((19595 * r + 38470 * g + 7471 * b + 32768) >> 16)
            case .rgba8:
                output[4 * x] = UInt8(r); output[4 * x + 1] = UInt8(g); output[4 * x + 2] = UInt8(b); output[4 * x + 3] = UInt8(a)
            case .rgba8Premultiplied:
                output[4 * x] = UInt8((r * a + 127) / 255)
                output[4 * x + 1] = UInt8((g * a + 127) / 255)
                output[4 * x + 2] = UInt8((b * a + 127) / 255)
                output[4 * x + 3] = UInt8(a)
            }
        }
    }
}
