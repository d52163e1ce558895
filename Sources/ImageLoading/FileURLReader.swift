import Foundation
import ImageCore

/// Streams a `file:` URL from disk in chunks on ``ImageCore/BlockingWorkPool``, never on the
/// cooperative pool.
enum FileURLReader {
    static let chunkSize = 256 << 10

    static func load(_ url: URL, maxSize: Int) -> DataTransfer {
        let task = TaskHandle()
        let (transfer, sink) = DataTransfer.makeTransfer { task.cancel() }
        task.set(Task {
            do {
                try await BlockingWorkPool.shared.run { try read(url, maxSize: maxSize, into: sink) }
            } catch {
                sink.fail(error)
            }
        })
        return transfer
    }

    /// Runs on a pool thread; stops early once the consumer is gone.
    private static func read(_ url: URL, maxSize: Int, into sink: DataTransfer.Sink) throws {
        let path = url.path
        let unreadable = { (message: String) in ImagePipelineError.fileUnreadable(path: path, message: message) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw unreadable("no such file")
        }
        guard !isDirectory.boolValue else { throw unreadable("is a directory") }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw unreadable(error.localizedDescription)
        }
        defer { try? handle.close() }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if let size, size > maxSize { throw ImagePipelineError.responseTooLarge(limit: maxSize, declared: size) }
        var headers = [HeaderField]()
        if let size { headers.append(HeaderField(name: "Content-Length", value: String(size))) }
        let head = ResponseHead(statusCode: 200, url: url, headerFields: headers, expectedContentLength: size)
        guard sink.yield(.response(head)) else { return }
        var total = 0
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: chunkSize)
            } catch {
                throw unreadable(error.localizedDescription)
            }
            guard let chunk, !chunk.isEmpty else { break }
            total += chunk.count
            if total > maxSize { throw ImagePipelineError.responseTooLarge(limit: maxSize, declared: nil) }
            guard sink.yield(.chunk(chunk)) else { return }
        }
        sink.finish()
    }
}

/// A task set after the transfer that may cancel it is made (the order `makeTransfer` needs).
final class TaskHandle: @unchecked Sendable {   // safety argued in the comment beside it
    // Both fields are accessed only with `lock` held, which is what makes this Sendable.
    private let lock = NSLock()
    private var task: Task<Void, Never>?
    private var isCancelled = false

    func set(_ task: Task<Void, Never>) {
        lock.lock()
        self.task = task
        let cancelled = isCancelled
        lock.unlock()
        if cancelled { task.cancel() }
    }

    func cancel() {
        lock.lock()
        isCancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }
}
