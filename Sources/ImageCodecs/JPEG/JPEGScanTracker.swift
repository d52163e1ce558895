/// Follows the marker structure of a JPEG as its bytes arrive and counts the scans that have
/// ended.
///
/// Marker segments are skipped by their length; inside entropy-coded data a 0xFF byte is
/// followed by 0x00 (a stuffed data byte), a restart marker RST0–7, fill bytes, or the marker
/// that ends the scan. A scan has ended once that marker has been seen; ``lastScanEnd`` is its
/// offset, so the bytes before it plus an EOI form a complete, decodable JPEG.
struct JPEGScanTracker {
    private enum State {
        case markers                 // expecting 0xFF xx at a segment boundary
        case skipping(Int)           // inside a marker segment: bytes left
        case enteringScan(Int)       // inside the SOS header: bytes left, then entropy-coded data
        case entropy                 // inside entropy-coded data
        case finished                // EOI seen
        case malformed               // not a JPEG structure
    }

    private var state = State.markers
    private var position = 2           // after SOI; the caller has checked the signature
    /// Scans whose end has been seen.
    private(set) var completedScans = 0
    /// Offset of the marker that ended the last complete scan.
    private(set) var lastScanEnd: Int?
    /// Whether a progressive frame header (SOF2/6/10/14) was seen.
    private(set) var isProgressive = false
    /// Whether the structure was found broken (the data is corrupt).
    var isMalformed: Bool { if case .malformed = state { return true } else { return false } }

    /// Advances over `bytes`, the whole data received so far (it only ever grows).
    mutating func advance(over bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        while true {
            switch state {
            case .finished, .malformed:
                return
            case .skipping(let left), .enteringScan(let left):
                let take = min(left, count - position)
                position += take
                if take < left {
                    if case .skipping = state { state = .skipping(left - take) } else { state = .enteringScan(left - take) }
                    return
                }
                if case .enteringScan = state { state = .entropy } else { state = .markers }
            case .markers:
                guard position + 2 <= count else { return }
                guard bytes[position] == 0xFF else { state = .malformed; return }
                let marker = bytes[position + 1]
                if marker == 0xFF { position += 1; continue }
                if marker == 0xD8 || marker == 0x01 || (0xD0 ... 0xD7).contains(marker) { position += 2; continue }
                if marker == 0xD9 { state = .finished; return }
                guard position + 4 <= count else { return }
                let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
                guard length >= 2 else { state = .malformed; return }
                if [0xC2, 0xC6, 0xCA, 0xCE].contains(marker) { isProgressive = true }
                position += 4
                state = marker == 0xDA ? .enteringScan(length - 2) : .skipping(length - 2)
            case .entropy:
                guard let end = scanEnd(in: bytes) else { return }
                completedScans += 1
                lastScanEnd = end
                position = end
                state = .markers
            }
        }
    }

    /// Finds the marker that ends the entropy-coded data, or stops at the end of the data
    /// (remembering where to resume).
    private mutating func scanEnd(in bytes: UnsafeRawBufferPointer) -> Int? {
        var index = position
        let count = bytes.count
        while index < count {
            if bytes[index] != 0xFF { index += 1; continue }
            guard index + 1 < count else { break }
            let next = bytes[index + 1]
            if next == 0x00 || (0xD0 ... 0xD7).contains(next) { index += 2; continue }
            if next == 0xFF { index += 1; continue }
            return index
        }
        position = index
        return nil
    }
}
