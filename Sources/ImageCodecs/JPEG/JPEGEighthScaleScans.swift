#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shrink on load for progressive JPEGs at 1/8 scale, without decoding data the result never uses.
///
/// At scale 1/8 libjpeg gives each full-resolution component (its sampling factors are the
/// frame's largest: luma of 4:2:0 and 4:2:2, every component of 4:4:4 and gray) a 1×1 inverse
/// DCT: the output pixel is the block's DC coefficient alone. The AC scans of such a component
/// are most of a progressive file (about 75 % of the corpus' 12 MP files) and still cost a full
/// Huffman decode. This builds a copy of the stream without them, so libjpeg decodes the
/// same 1/8 image from a fraction of the data.
///
/// One AC scan per pruned component is kept on purpose: the one with the fewest bytes among its
/// first-pass scans (Ah = 0) that covers a coefficient in 1…9. When none of coefficients 1…9 of
/// a component were received, libjpeg-turbo's block smoothing also changes the DC coefficients
/// (it treats the component as a DC-only preview); with one of them received, it leaves DC
/// alone and the 1/8 output is byte for byte that of the whole file (a test checks this).
/// Components with smaller sampling factors get a larger inverse DCT and keep all their scans.
///
/// Only well-formed progressive Huffman files (SOF2, every scan ended by a marker, an EOI) are
/// rewritten; anything else returns `nil` and is decoded as it is.
enum JPEGEighthScaleScans {
    private struct Scan {
        var header: Range<Int>        // the SOS segment
        var entropy: Range<Int>       // its entropy-coded data
        var components: [UInt8]
        var spectralStart: Int
        var successiveHigh: Int
        var keep = true
    }

    private enum Part {
        case segment(Range<Int>)
        case scan(Int)                // index into the scans
    }

    /// The stream without the AC scans that cannot change a 1/8-scale decode; `nil` when the
    /// file does not qualify or nothing would be left out.
    static func prunedStream(of bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard var parsed = parse(bytes) else { return nil }
        let maxH = parsed.sampling.values.map(\.h).max() ?? 0
        let maxV = parsed.sampling.values.map(\.v).max() ?? 0
        var dropsAny = false
        for (component, factors) in parsed.sampling where factors.h == maxH && factors.v == maxV {
            let acScans = parsed.scans.indices.filter {
                parsed.scans[$0].spectralStart > 0 && parsed.scans[$0].components == [component]
            }
            let keeper = acScans
                .filter { parsed.scans[$0].successiveHigh == 0 && parsed.scans[$0].spectralStart <= 9 }
                .min { parsed.scans[$0].entropy.count < parsed.scans[$1].entropy.count }
            guard let keeper else { continue }       // no safe scan to keep: leave this component whole
            for index in acScans where index != keeper {
                parsed.scans[index].keep = false
                dropsAny = true
            }
        }
        guard dropsAny else { return nil }

        var output: [UInt8] = [0xFF, 0xD8]
        output.reserveCapacity(bytes.count / 2)
        for part in parsed.parts {
            switch part {
            case .segment(let range):
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
            case .scan(let index) where parsed.scans[index].keep:
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[parsed.scans[index].header]))
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[parsed.scans[index].entropy]))
            case .scan:
                break
            }
        }
        output.append(contentsOf: [0xFF, 0xD9])
        return output
    }

    private struct Parsed {
        var parts: [Part] = []
        var scans: [Scan] = []
        var sampling: [UInt8: (h: Int, v: Int)] = [:]
    }

    /// Splits the file into marker segments and scans; `nil` unless it is a complete SOF2 file.
    private static func parse(_ bytes: UnsafeRawBufferPointer) -> Parsed? {
        var parsed = Parsed()
        var position = 2                     // after SOI (checked by the caller's decoder)
        let count = bytes.count
        while true {
            guard position + 2 <= count, bytes[position] == 0xFF else { return nil }
            let marker = bytes[position + 1]
            if marker == 0xFF { position += 1; continue }                 // fill byte
            if marker == 0xD9 { break }                                    // EOI
            guard position + 4 <= count else { return nil }
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            let end = position + 2 + length
            guard length >= 2, end <= count else { return nil }
            switch marker {
            case 0xC2:
                guard length >= 8 else { return nil }
                let componentCount = Int(bytes[position + 9])
                guard componentCount >= 1, length == 8 + 3 * componentCount, parsed.sampling.isEmpty else { return nil }
                for index in 0 ..< componentCount {
                    let base = position + 10 + 3 * index
                    let factors = bytes[base + 1]
                    parsed.sampling[bytes[base]] = (h: Int(factors >> 4), v: Int(factors & 0x0F))
                }
                guard parsed.sampling.count == componentCount else { return nil }   // duplicate ids
                parsed.parts.append(.segment(position ..< end))
            case 0xC0, 0xC1, 0xC3, 0xC5 ... 0xC7, 0xC9 ... 0xCB, 0xCD ... 0xCF, 0xDC:
                return nil                                                  // not progressive Huffman, or DNL
            case 0xD0 ... 0xD8, 0x01:
                return nil                                                  // out of place
            case 0xDA:
                guard !parsed.sampling.isEmpty, length >= 6 else { return nil }
                let componentCount = Int(bytes[position + 4])
                guard componentCount >= 1, length == 6 + 2 * componentCount else { return nil }
                let components = (0 ..< componentCount).map { bytes[position + 5 + 2 * $0] }
                guard components.allSatisfy({ parsed.sampling[$0] != nil }) else { return nil }
                let parameters = position + 5 + 2 * componentCount
                guard let entropyEnd = entropyEnd(in: bytes, from: end) else { return nil }
                parsed.parts.append(.scan(parsed.scans.count))
                parsed.scans.append(Scan(header: position ..< end, entropy: end ..< entropyEnd, components: components,
                                         spectralStart: Int(bytes[parameters]),
                                         successiveHigh: Int(bytes[parameters + 2] >> 4)))
                position = entropyEnd
                continue
            default:
                parsed.parts.append(.segment(position ..< end))             // tables, restart interval, APPn, COM
            }
            position = end
        }
        guard !parsed.sampling.isEmpty, !parsed.scans.isEmpty else { return nil }
        return parsed
    }

    /// Offset of the marker that ends entropy-coded data starting at `start`; `nil` if the data ends first.
    private static func entropyEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        let count = bytes.count
        var index = start
        while index + 1 < count {
            guard let found = findByte(0xFF, in: bytes, from: index) else { return nil }
            index = found
            guard index + 1 < count else { return nil }
            let next = bytes[index + 1]
            if next == 0x00 || (0xD0 ... 0xD7).contains(next) { index += 2; continue }   // stuffed byte, restart
            if next == 0xFF { index += 1; continue }                                      // fill
            return index
        }
        return nil
    }

    private static func findByte(_ byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < bytes.count,
              let found = memchr(bytes.baseAddress! + start, Int32(byte), bytes.count - start) else { return nil }
        return UnsafeRawPointer(found) - bytes.baseAddress!
    }
}
