import Synchronization

/// One unit of work shared by every caller that asks for the same key.
///
/// The work runs in one `Task` and publishes events; each caller holds its own stream of them
/// (``subscribe(wantsPreviews:priority:)``). A caller who asks for previews and joins late first
/// receives the latest preview, then everything after it. The work is cancelled when the last subscriber
/// leaves before it finishes, and only then: one caller's cancellation never cancels the others.
///
/// Life cycle: create, ``subscribe()`` at least once, ``start(_:)``. Once finished
/// or abandoned, ``subscribe()`` returns `nil` and the owner starts a fresh task instead.
final class CoalescedTask<Event: Sendable>: Sendable {
    typealias Events = AsyncThrowingStream<Event, any Error>

    /// One caller's events and the task they come from (to pass priority raises on to it).
    struct Subscription: Sendable {
        let events: Events
        let task: CoalescedTask
    }

    /// Publishes events to the current subscribers; handed to the work closure.
    struct Publisher: Sendable {
        fileprivate let task: CoalescedTask
        /// Sends `event` to every subscriber.
        func send(_ event: Event) { task.publish(event, isPreview: false) }
        /// Sends the last event and ends every subscriber's stream in one step, so nobody can join
        /// between the result and the end and wait for nothing. The work may go on afterwards
        /// (writing caches, say) without holding anyone up.
        func finish(with event: Event) { task.close(with: nil, lastEvent: event) }
        /// Sends a preview to the subscribers that asked for previews, and keeps it for the
        /// ones that join later.
        func sendPreview(_ event: Event) { task.publish(event, isPreview: true) }
        /// Installs `handler`, called with the new priority whenever a caller with a higher one
        /// joins, and returns the priority as it is now (atomically with the installation, so no
        /// raise falls between the two). The work passes raises on to what it waits for.
        func observePriority(_ handler: @escaping @Sendable (RequestPriority) -> Void) -> RequestPriority {
            task.state.withLock { state in
                state.priorityHandler = handler
                return state.priority
            }
        }
        /// Whether any current subscriber asked for previews (skip making them otherwise).
        var wantsPreviews: Bool { task.state.withLock { state in state.subscribers.values.contains { $0.wantsPreviews } } }
    }

    private struct Subscriber {
        let continuation: Events.Continuation
        let wantsPreviews: Bool
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var nextSubscriberID = 0
        var replay: Event?
        var isClosed = false           // finished, failed or abandoned: no new subscribers
        var work: Task<Void, Never>?
        /// The highest priority of any caller so far.
        var priority: RequestPriority = .veryLow
        var priorityHandler: (@Sendable (RequestPriority) -> Void)?
    }

    // The continuations in `State` are Sendable; `Event` is Sendable; the Mutex serialises access.
    private let state = Mutex(State())
    private let onClose: @Sendable (CoalescedTask) -> Void

    /// - Parameter onClose: called once when the task can take no more subscribers (finished,
    ///   failed or abandoned), so the owner can drop it from its in-flight table.
    init(onClose: @escaping @Sendable (CoalescedTask) -> Void) {
        self.onClose = onClose
    }

    /// Adds a subscriber, or returns `nil` when the task is closed. A subscriber that wants
    /// previews first receives the latest one, if any. A higher `priority` than the work's
    /// raises it (see ``raisePriority(to:)``).
    func subscribe(wantsPreviews: Bool = false, priority: RequestPriority = .normal) -> Events? {
        let (stream, continuation) = Events.makeStream(bufferingPolicy: .unbounded)
        let subscribed: Int? = state.withLock { state in
            guard !state.isClosed else { return nil }
            let id = state.nextSubscriberID
            state.nextSubscriberID += 1
            state.subscribers[id] = Subscriber(continuation: continuation, wantsPreviews: wantsPreviews)
            if wantsPreviews, let replay = state.replay { continuation.yield(replay) }
            return id
        }
        guard let id = subscribed else { return nil }
        raisePriority(to: priority)
        continuation.onTermination = { [weak self] termination in
            if case .cancelled = termination { self?.unsubscribe(id) }
        }
        return stream
    }

    /// Raises the work's priority to `priority` if that is higher: the work's task is escalated
    /// and the handler the work installed (``Publisher/observePriority(_:)``) passes it on, down
    /// to the transfer's place in the loader's queue. Priorities never drop while work runs.
    func raisePriority(to priority: RequestPriority) {
        let raised: (work: Task<Void, Never>?, handler: (@Sendable (RequestPriority) -> Void)?)? = state.withLock { state in
            guard priority > state.priority, !state.isClosed else { return nil }
            state.priority = priority
            return (state.work, state.priorityHandler)
        }
        guard let raised else { return }
        raised.work?.escalatePriority(to: priority.taskPriority)
        raised.handler?(priority)
    }

    /// Starts the work. Events go to subscribers; a thrown error ends every subscriber's stream
    /// with it; returning normally finishes them.
    func start(_ work: @escaping @Sendable (Publisher) async throws -> Void) {
        let publisher = Publisher(task: self)
        let priority = state.withLock { $0.priority }
        let task = Task(priority: priority.taskPriority) {
            do {
                try await work(publisher)
                self.close(with: nil)
            } catch {
                self.close(with: error)
            }
        }
        let abandonedBeforeStart = state.withLock { state -> Bool in
            state.work = task
            return state.isClosed
        }
        if abandonedBeforeStart { task.cancel() }
    }

    /// Whether the task still accepts subscribers (diagnostics and tests).
    var isOpen: Bool { state.withLock { !$0.isClosed } }

    /// The work's priority, and whether the work passes raises on yet (diagnostics and tests).
    var priorityState: (priority: RequestPriority, isForwarded: Bool) {
        state.withLock { ($0.priority, $0.priorityHandler != nil) }
    }

    private func publish(_ event: Event, isPreview: Bool) {
        state.withLock { state in
            guard !state.isClosed else { return }
            if isPreview { state.replay = event }
            for subscriber in state.subscribers.values where subscriber.wantsPreviews || !isPreview {
                subscriber.continuation.yield(event)
            }
        }
    }

    private func close(with error: (any Error)?, lastEvent: Event? = nil) {
        let subscribers: [Events.Continuation]? = state.withLock { state in
            guard !state.isClosed else { return nil }
            state.isClosed = true
            state.replay = nil
            defer { state.subscribers.removeAll() }
            let continuations = state.subscribers.values.map(\.continuation)
            // Yielded under the lock, like every other event, so the order is kept.
            if let lastEvent { for continuation in continuations { continuation.yield(lastEvent) } }
            return continuations
        }
        guard let subscribers else { return }
        for continuation in subscribers { continuation.finish(throwing: error) }
        onClose(self)
    }

    /// A subscriber went away (its consumer was cancelled or stopped iterating). The last one
    /// to leave cancels the work, which cancels everything below it.
    private func unsubscribe(_ id: Int) {
        let abandonedWork: Task<Void, Never>?? = state.withLock { state in
            guard state.subscribers.removeValue(forKey: id) != nil, state.subscribers.isEmpty, !state.isClosed else {
                return .none
            }
            state.isClosed = true
            state.replay = nil
            return .some(state.work)
        }
        guard case .some(let work) = abandonedWork else { return }
        work?.cancel()
        onClose(self)
    }
}
