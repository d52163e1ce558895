import ArgumentParser

/// `imagepipe`: the command-line face of ImagePipeline.
@main
struct ImagePipeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imagepipe",
        abstract: "Fetch, decode, process and cache images.",
        subcommands: [
            InspectCommand.self,
            ConvertCommand.self,
            FetchCommand.self,
            DemoCommand.self,
            BenchCommand.self,
        ]
    )
}
