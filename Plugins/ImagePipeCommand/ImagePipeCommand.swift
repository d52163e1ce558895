import Foundation
import PackagePlugin

/// `swift package imagepipe ARGS…`: builds the `imagepipe` tool and runs it with ARGS in the
/// package directory, so a project that depends on ImagePipeline can inspect, convert, fetch or
/// benchmark images without installing the tool.
///
/// ```
/// swift package imagepipe inspect Examples/SampleImages/kodim01.jpg --json
/// swift package imagepipe convert in.jpg /tmp/out.webp --max-size 512
/// ```
@main
struct ImagePipeCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "imagepipe")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            Diagnostics.error("imagepipe \(arguments.joined(separator: " ")) failed with status \(process.terminationStatus)")
            return
        }
    }
}
