import Foundation
import ImageCore

/// The default ``DataLoading``: libcurl's multi interface on one dedicated thread.
///
/// All transfers share one multi handle, so connections are reused and HTTP/2 streams
/// multiplexed where a server offers it; DNS answers are cached; bodies are decoded from
/// whatever `Content-Encoding` the linked libcurl supports. At most
/// ``Configuration/maxConcurrentTransfers`` run at once, the rest wait by priority.
/// `file:` and `data:` URLs are served without curl.
///
/// ```swift
/// var configuration = CurlDataLoader.Configuration()
/// configuration.maxConcurrentTransfers = 8
/// let loader = CurlDataLoader(configuration: configuration)
/// let (head, bytes) = try await loader.data(for: DataRequest(url: url))
/// ```
public final class CurlDataLoader: DataLoading {
    /// A loader with the default configuration, shared by the process.
    public static let shared = CurlDataLoader()

    public let configuration: Configuration
    private let engine: CurlMultiEngine

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        engine = CurlMultiEngine(configuration: configuration)
    }

    deinit {
        // The engine thread finishes the transfers it still has, then exits.
        engine.shutdownWhenIdle()
    }

    public func load(_ request: DataRequest) -> DataTransfer {
        switch request.url.scheme?.lowercased() {
        case "http", "https":
            return loadHTTP(request)
        case "file":
            return FileURLReader.load(request.url, maxSize: configuration.maxResponseSize)
        case "data":
            return DataURLDecoder.load(request.url, maxSize: configuration.maxResponseSize)
        case let scheme?:
            return .failed(ImagePipelineError.unsupportedScheme(scheme))
        case nil:
            return .failed(ImagePipelineError.invalidURL(request.url.absoluteString))
        }
    }

    private func loadHTTP(_ request: DataRequest) -> DataTransfer {
        guard let host = request.url.host, !host.isEmpty else {
            return .failed(ImagePipelineError.invalidURL(request.url.absoluteString))
        }
        let modifiers = [configuration.requestModifier, request.modifier].compactMap { $0 }
        let engine = self.engine
        if modifiers.isEmpty {
            let id = engine.makeTransferID()
            let (transfer, sink) = DataTransfer.makeTransfer(onCancel: { engine.cancel(id) },
                                                             onRaisePriority: { engine.raisePriority(id, to: $0) })
            engine.submit(CurlTransfer(id: id, request: request, sink: sink, maxResponseSize: configuration.maxResponseSize))
            return transfer
        }
        // The modifiers are async, so submission waits for them in a task; `handoff` makes
        // sure a cancellation either stops the task before submission or reaches the engine.
        let handoff = ModifierHandoff()
        let maxSize = configuration.maxResponseSize
        let id = engine.makeTransferID()
        // A raise that arrives while the modifiers still run is dropped: the engine does not know
        // the transfer yet (the request keeps the priority it was made with).
        let (transfer, sink) = DataTransfer.makeTransfer(onCancel: { handoff.cancel(engine: engine, id: id) },
                                                         onRaisePriority: { engine.raisePriority(id, to: $0) })
        let task = Task {
            var modified = request
            do {
                for modifier in modifiers { modified = try await modifier(modified) }
            } catch is CancellationError {
                sink.fail(CancellationError())
                return
            } catch let error as ImagePipelineError {
                sink.fail(error)
                return
            } catch {
                sink.fail(ImagePipelineError.requestRefused(reason: String(describing: error)))
                return
            }
            handoff.submit { engine.submit(CurlTransfer(id: id, request: modified, sink: sink, maxResponseSize: maxSize)) }
        }
        handoff.attach(task)
        return transfer
    }
}

/// Orders "modifier finished, submit" against "consumer cancelled" for one request.
private final class ModifierHandoff: @unchecked Sendable {   // safety argued in the comment beside it
    // Every field is read and written with `lock` held, which is what makes this Sendable.
    private let lock = NSLock()
    private var isSubmitted = false
    private var isCancelled = false
    private var task: Task<Void, Never>?

    func attach(_ task: Task<Void, Never>) {
        lock.lock()
        self.task = task
        let cancelled = isCancelled
        lock.unlock()
        if cancelled { task.cancel() }
    }

    func submit(_ body: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        guard !isCancelled else { return }
        isSubmitted = true
        body()
    }

    func cancel(engine: CurlMultiEngine, id: UInt64) {
        lock.lock()
        isCancelled = true
        let submitted = isSubmitted
        let task = self.task
        lock.unlock()
        task?.cancel()
        if submitted { engine.cancel(id) }
    }
}
