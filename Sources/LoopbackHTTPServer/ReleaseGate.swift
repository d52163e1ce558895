import Foundation

/// A gate the test controls: a paced route waits for one permit before each chunk it sends.
/// `release()` hands out permits one at a time (to step a progressive download), `open()`
/// lets everything through from then on (to release a held transfer).
///
/// ```swift
/// let gate = ReleaseGate()
/// server.setRoute("/held", .chunked(bytes, chunkSize: bytes.count, pacing: .gate(gate)))
/// // ... start a transfer, observe it is in flight ...
/// gate.open()
/// ```
public final class ReleaseGate: @unchecked Sendable {   // safe: all mutable state behind one lock (below)
    // Sendable: every stored property is read and written with `lock` held.
    private let lock = NSLock()
    private var permits = 0
    private var isOpen = false
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID: UInt64 = 0

    public init() {}

    /// Lets `count` more waits through (oldest waiter first).
    public func release(_ count: Int = 1) {
        lock.lock()
        permits += count
        let resumed = takeReadyWaiters()
        lock.unlock()
        for continuation in resumed { continuation.resume() }
    }

    /// Lets every present and future wait through.
    public func open() {
        lock.lock()
        isOpen = true
        let resumed = takeReadyWaiters()
        lock.unlock()
        for continuation in resumed { continuation.resume() }
    }

    private func takeReadyWaiters() -> [CheckedContinuation<Void, any Error>] {
        var ready: [CheckedContinuation<Void, any Error>] = []
        while !waiters.isEmpty, isOpen || permits > 0 {
            if !isOpen { permits -= 1 }
            ready.append(waiters.removeFirst().continuation)
        }
        return ready
    }

    /// Waits for a permit (or the open gate). Throws `CancellationError` when cancelled first.
    public func wait() async throws {
        let id = lock.withLock {
            defer { nextID += 1 }
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.lock()
                if isOpen || permits > 0 {
                    if !isOpen { permits -= 1 }
                    lock.unlock()
                    continuation.resume()
                } else if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters.append((id, continuation))
                    lock.unlock()
                }
            }
        } onCancel: {
            lock.lock()
            let index = waiters.firstIndex { $0.id == id }
            let waiter = index.map { waiters.remove(at: $0) }
            lock.unlock()
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }
}
