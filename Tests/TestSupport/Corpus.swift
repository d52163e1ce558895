import Foundation

/// Locates the shared image corpus: `$IMAGEPIPELINE_CORPUS`, else `../shared/corpus` beside
/// the repository (where CI and developer machines keep it).
public enum Corpus {
    public static let root: URL = {
        if let override = ProcessInfo.processInfo.environment["IMAGEPIPELINE_CORPUS"] {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        // This file is Tests/TestSupport/Corpus.swift: three levels below the repository root.
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return repository.deletingLastPathComponent().appendingPathComponent("shared/corpus", isDirectory: true)
    }()

    /// The URL of a file or folder inside the corpus, e.g. `Corpus.url("pngsuite/basn2c08.png")`.
    public static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// The bytes of a corpus file.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// File names (not paths) in a corpus folder with one of the given extensions, sorted.
    public static func files(in folder: String, extensions: Set<String>) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url(folder).path)) ?? []
        return names.filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
    }
}
