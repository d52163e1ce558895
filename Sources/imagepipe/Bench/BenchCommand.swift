import ArgumentParser

/// `imagepipe bench …`: in-process benchmarks that print figures (see Benchmarks/ for the
/// scripts that run them next to peer tools).
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure decoding, resizing, thumbnails, caches and HTTP loading.",
        subcommands: [
            BenchDecodeCommand.self,
            BenchHTTPCommand.self,
            BenchCacheCommand.self,
            BenchResizeCommand.self,
            BenchThumbnailCommand.self,
        ]
    )
}
