import ImageCore

/// Reads the orientation tag (0x0112) from the TIFF structure inside an EXIF APP1 segment.
///
/// Only IFD0 is looked at, which is where the tag lives. Every read is bounds-checked:
/// truncated or hostile EXIF yields ``ExifOrientation/up``, never a crash. Both byte
/// orders ("II" little-endian, "MM" big-endian) are handled.
enum ExifOrientationReader {
    private static let orientationTag: UInt16 = 0x0112

    /// `tiff` starts at the TIFF header (just after `Exif\0\0`).
    static func orientation(tiff: UnsafeRawBufferPointer) -> ExifOrientation {
        guard tiff.count >= 8 else { return .up }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return .up
        }
        func read16(_ offset: Int) -> UInt16? {
            guard offset >= 0, offset + 2 <= tiff.count else { return nil }
            let (a, b) = (UInt16(tiff[offset]), UInt16(tiff[offset + 1]))
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func read32(_ offset: Int) -> UInt32? {
            guard let first = read16(offset), let second = read16(offset + 2) else { return nil }
            return littleEndian ? UInt32(first) | UInt32(second) << 16 : UInt32(first) << 16 | UInt32(second)
        }
        guard read16(2) == 42, let ifdOffset = read32(4).map(Int.init), let entryCount = read16(ifdOffset) else {
            return .up
        }
        for index in 0 ..< Int(entryCount) {
            let entry = ifdOffset + 2 + index * 12
            guard entry + 12 <= tiff.count, let tag = read16(entry), let type = read16(entry + 2) else { return .up }
            guard tag == orientationTag else { continue }
            // The value sits in the first bytes of the 4-byte value field (count is 1).
            let value: Int?
            switch type {
            case 3: value = read16(entry + 8).map(Int.init)        // SHORT, the type the spec requires
            case 4: value = read32(entry + 8).map(Int.init)        // LONG, seen from sloppy writers
            case 1: value = Int(tiff[entry + 8])                    // BYTE
            default: value = nil
            }
            return ExifOrientation(exifValue: value ?? 0)
        }
        return .up
    }
}
