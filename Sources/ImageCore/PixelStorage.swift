import Synchronization

/// A 64-byte aligned block of pixel memory, owned by one or more ``Image`` values.
///
/// `Image` copies the storage before its first mutation when the storage is shared (copy on
/// write), so a `PixelStorage` is never written while another owner can read it. That is
/// the invariant that makes the `@unchecked Sendable` below sound: after it is handed out,
/// the memory is only read, or written by its sole owner.
public final class PixelStorage: @unchecked Sendable {   // safety argued in the comment beside it
    /// Start of the pixel memory; aligned to ``alignment`` bytes.
    public let baseAddress: UnsafeMutableRawPointer
    /// Usable size of the block in bytes (what was asked for).
    public let byteCount: Int
    /// Real size of the block, at least `byteCount` when a pooled block was reused.
    private let capacity: Int

    /// Alignment of every block and of every row start (SIMD loads, cache lines).
    public static let alignment = 64

    /// Allocates `byteCount` bytes, reusing a pooled block when one fits.
    /// - Parameter zeroed: pass `true` unless the caller overwrites every byte.
    public init(byteCount: Int, zeroed: Bool) {
        let size = max(byteCount, 1)
        self.byteCount = size
        if let reused = PixelBufferPool.shared.take(byteCount: size) {
            baseAddress = reused.address
            capacity = reused.byteCount
            if zeroed { reused.address.initializeMemory(as: UInt8.self, repeating: 0, count: size) }
        } else {
            baseAddress = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: Self.alignment)
            capacity = size
            // Fresh pages must be touched anyway; zero them so uninitialised memory is never read.
            baseAddress.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        }
    }

    deinit {
        if !PixelBufferPool.shared.give(baseAddress, byteCount: capacity) {
            baseAddress.deallocate()
        }
    }
}

/// Keeps a few large freed pixel blocks for reuse.
///
/// Writing a freshly allocated 36 MB buffer costs about 20 ms of page faults on the target
/// machines, nearly half of a 12 MP JPEG decode; handing the next decode of the same size a
/// warm block removes that cost. Only blocks of at least ``minimumPooledSize`` are kept, at
/// most ``capacityBytes`` in all, and a block is reused only for a request of exactly its size
/// (decodes of one batch tend to share dimensions) or up to 1/8 smaller.
final class PixelBufferPool: Sendable {
    static let shared = PixelBufferPool()

    static let minimumPooledSize = 1 << 20
    let capacityBytes = 256 << 20

    private struct Block { let address: UnsafeMutableRawPointer; let byteCount: Int }
    // The raw pointers in the list are owned by the pool alone until taken out under the lock.
    private struct State: @unchecked Sendable { var blocks: [Block] = []; var totalBytes = 0 }   // only touched under the pool mutex
    private let state = Mutex(State())

    func take(byteCount: Int) -> (address: UnsafeMutableRawPointer, byteCount: Int)? {
        guard byteCount >= Self.minimumPooledSize else { return nil }
        return state.withLock { state in
            guard let index = state.blocks.lastIndex(where: {
                $0.byteCount >= byteCount && $0.byteCount - byteCount <= $0.byteCount / 8
            }) else { return nil }
            let block = state.blocks.remove(at: index)
            state.totalBytes -= block.byteCount
            return (block.address, block.byteCount)
        }
    }

    /// Returns `false` when the pool does not keep the block (the caller frees it).
    func give(_ address: UnsafeMutableRawPointer, byteCount: Int) -> Bool {
        guard byteCount >= Self.minimumPooledSize else { return false }
        var evicted: [Block] = []
        let kept = state.withLock { state -> Bool in
            guard byteCount <= capacityBytes else { return false }
            while state.totalBytes + byteCount > capacityBytes, !state.blocks.isEmpty {
                let oldest = state.blocks.removeFirst()
                state.totalBytes -= oldest.byteCount
                evicted.append(oldest)
            }
            state.blocks.append(Block(address: address, byteCount: byteCount))
            state.totalBytes += byteCount
            return true
        }
        for block in evicted { block.address.deallocate() }
        return kept
    }
}
