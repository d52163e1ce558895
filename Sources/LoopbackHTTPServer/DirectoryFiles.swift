import Foundation
import NIOPosix

/// Serves the files of one folder for ``Route/directory(_:)``.
enum DirectoryFiles {
    static func response(for name: String, in folder: URL) async -> Route.Response {
        let notFound = Route.Response(status: 404, headers: ["Content-Type": "text/plain"], body: Data("not found".utf8))
        let decoded = name.removingPercentEncoding ?? name
        guard !decoded.isEmpty, !decoded.contains("/"), decoded != "..", decoded != "." else { return notFound }
        // File reads run on NIO's blocking-I/O pool, not on the cooperative pool.
        let file = folder.appendingPathComponent(decoded)
        guard let body = try? await NIOThreadPool.singleton.runIfActive({ try Data(contentsOf: file) }) else { return notFound }
        return Route.Response(status: 200, headers: ["Content-Type": contentType(forExtension: (decoded as NSString).pathExtension)],
                              body: body)
    }

    static func contentType(forExtension pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "svg": return "image/svg+xml"
        case "html": return "text/html; charset=utf-8"
        case "txt": return "text/plain; charset=utf-8"
        case "json": return "application/json"
        default: return "application/octet-stream"
        }
    }
}
