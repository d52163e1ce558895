import Foundation
import Synchronization

/// Shows progress on stderr: a redrawn bar on a terminal, a plain line per 10 % otherwise.
final class ProgressReporter: Sendable {
    private struct State { var done = 0; var failed = 0; var lastDecile = 0 }
    private let total: Int
    private let interactive: Bool
    private let state = Mutex(State())

    init(total: Int, interactive: Bool) {
        self.total = total
        self.interactive = interactive
    }

    func advance(failed: Bool) {
        let line: String? = state.withLock { state in
            state.done += 1
            if failed { state.failed += 1 }
            if interactive { return bar(done: state.done, failed: state.failed) }
            let decile = state.done * 10 / max(total, 1)
            guard decile > state.lastDecile else { return nil }
            state.lastDecile = decile
            return "\(state.done)/\(total) done, \(state.failed) failed\n"
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    func finish() {
        if interactive { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    private func bar(done: Int, failed: Int) -> String {
        let width = 30
        let filled = total == 0 ? width : done * width / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        return "\r[\(bar)] \(done)/\(total)" + (failed > 0 ? " (\(failed) failed)" : "")
    }
}
