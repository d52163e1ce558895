import Foundation

/// A fixed set of threads for CPU-heavy or blocking work (decoding, processing, file I/O).
///
/// Swift's cooperative thread pool has one thread per core; parking one of them in a long
/// decode or a blocking read stalls every task in the process. Work submitted here runs on
/// this pool's own threads and the awaiting task is suspended, not blocked. The width bounds
/// how many jobs run at once, which also bounds the memory they hold.
///
/// ```swift
/// let image = try await BlockingWorkPool.shared.run { try decoder.decode(data, options: options) }
/// ```
public final class BlockingWorkPool: Sendable {
    /// A pool as wide as the machine has cores.
    public static let shared = BlockingWorkPool(width: ProcessInfo.processInfo.activeProcessorCount,
                                                name: "imgpipe.work")

    /// How many jobs run at once.
    public let width: Int
    private let queue: JobQueue

    /// Starts `width` threads named `name` plus an index (Linux keeps at most 15 bytes of a
    /// thread name: keep `name` short). The pool lives for the rest of the process.
    public init(width: Int, name: String) {
        self.width = max(1, width)
        queue = JobQueue()
        for index in 0 ..< self.width {
            let threadName = "\(name).\(index)"
            // Named from inside: corelibs Foundation drops a name set before start().
            let thread = Thread { [queue] in
                Thread.current.name = threadName
                queue.workLoop()
            }
            thread.stackSize = 4 << 20   // codecs recurse and keep sizeable tables on the stack
            thread.start()
        }
    }

    /// Whether the calling thread is one of this pool's (diagnostics and tests).
    public func ownsCurrentThread() -> Bool {
        queue.hasWorker(pthread_self())
    }

    /// Runs `body` on one of the pool's threads and returns its result. If the calling task
    /// is cancelled before the job starts, the job is skipped and `CancellationError` thrown.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let isCancelled = Task.isCancelled
            queue.enqueue {
                if isCancelled {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                continuation.resume(with: Result { try body() })
            }
        }
    }
}

/// A FIFO of jobs guarded by a condition variable; the pool's threads wait on it.
private final class JobQueue: @unchecked Sendable {   // safety argued in the comment beside it
    // All access to `jobs` happens with `condition` locked, which is what makes this Sendable.
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var head = 0
    /// The threads serving this queue, recorded as each starts.
    private var workers: Set<pthread_t> = []

    func hasWorker(_ thread: pthread_t) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return workers.contains(thread)
    }

    func enqueue(_ job: @escaping () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func workLoop() {
        condition.lock()
        workers.insert(pthread_self())
        condition.unlock()
        while true {
            condition.lock()
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            if head > 1024, head * 2 > jobs.count {   // compact now and then, amortised O(1)
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job()
        }
    }
}
