import Foundation

/// Deterministic bytes for a key and version: 32 bytes of a splitmix64 stream seeded by
/// FNV-1a of both, repeated to a derived length of 32 KB to 1 MB (cheap to make and check, and
/// large enough that a kill often lands inside the write itself).
public func stressContent(key: String, version: Int) -> Data {
    var seed: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in "\(key)#\(version)".utf8 { seed = (seed ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    var state = seed
    func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
    let length = (32 << 10) + Int(next() % UInt64(1 << 20))
    var data = Data(count: length)
    data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
        for word in 0 ..< 4 { buffer.storeBytes(of: next(), toByteOffset: word * 8, as: UInt64.self) }
        var filled = 32
        while filled < length {   // double the filled prefix with memcpy: fast even in debug builds
            let count = min(filled, length - filled)
            (buffer.baseAddress! + filled).copyMemory(from: buffer.baseAddress!, byteCount: count)
            filled += count
        }
    }
    return data
}
