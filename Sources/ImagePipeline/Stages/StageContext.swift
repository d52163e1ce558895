import Foundation
import Logging

/// The parts every stage uses, captured once so stage work can run off the pipeline actor.
struct StageContext: Sendable {
    let loader: any DataLoading
    let memoryCache: MemoryCache<ImageCacheKey, Image>?
    let disk: DiskStoreHandle?
    let pool: BlockingWorkPool
    let previewInterval: Duration
    let processedImageQuality: Int
    let logger: Logger
    let statistics: StatisticsRecorder

    /// Runs CPU-heavy work on the pipeline's pool and returns its result, keeping the
    /// cooperative threads free. Errors other than `ImagePipelineError` are passed through.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.run(body)
    }
}
