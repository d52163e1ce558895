import ImageCore

/// What the marker segments before the first scan say that TurboJPEG does not report.
struct JPEGMarkerSummary: Equatable {
    /// From the EXIF APP1 segment; ``ExifOrientation/up`` when absent or unreadable.
    var orientation: ExifOrientation = .up
    /// An Adobe APP14 segment is present: CMYK samples are then stored inverted (Photoshop's convention).
    var hasAdobeMarker = false
    /// The frame is progressive (SOF2, SOF6, SOF10 or SOF14).
    var isProgressive = false
}

/// Walks the marker segments from SOI to the first SOS, skipping each by its length.
/// Stops quietly at anything malformed: the codec itself reports corrupt data.
enum JPEGMarkerScanner {
    static func summary(of bytes: UnsafeRawBufferPointer) -> JPEGMarkerSummary {
        var summary = JPEGMarkerSummary()
        var sawExif = false
        var position = 2   // after SOI
        while position + 4 <= bytes.count {
            guard bytes[position] == 0xFF else { break }
            let marker = bytes[position + 1]
            if marker == 0xFF { position += 1; continue }                  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0 ... 0xD7).contains(marker) { position += 2; continue }
            if marker == 0xDA || marker == 0xD9 { break }                   // first scan, or end
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            guard length >= 2 else { break }
            let start = position + 4
            let end = min(bytes.count, position + 2 + length)
            let payload = UnsafeRawBufferPointer(rebasing: bytes[start ..< max(start, end)])
            switch marker {
            case 0xE1 where !sawExif && startsWith(payload, [0x45, 0x78, 0x69, 0x66, 0, 0]):   // "Exif\0\0"
                sawExif = true
                summary.orientation = ExifOrientationReader.orientation(tiff: UnsafeRawBufferPointer(rebasing: payload[6...]))
            case 0xEE where startsWith(payload, [0x41, 0x64, 0x6F, 0x62, 0x65]):                // "Adobe"
                summary.hasAdobeMarker = true
            case 0xC2, 0xC6, 0xCA, 0xCE:
                summary.isProgressive = true
            default:
                break
            }
            position += 2 + length
        }
        return summary
    }

    private static func startsWith(_ bytes: UnsafeRawBufferPointer, _ prefix: [UInt8]) -> Bool {
        bytes.count >= prefix.count && zip(bytes, prefix).allSatisfy { $0 == $1 }
    }
}
