// Inner loops of resampling, one row at a time. They work on raw pointers because they run
// for every pixel of every image: bounds checks and array retain/release would dominate.

// Float <-> byte conversions by bit patterns. The standard library's generic SIMD conversions
// and clamps compile to per-lane calls here; these compile to a few SSE2 instructions.
// A float near 2^23 has unit spacing, so its low mantissa bits hold an integer exactly:
// OR-ing a byte into the bits of 2^23 gives 2^23 + byte, and adding 1.5 × 2^23 to a value
// leaves round(value) in the low bits as a signed integer.
private let magicBits: UInt32 = 0x4B00_0000
private let magicFloat: Float = 8_388_608
private let roundingBits: Int32 = 0x4B40_0000
private let roundingFloat: Float = 12_582_912

@inline(__always)
func floats(_ bytes: SIMD4<UInt8>) -> SIMD4<Float> {
    unsafeBitCast(SIMD4<UInt32>(truncatingIfNeeded: bytes) | magicBits, to: SIMD4<Float>.self) - magicFloat
}

/// Rounds to nearest and saturates to 0...255 (values must lie within ±2^22).
@inline(__always)
func roundedBytes(_ values: SIMD4<Float>) -> SIMD4<UInt8> {
    let rounded = unsafeBitCast(values + roundingFloat, to: SIMD4<Int32>.self) &- roundingBits
    let nonNegative = rounded & ~(rounded &>> 31)                       // negative → 0
    let saturated = (nonNegative | ((255 &- nonNegative) &>> 31)) & 255  // above 255 → 255
    return SIMD4<UInt8>(truncatingIfNeeded: saturated)
}

/// Whether every pixel of an RGBA row has alpha 255.
@inline(__always)
func rowIsOpaque(_ row: UnsafePointer<UInt8>, pixelCount: Int) -> Bool {
    let raw = UnsafeRawPointer(row)
    var all: UInt64 = ~0
    var index = 0
    // Two pixels per load; alpha is the high byte of each little-endian 32-bit pixel.
    while index + 2 <= pixelCount {
        all &= raw.loadUnaligned(fromByteOffset: index * 4, as: UInt64.self)
        index += 2
    }
    if index < pixelCount { all &= UInt64(raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)) | 0xFFFF_FFFF_0000_0000 }
    return all & 0xFF00_0000_FF00_0000 == 0xFF00_0000_FF00_0000
}

/// Multiplies the colour channels of an RGBA row by alpha (rounded), writing to `destination`.
@inline(__always)
func premultiplyRow(_ source: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>, pixelCount: Int) {
    for pixel in 0 ..< pixelCount {
        let p = pixel * 4
        let alpha = UInt32(source[p + 3])
        for channel in 0 ..< 3 {
            // Exact rounding of c·a/255 without a division.
            let t = UInt32(source[p + channel]) * alpha + 128
            destination[p + channel] = UInt8(truncatingIfNeeded: (t + (t >> 8)) >> 8)
        }
        destination[p + 3] = UInt8(truncatingIfNeeded: alpha)
    }
}

/// Turns a premultiplied RGBA row back to straight alpha in place. Resampling kernels with
/// negative lobes can leave a colour above its alpha; it is clamped to 255 here.
@inline(__always)
func unpremultiplyRowInPlace(_ row: UnsafeMutablePointer<UInt8>, pixelCount: Int) {
    for pixel in 0 ..< pixelCount {
        let p = pixel * 4
        let alpha = row[p + 3]
        if alpha == 255 { continue }
        if alpha == 0 {
            row[p] = 0; row[p + 1] = 0; row[p + 2] = 0
            continue
        }
        let scale = 255 / Float(alpha)
        for channel in 0 ..< 3 {
            row[p + channel] = UInt8(min(255, Float(row[p + channel]) * scale + 0.5))
        }
    }
}

/// Clamps each colour channel of a premultiplied RGBA row to its alpha (ringing can exceed it).
@inline(__always)
func clampPremultipliedRowInPlace(_ row: UnsafeMutablePointer<UInt8>, pixelCount: Int) {
    for pixel in 0 ..< pixelCount {
        let p = pixel * 4
        let alpha = row[p + 3]
        row[p] = min(row[p], alpha); row[p + 1] = min(row[p + 1], alpha); row[p + 2] = min(row[p + 2], alpha)
    }
}

/// Horizontal resampling of one RGBA row: each output pixel is the weighted sum of its taps.
@inline(__always)
func resampleRowRGBA(_ source: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>,
                     starts: UnsafePointer<Int>, counts: UnsafePointer<Int>, weights: UnsafePointer<Float>,
                     stride: Int, outputCount: Int) {
    let input = UnsafeRawPointer(source)
    let output = UnsafeMutableRawPointer(destination)
    for x in 0 ..< outputCount {
        let tapWeights = weights + x * stride
        var pixel = input + starts[x] * 4
        var sum = SIMD4<Float>(repeating: 0)
        for tap in 0 ..< counts[x] {
            sum += floats(pixel.loadUnaligned(as: SIMD4<UInt8>.self)) * tapWeights[tap]
            pixel += 4
        }
        output.storeBytes(of: roundedBytes(sum), toByteOffset: x * 4, as: SIMD4<UInt8>.self)
    }
}

/// Horizontal resampling of one gray row.
@inline(__always)
func resampleRowGray(_ source: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>,
                     starts: UnsafePointer<Int>, counts: UnsafePointer<Int>, weights: UnsafePointer<Float>,
                     stride: Int, outputCount: Int) {
    for x in 0 ..< outputCount {
        let tapWeights = weights + x * stride
        let first = source + starts[x]
        var sum: Float = 0.5
        for tap in 0 ..< counts[x] { sum += Float(first[tap]) * tapWeights[tap] }
        destination[x] = UInt8(min(max(sum, 0), 255))
    }
}

/// Vertical resampling: output byte i is the weighted sum of byte i of each tap row. Works on
/// 16 bytes at a time for any pixel layout; `byteCount` is rounded up to 16, so every row
/// (inputs and output) must have that much readable/writable memory.
@inline(__always)
func resampleColumns(rows: UnsafePointer<UnsafePointer<UInt8>>, weights: UnsafePointer<Float>, tapCount: Int,
                     into destination: UnsafeMutablePointer<UInt8>, byteCount: Int) {
    var offset = 0
    while offset < byteCount {
        // Four 4-lane accumulators rather than one 16-lane vector: they stay in registers.
        var sum0 = SIMD4<Float>(), sum1 = SIMD4<Float>(), sum2 = SIMD4<Float>(), sum3 = SIMD4<Float>()
        for tap in 0 ..< tapCount {
            let row = UnsafeRawPointer(rows[tap] + offset)
            let weight = weights[tap]
            sum0 += floats(row.loadUnaligned(as: SIMD4<UInt8>.self)) * weight
            sum1 += floats(row.loadUnaligned(fromByteOffset: 4, as: SIMD4<UInt8>.self)) * weight
            sum2 += floats(row.loadUnaligned(fromByteOffset: 8, as: SIMD4<UInt8>.self)) * weight
            sum3 += floats(row.loadUnaligned(fromByteOffset: 12, as: SIMD4<UInt8>.self)) * weight
        }
        let output = UnsafeMutableRawPointer(destination + offset)
        output.storeBytes(of: roundedBytes(sum0), as: SIMD4<UInt8>.self)
        output.storeBytes(of: roundedBytes(sum1), toByteOffset: 4, as: SIMD4<UInt8>.self)
        output.storeBytes(of: roundedBytes(sum2), toByteOffset: 8, as: SIMD4<UInt8>.self)
        output.storeBytes(of: roundedBytes(sum3), toByteOffset: 12, as: SIMD4<UInt8>.self)
        offset += 16
    }
}

/// Adds a row to per-byte column sums (`assign` starts a new block). Works 16 bytes at a time:
/// `byteCount` is rounded up to 16, which the padded rows and sum buffer allow.
@inline(__always)
func accumulateColumns(_ row: UnsafePointer<UInt8>, into sums: UnsafeMutablePointer<UInt32>, byteCount: Int, assign: Bool) {
    let input = UnsafeRawPointer(row)
    let output = UnsafeMutableRawPointer(sums)
    var offset = 0
    if assign {
        while offset < byteCount {
            for part in stride(from: 0, to: 16, by: 4) {
                let values = SIMD4<UInt32>(truncatingIfNeeded: input.loadUnaligned(fromByteOffset: offset + part, as: SIMD4<UInt8>.self))
                output.storeBytes(of: values, toByteOffset: (offset + part) * 4, as: SIMD4<UInt32>.self)
            }
            offset += 16
        }
    } else {
        while offset < byteCount {
            for part in stride(from: 0, to: 16, by: 4) {
                let values = SIMD4<UInt32>(truncatingIfNeeded: input.loadUnaligned(fromByteOffset: offset + part, as: SIMD4<UInt8>.self))
                let total = values &+ output.loadUnaligned(fromByteOffset: (offset + part) * 4, as: SIMD4<UInt32>.self)
                output.storeBytes(of: total, toByteOffset: (offset + part) * 4, as: SIMD4<UInt32>.self)
            }
            offset += 16
        }
    }
}

/// Averages blocks of `factor` pixels of column sums into one output row (the box pre-shrink).
/// `reciprocals[x]` is 1 / (columns in block x) and `rowScale` 1 / (rows summed): blocks at the
/// right and bottom edges can be smaller. Sums stay below 2^23, so the float tricks hold.
@inline(__always)
func averageBlocks(_ sums: UnsafePointer<UInt32>, into destination: UnsafeMutablePointer<UInt8>, channels: Int,
                   sourcePixelCount: Int, factor: Int, reciprocals: UnsafePointer<Float>, rowScale: Float,
                   outputCount: Int) {
    if channels == 4 {
        let input = UnsafeRawPointer(sums)
        let output = UnsafeMutableRawPointer(destination)
        for x in 0 ..< outputCount {
            let first = x * factor
            let end = min(first + factor, sourcePixelCount)
            var total = SIMD4<UInt32>()
            for column in first ..< end { total &+= input.loadUnaligned(fromByteOffset: column * 16, as: SIMD4<UInt32>.self) }
            let average = (unsafeBitCast(total | magicBits, to: SIMD4<Float>.self) - magicFloat) * (reciprocals[x] * rowScale)
            output.storeBytes(of: roundedBytes(average), toByteOffset: x * 4, as: SIMD4<UInt8>.self)
        }
        return
    }
    for x in 0 ..< outputCount {
        let first = x * factor
        let end = min(first + factor, sourcePixelCount)
        var total: UInt32 = 0
        for column in first ..< end { total &+= sums[column] }
        destination[x] = UInt8(min(Float(total) * (reciprocals[x] * rowScale) + 0.5, 255))
    }
}
