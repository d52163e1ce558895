/// Transfers waiting for a slot: highest priority first, FIFO or LIFO within a priority.
/// Engine-thread only. Cancelled entries, and the old entries of transfers whose priority was
/// raised, are skipped lazily when they reach the front.
struct TransferQueue {
    private var buckets: [[CurlTransfer]] = Array(repeating: [], count: DataRequest.Priority.allCases.count)
    /// Index of the oldest live entry per bucket (FIFO pops advance it instead of shifting).
    private var heads: [Int] = Array(repeating: 0, count: DataRequest.Priority.allCases.count)
    private let order: CurlDataLoader.Configuration.QueueOrder
    private(set) var count = 0

    init(order: CurlDataLoader.Configuration.QueueOrder) {
        self.order = order
    }

    mutating func enqueue(_ transfer: CurlTransfer) {
        transfer.queuedPriority = transfer.request.priority
        buckets[transfer.request.priority.rawValue].append(transfer)
        count += 1
    }

    /// Moves a queued transfer to a higher priority, behind the transfers already waiting there
    /// (its old entry stays in place and is skipped when popped). Lower priorities are ignored.
    mutating func raise(_ transfer: CurlTransfer, to priority: DataRequest.Priority) {
        guard priority > transfer.queuedPriority, !transfer.isCancelled else { return }
        transfer.queuedPriority = priority
        buckets[priority.rawValue].append(transfer)
    }

    /// Called when a queued transfer was cancelled (it stays in place until popped).
    mutating func noteCancelled() {
        count -= 1
    }

    mutating func popNext() -> CurlTransfer? {
        for bucket in buckets.indices.reversed() {
            while heads[bucket] < buckets[bucket].count {
                let transfer: CurlTransfer
                switch order {
                case .fifo:
                    transfer = buckets[bucket][heads[bucket]]
                    heads[bucket] += 1
                case .lifo:
                    transfer = buckets[bucket].removeLast()
                }
                compact(bucket)
                if transfer.isCancelled || transfer.queuedPriority.rawValue != bucket { continue }
                count -= 1
                return transfer
            }
        }
        return nil
    }

    private mutating func compact(_ bucket: Int) {
        if heads[bucket] == buckets[bucket].count {
            buckets[bucket].removeAll(keepingCapacity: true)
            heads[bucket] = 0
        } else if heads[bucket] > 64, heads[bucket] * 2 > buckets[bucket].count {
            buckets[bucket].removeFirst(heads[bucket])
            heads[bucket] = 0
        }
    }

    /// Every live queued transfer, emptying the queue (used at shutdown).
    mutating func drain() -> [CurlTransfer] {
        var all: [CurlTransfer] = []
        while let transfer = popNext() { all.append(transfer) }
        return all
    }
}
