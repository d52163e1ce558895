import Foundation

/// The events of one transfer, as an async sequence: one ``DataEvent/response(_:)``, then the
/// body's ``DataEvent/chunk(_:)``s, then the end. Errors are ``ImageCore/ImagePipelineError``s;
/// if the transfer was cancelled (the consuming task was cancelled, or the sequence dropped),
/// iteration throws `CancellationError` rather than ending quietly, so a partial body can never
/// pass for a whole one.
///
/// Cancelling the task that iterates stops the transfer at once and releases its resources.
/// Iterate a transfer once; it is not restartable.
public struct DataTransfer: AsyncSequence, Sendable {
    public typealias Element = DataEvent

    /// What travels through the underlying stream: events, then an explicit end marker.
    enum Signal: Sendable {
        case event(DataEvent)
        case completed
    }

    let stream: AsyncThrowingStream<Signal, any Error>
    let dropToken: DropToken
    let onRaisePriority: (@Sendable (DataRequest.Priority) -> Void)?

    /// Makes a transfer and the sink that feeds it, for ``DataLoading`` implementations.
    /// `onCancel` runs once if the consumer goes away before the sink finishes (on an arbitrary
    /// thread; keep it short and non-blocking). `onRaisePriority` receives ``raisePriority(to:)``.
    public static func makeTransfer(onCancel: @escaping @Sendable () -> Void = {},
                                    onRaisePriority: (@Sendable (DataRequest.Priority) -> Void)? = nil) -> (DataTransfer, Sink) {
        let (stream, continuation) = AsyncThrowingStream<Signal, any Error>.makeStream()
        continuation.onTermination = { termination in
            if case .cancelled = termination { onCancel() }
        }
        return (DataTransfer(stream: stream, dropToken: DropToken(onCancel: onCancel), onRaisePriority: onRaisePriority),
                Sink(continuation: continuation))
    }

    /// Moves a transfer that is still queued ahead of the lower priorities (for a shared load
    /// that a more urgent caller joined). A transfer already running, or a loader that does not
    /// queue, ignores it; priorities are only ever raised.
    public func raisePriority(to priority: DataRequest.Priority) {
        onRaisePriority?(priority)
    }

    /// A transfer that fails at once with `error`.
    public static func failed(_ error: any Error) -> DataTransfer {
        let (transfer, sink) = makeTransfer()
        sink.fail(error)
        return transfer
    }

    /// The producing side of a ``DataTransfer``. All methods may be called from any thread.
    public struct Sink: Sendable {
        let continuation: AsyncThrowingStream<Signal, any Error>.Continuation

        /// Delivers one event. Returns `false` once the consumer is gone: stop producing.
        @discardableResult
        public func yield(_ event: DataEvent) -> Bool {
            if case .terminated = continuation.yield(.event(event)) { return false }
            return true
        }

        /// Ends the transfer successfully.
        public func finish() {
            continuation.yield(.completed)
            continuation.finish()
        }

        /// Ends the transfer with an error.
        public func fail(_ error: any Error) {
            continuation.finish(throwing: error)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), dropToken: dropToken)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Signal, any Error>.AsyncIterator
        let dropToken: DropToken
        var isDone = false

        public mutating func next() async throws -> DataEvent? {
            guard !isDone else { return nil }
            do {
                switch try await base.next() {
                case .event(let event)?:
                    return event
                case .completed?:
                    isDone = true
                    dropToken.isCompleted = true
                    return nil
                case nil:
                    // The stream ended without its end marker: the consumer was cancelled.
                    isDone = true
                    throw CancellationError()
                }
            } catch {
                isDone = true
                dropToken.isCompleted = true
                throw error
            }
        }
    }
}

/// Cancels a transfer whose every copy (and iterator) was dropped before it completed: the
/// stream's own termination handler cannot see that while the producer still holds it.
final class DropToken: @unchecked Sendable {   // safety argued in the comment beside it
    // Sendable: `isCompleted` is written only by the single task iterating the transfer, and
    // read in deinit, which runs after every reference (that task's included) is gone.
    var isCompleted = false
    private let onCancel: @Sendable () -> Void

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    deinit {
        if !isCompleted { onCancel() }
    }
}
