import Foundation

/// An append-only, thread-safe record of events that tests can read at any time or await:
/// `wait(until:)` resumes as soon as the recorded events satisfy a condition, so tests
/// synchronise on what happened rather than on time.
///
/// ```swift
/// try await server.requests.wait { $0.contains { $0.path == "/held" } }
/// ```
public final class EventLog<Event: Sendable>: @unchecked Sendable {   // safe: all mutable state behind one lock (below)
    // Sendable: every stored property is read and written with `lock` held.
    private let lock = NSLock()
    private var events: [Event] = []
    private var waiters: [UInt64: Waiter] = [:]
    private var nextWaiterID: UInt64 = 0

    private struct Waiter {
        let condition: @Sendable ([Event]) -> Bool
        let continuation: CheckedContinuation<[Event], any Error>
    }

    public init() {}

    /// Every event so far, oldest first.
    public var all: [Event] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }

    public func append(_ event: Event) {
        lock.lock()
        events.append(event)
        let snapshot = events
        var ready: [CheckedContinuation<[Event], any Error>] = []
        for (id, waiter) in waiters where waiter.condition(snapshot) {
            ready.append(waiter.continuation)
            waiters[id] = nil
        }
        lock.unlock()
        for continuation in ready { continuation.resume(returning: snapshot) }
    }

    /// Suspends until `condition` holds for the events recorded so far and returns them.
    /// Throws `CancellationError` if the waiting task is cancelled first.
    @discardableResult
    public func wait(until condition: @escaping @Sendable ([Event]) -> Bool) async throws -> [Event] {
        let id = lock.withLock {
            defer { nextWaiterID += 1 }
            return nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[Event], any Error>) in
                lock.lock()
                if condition(events) {
                    let snapshot = events
                    lock.unlock()
                    continuation.resume(returning: snapshot)
                } else if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters[id] = Waiter(condition: condition, continuation: continuation)
                    lock.unlock()
                }
            }
        } onCancel: {
            lock.lock()
            let waiter = waiters.removeValue(forKey: id)
            lock.unlock()
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Suspends until an event matching `predicate` has been recorded and returns the first one.
    public func first(where predicate: @escaping @Sendable (Event) -> Bool) async throws -> Event {
        let events = try await wait { $0.contains(where: predicate) }
        // The condition guaranteed a match.
        return events.first(where: predicate)!
    }
}
