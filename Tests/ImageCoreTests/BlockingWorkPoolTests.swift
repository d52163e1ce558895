import Foundation
import Testing
import ImageCore

@Suite("Blocking work pool")
struct BlockingWorkPoolTests {
    @Test("jobs run on the pool's own threads, never the caller's cooperative thread")
    func runsOnPoolThreads() async throws {
        let pool = BlockingWorkPool(width: 2, name: "test.pool")
        let answers = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0 ..< 8 { group.addTask { try await pool.run { pool.ownsCurrentThread() } } }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(answers == Array(repeating: true, count: 8))
        #expect(!pool.ownsCurrentThread())
        #expect(!BlockingWorkPool.shared.ownsCurrentThread())
    }

    @Test("errors thrown by a job reach the caller")
    func propagatesErrors() async {
        struct Boom: Error {}
        await #expect(throws: Boom.self) { try await BlockingWorkPool.shared.run { throw Boom() } }
    }

    @Test("a job submitted by an already cancelled task is skipped")
    func cancelledBeforeStart() async {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await BlockingWorkPool.shared.run { 42 }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
