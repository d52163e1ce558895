import Foundation

/// Finds an executable product of this package built next to the test bundle
/// (`swift build --build-tests` builds every executable into the same folder).
public enum BuiltProduct {
    /// The executable named `name`, or `nil` when it has not been built.
    public static func locate(_ name: String) -> URL? {
        let manager = FileManager.default
        var folders: [URL] = []
        let executables = [
            (try? manager.destinationOfSymbolicLink(atPath: "/proc/self/exe")).map { URL(fileURLWithPath: $0) },
            Bundle.main.executableURL,
            CommandLine.arguments.first.map { URL(fileURLWithPath: $0) },
        ].compactMap { $0 }
        for executable in executables {
            var folder = executable.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0 ..< 4 {
                folders.append(folder)
                folder = folder.deletingLastPathComponent()
            }
        }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        folders.append(repository.appendingPathComponent(".build/debug"))
        for folder in folders {
            let candidate = folder.appendingPathComponent(name)
            if manager.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}

/// What a finished child process printed and how it ended.
public struct CommandResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

extension BuiltProduct {
    /// Runs `executable` with `arguments` to completion. The waiting happens on a thread of its
    /// own, never on a cooperative thread.
    public static func run(_ executable: URL, _ arguments: [String]) async throws -> CommandResult {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do {
                    let process = Process()
                    process.executableURL = executable
                    process.arguments = arguments
                    let (output, errors) = (Pipe(), Pipe())
                    process.standardOutput = output
                    process.standardError = errors
                    process.standardInput = FileHandle.nullDevice
                    try process.run()
                    // Drain stderr on another thread so a chatty child cannot fill its pipe and stall.
                    let errorData = ErrorDrain(errors.fileHandleForReading)
                    let outputData = output.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    continuation.resume(returning: CommandResult(status: process.terminationStatus,
                                                                 stdout: String(decoding: outputData, as: UTF8.self),
                                                                 stderr: String(decoding: errorData.wait(), as: UTF8.self)))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.start()
        }
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class ErrorDrain: @unchecked Sendable {   // `data` is written once, before `done` is signalled
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
