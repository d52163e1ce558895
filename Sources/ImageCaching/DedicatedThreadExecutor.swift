import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A serial executor that runs every job on one thread of its own.
///
/// An actor that does blocking file I/O adopts it (through `unownedExecutor`) so its methods
/// run on this thread instead of Swift's cooperative pool: a slow disk then stalls only the
/// actor's callers, which are suspended, never the pool's threads. The thread ends when the
/// executor is released (which happens after its actor is gone, as jobs keep the actor alive).
final class DedicatedThreadExecutor: SerialExecutor {
    /// The name of the thread jobs run on.
    let threadName: String
    private let queue = ExecutorJobQueue()

    /// - Parameter name: at most 15 bytes: Linux truncates longer thread names (and a new thread
    ///   otherwise keeps its creator's name, e.g. a cooperative pool thread's).
    init(name: String) {
        threadName = String(decoding: name.utf8.prefix(15), as: UTF8.self)
        let executor = UnownedSerialExecutor(ordinary: self)
        let threadName = threadName
        let thread = Thread { [queue] in
            Thread.current.name = threadName   // set from inside: corelibs Foundation drops a name set before start()
            queue.runJobs(on: executor)
        }
        thread.start()
    }

    deinit { queue.finish() }

    func enqueue(_ job: consuming ExecutorJob) {
        queue.enqueue(UnownedJob(job))
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Whether the caller runs on this executor's thread.
    var isCurrentThread: Bool { queue.runnerThreadID.map { pthread_equal($0, pthread_self()) != 0 } ?? false }

    /// The POSIX id of the executor's thread, once it runs (thread names are unreliable on
    /// Linux: a new thread starts with its creator's name, and names are cut to 15 bytes).
    var threadID: pthread_t? { queue.runnerThreadID }
}

/// A FIFO of jobs guarded by a condition variable; the executor's thread drains it.
private final class ExecutorJobQueue: @unchecked Sendable {   // safe: all mutable state behind one lock (below)
    // Every stored property is read and written with `condition` locked, which makes sharing
    // this object between the enqueuing threads and the runner thread safe.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var finished = false
    private var runner: pthread_t?

    func enqueue(_ job: UnownedJob) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    var runnerThreadID: pthread_t? {
        condition.lock()
        defer { condition.unlock() }
        return runner
    }

    /// Runs jobs in order until `finish()` was called and no job is left.
    func runJobs(on executor: UnownedSerialExecutor) {
        condition.lock()
        runner = pthread_self()
        condition.unlock()
        while true {
            condition.lock()
            while head == jobs.count && !finished { condition.wait() }
            if head == jobs.count {   // finished and drained
                condition.unlock()
                return
            }
            let job = jobs[head]
            head += 1
            if head > 256, head * 2 > jobs.count {   // compact now and then, amortised O(1)
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }
}
