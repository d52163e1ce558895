/// CMYK → RGBA for CMYK and YCCK JPEGs, in place (both layouts take 4 bytes per pixel).
///
/// libjpeg hands back the samples as stored. Files with an Adobe APP14 segment (Photoshop and
/// nearly every CMYK JPEG in the wild) store them inverted (255 = no ink), so
/// `R = C × K / 255`; files without it store plain ink amounts, so `R = (255 − C)(255 − K) / 255`.
/// This is the naive conversion without a colour profile, as browsers do without ICC.
enum CMYKConversion {
    static func convertToRGBA(_ pixels: UnsafeMutableRawBufferPointer, width: Int, height: Int, bytesPerRow: Int,
                              inverted: Bool) {
        for row in 0 ..< height {
            let line = (pixels.baseAddress! + row * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0 ..< width {
                let p = line + 4 * x
                var c = UInt32(p[0]), m = UInt32(p[1]), y = UInt32(p[2]), k = UInt32(p[3])
                if !inverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
                p[0] = UInt8((c * k + 127) / 255)
                p[1] = UInt8((m * k + 127) / 255)
                p[2] = UInt8((y * k + 127) / 255)
                p[3] = 255
            }
        }
    }
}
