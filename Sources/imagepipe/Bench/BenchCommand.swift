import ArgumentParser

/// `imagepipe bench …`: in-process benchmarks that print figures (see Benchmarks/ for the
/// scripts that run them next to peer tools).
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure decoding, resizing, thumbnails and HTTP loading.",
        subcommands: [
            BenchResizeCommand.self,
        ]
    )
}
