import Foundation
import Logging

/// A disk store that may still be opening.
///
/// Opening a ``DiskStore`` rebuilds its index from the directory, which is asynchronous; the
/// default ``Pipeline/init()`` is synchronous, so it starts the opening here and every stage
/// awaits it on first use. If opening fails, the pipeline logs once and works without a disk cache.
final class DiskStoreHandle: Sendable {
    private let opening: Task<DiskStore?, Never>

    /// A store that is already open.
    init(_ store: DiskStore) {
        opening = Task { store }
    }

    /// Starts opening a store in `directory`.
    init(opening directory: URL, logger: Logger) {
        opening = Task {
            do {
                return try await DiskStore(directory: directory)
            } catch {
                logger.warning("disk cache disabled", metadata: ["directory": "\(directory.path)", "error": "\(error)"])
                return nil
            }
        }
    }

    /// The store, once open; `nil` if it could not be opened.
    var store: DiskStore? { get async { await opening.value } }
}
