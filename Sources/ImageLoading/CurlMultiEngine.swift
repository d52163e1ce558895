import CCurl
import CImageSupport
import Foundation
import ImageCore
import Logging

/// Owns the curl multi handle and the one thread that drives it.
///
/// Other threads talk to the engine only through `inbox` (new transfers, cancellations) and
/// `curl_multi_wakeup`, which interrupts `curl_multi_poll`. Everything else, including every
/// libcurl call on the multi, share and easy handles, happens on the engine thread, so the
/// per-chunk path takes no lock and hops no actor.
final class CurlMultiEngine: @unchecked Sendable {   // safety argued in the comment beside it
    // Sendable: `inbox` and `nextID` are guarded by `lock`; `multi` is only used on the engine
    // thread except for curl_multi_wakeup, which libcurl documents as thread-safe; all other
    // stored properties are confined to the engine thread (see `run()`).
    private struct Inbox {
        var submissions: [CurlTransfer] = []
        var cancellations: [UInt64] = []
        var priorityRaises: [(id: UInt64, priority: DataRequest.Priority)] = []
        var shutdownWhenIdle = false
        /// A curl_multi_wakeup is on its way for what the inbox holds; later additions need
        /// none until the engine drains it (saves a syscall per submission under bursts).
        var wakeupPending = false

        /// Marks a wake-up as pending and says whether the caller must send it.
        mutating func claimWakeup() -> Bool {
            defer { wakeupPending = true }
            return !wakeupPending
        }
    }

    private let lock = NSLock()
    private var inbox = Inbox()
    private var nextID: UInt64 = 0

    private let configuration: CurlDataLoader.Configuration
    private let logger: Logger
    private let multi: UnsafeMutableRawPointer
    private let share: UnsafeMutableRawPointer?

    // Engine thread only.
    private var queue: TransferQueue
    private var queuedByID: [UInt64: CurlTransfer] = [:]
    private var activeByID: [UInt64: CurlTransfer] = [:]
    private var activeByHandle: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private var pendingFlush: [CurlTransfer] = []
    private var idleHandles: [UnsafeMutableRawPointer] = []
    private var isShuttingDown = false

    init(configuration: CurlDataLoader.Configuration) {
        self.configuration = configuration
        logger = configuration.logger
        CurlGlobal.initializeOnce()
        guard let multi = curl_multi_init() else { fatalError("curl_multi_init failed: out of memory") }
        self.multi = multi
        // HTTP/2 streams share a connection where the server offers it (libcurl's default,
        // stated so it survives a changed default).
        _ = cis_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = cis_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(16, configuration.maxConcurrentTransfers * 2))
        share = curl_share_init()
        if let share {
            // One thread uses the share handle, so no lock callbacks are needed.
            _ = cis_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
            _ = cis_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue))
        }
        queue = TransferQueue(order: configuration.queueOrder)
        let thread = Thread { [self] in
            Thread.current.name = "imagepipeline.curl"
            run()
        }
        thread.start()
    }

    // MARK: Any thread

    func makeTransferID() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        nextID += 1
        return nextID
    }

    func submit(_ transfer: CurlTransfer) {
        lock.lock()
        inbox.submissions.append(transfer)
        let mustWake = inbox.claimWakeup()
        lock.unlock()
        if mustWake { curl_multi_wakeup(multi) }
    }

    func cancel(_ id: UInt64) {
        lock.lock()
        inbox.cancellations.append(id)
        let mustWake = inbox.claimWakeup()
        lock.unlock()
        if mustWake { curl_multi_wakeup(multi) }
    }

    func raisePriority(_ id: UInt64, to priority: DataRequest.Priority) {
        lock.lock()
        inbox.priorityRaises.append((id, priority))
        let mustWake = inbox.claimWakeup()
        lock.unlock()
        if mustWake { curl_multi_wakeup(multi) }
    }

    func shutdownWhenIdle() {
        lock.lock()
        inbox.shutdownWhenIdle = true
        let mustWake = inbox.claimWakeup()
        lock.unlock()
        if mustWake { curl_multi_wakeup(multi) }
    }

    // MARK: Engine thread

    private func run() {
        while true {
            drainInbox()
            startQueuedTransfers()
            if isShuttingDown && activeByID.isEmpty && queue.count == 0 { break }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            collectFinishedTransfers()
            flushPendingDeliveries()
            // Refill the slots that just freed before sleeping: nothing else would wake the
            // poll for them. A newly added handle also makes libcurl's next timeout 0, so the
            // poll below returns at once and the new transfers start in this pass.
            startQueuedTransfers()
            if !activeByID.isEmpty || queue.count > 0 || !isShuttingDown {
                curl_multi_poll(multi, nil, 0, 1000, nil)
            }
        }
        for handle in idleHandles { curl_easy_cleanup(handle) }
        curl_multi_cleanup(multi)
        if let share { curl_share_cleanup(share) }
    }

    private func drainInbox() {
        lock.lock()
        let submissions = inbox.submissions
        let cancellations = inbox.cancellations
        let priorityRaises = inbox.priorityRaises
        inbox.submissions.removeAll(keepingCapacity: true)
        inbox.cancellations.removeAll(keepingCapacity: true)
        inbox.priorityRaises.removeAll(keepingCapacity: true)
        isShuttingDown = inbox.shutdownWhenIdle
        inbox.wakeupPending = false
        lock.unlock()
        for transfer in submissions {
            transfer.engine = self
            queue.enqueue(transfer)
            queuedByID[transfer.id] = transfer
        }
        for id in cancellations { cancelOnEngine(id) }
        for raise in priorityRaises {
            // Only a queued transfer moves; a running one already has its slot.
            if let transfer = queuedByID[raise.id] { queue.raise(transfer, to: raise.priority) }
        }
    }

    private func cancelOnEngine(_ id: UInt64) {
        if let transfer = queuedByID.removeValue(forKey: id) {
            transfer.isCancelled = true
            queue.noteCancelled()
            transfer.sink.fail(CancellationError())
        } else if let transfer = activeByID[id] {
            // Removing a transfer that is mid-response makes libcurl close its connection, so
            // the server sees the socket close now rather than at some timeout.
            transfer.isCancelled = true
            finish(transfer, with: CancellationError())
        }
    }

    private func startQueuedTransfers() {
        while activeByID.count < configuration.maxConcurrentTransfers, let transfer = queue.popNext() {
            queuedByID[transfer.id] = nil
            let easy = idleHandles.popLast() ?? curl_easy_init()
            guard let easy else {
                transfer.sink.fail(ImagePipelineError.transferFailed(message: "curl_easy_init failed"))
                continue
            }
            transfer.easy = easy
            if let error = CurlEasySetup.configure(easy, for: transfer, configuration: configuration, share: share) {
                transfer.easy = nil
                curl_easy_reset(easy)
                idleHandles.append(easy)
                transfer.sink.fail(error)
                continue
            }
            activeByID[transfer.id] = transfer
            activeByHandle[easy] = transfer
            let code = curl_multi_add_handle(multi, easy)
            if code != CURLM_OK {
                finish(transfer, with: ImagePipelineError.transferFailed(message: String(cString: curl_multi_strerror(code))))
            }
        }
    }

    private func collectFinishedTransfers() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                  let transfer = activeByHandle[easy] else { continue }
            let code = cis_multi_message_result(message)
            if let failure = transfer.failure {
                finish(transfer, with: failure)
            } else if transfer.consumerGone {
                finish(transfer, with: CancellationError())
            } else if code == CURLE_OK {
                if transfer.headDelivered || transfer.deliverHead() {
                    finish(transfer, with: nil)
                } else {
                    finish(transfer, with: transfer.failure ?? CancellationError())
                }
            } else {
                finish(transfer, with: CurlErrorMapping.error(for: code, transfer: transfer,
                                                              maxRedirects: configuration.maxRedirects))
            }
        }
    }

    private func flushPendingDeliveries() {
        guard !pendingFlush.isEmpty else { return }
        let transfers = pendingFlush
        pendingFlush.removeAll(keepingCapacity: true)
        for transfer in transfers where transfer.easy != nil {
            transfer.flushPending()
            if transfer.consumerGone { finish(transfer, with: CancellationError()) }
        }
    }

    /// Called from a callback the first time a transfer has a head or bytes in this round.
    func markPendingFlush(_ transfer: CurlTransfer) {
        pendingFlush.append(transfer)
    }

    /// Removes a running transfer, recycles its handle and ends its sequence.
    private func finish(_ transfer: CurlTransfer, with error: (any Error)?) {
        guard let easy = transfer.easy else { return }
        curl_multi_remove_handle(multi, easy)
        activeByID[transfer.id] = nil
        activeByHandle[easy] = nil
        transfer.easy = nil
        curl_easy_reset(easy)
        idleHandles.append(easy)
        if let error {
            if !(error is CancellationError) {
                transfer.flushPending()   // the bytes that did arrive, before the error that ended them
                logger.debug("transfer failed", metadata: ["url": "\(transfer.request.url)", "error": "\(error)"])
            }
            transfer.sink.fail(error)
        } else {
            transfer.flushPending()
            transfer.sink.finish()
        }
    }
}

/// curl_global_init must run once, before any other libcurl call.
enum CurlGlobal {
    private static let initialized: Bool = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }()

    static func initializeOnce() {
        _ = initialized
    }
}
