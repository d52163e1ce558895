// diskstore-stress: a child process for the DiskStore crash and write-failure tests.
//
//   diskstore-stress storm <directory> <first>
//                                        writes entries forever, write number <first> onwards,
//                                        printing "wrote <n> <microseconds the store took>"
//                                        ("wrote n": writes 0..<n are done); the test kills
//                                        it with SIGKILL mid-storm, then starts it again.
//   diskstore-stress fsize <directory>   lowers RLIMIT_FSIZE, provokes a failing write (EFBIG) and
//                                        checks the store stayed consistent; prints "RESULT ok".
//
// Entry content is derived from (key, version) so the parent can verify every entry it reads
// (the same derivation is in Tests/ImageCachingTests/StressContent.swift).
import Foundation
import TestSupport
import ImageCaching
import ImageCore
#if canImport(Glibc)
import Glibc
#endif


/// One line to the parent, written straight to the pipe (no stdio buffering to lose on SIGKILL).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func storm(_ directory: URL, first: Int) async throws {
    let store = try await DiskStore(directory: directory, configuration: .init(sizeLimit: 1 << 40))
    let keyCount = 150
    for written in first ..< first + 10_000_000 {
        let key = "key-\(written % keyCount)"
        let version = written / keyCount
        let attributes = DiskEntryAttributes(validators: DiskEntryValidators(etag: "v\(version)"))
        let data = stressContent(key: key, version: version)
        let started = ContinuousClock.now
        try await store.store(data, forKey: key, attributes: attributes)
        let microseconds = (ContinuousClock.now - started) / .microseconds(1)
        say("wrote \(written + 1) \(Int(microseconds))")   // the parent aims its kill with the duration
    }
}

func fileSizeLimit(_ directory: URL) async throws {
    var limit = rlimit(rlim_cur: 64 << 10, rlim_max: 64 << 10)
    guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0 else { return say("RESULT fail: setrlimit") }
    signal(SIGXFSZ, SIG_IGN)   // write() past the limit then fails with EFBIG instead of killing us

    let store = try await DiskStore(directory: directory, configuration: .init(sizeLimit: 1 << 30))
    for index in 0 ..< 5 {
        try await store.store(Data(repeating: UInt8(index), count: 10_000), forKey: "small-\(index)")
    }
    let before = await store.statistics
    do {
        try await store.store(Data(repeating: 7, count: 200_000), forKey: "too-big")
        return say("RESULT fail: the oversized write succeeded")
    } catch ImagePipelineError.diskStoreFailed(let message) {
        say("failed as expected: \(message)")
    }
    let after = await store.statistics
    guard after.entries == before.entries, after.bytes == before.bytes else {
        return say("RESULT fail: totals changed \(before) -> \(after)")
    }
    guard after.writeFailures == 1 else { return say("RESULT fail: writeFailures \(after.writeFailures)") }
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("tmp").path)
    guard leftovers.isEmpty else { return say("RESULT fail: temp files left \(leftovers)") }
    var onDisk = 0
    for folder in try FileManager.default.contentsOfDirectory(atPath: directory.path) where folder != "tmp" {
        let folderPath = directory.appendingPathComponent(folder).path
        for file in try FileManager.default.contentsOfDirectory(atPath: folderPath) {
            onDisk += (try FileManager.default.attributesOfItem(atPath: folderPath + "/" + file)[.size] as? Int) ?? 0
        }
    }
    guard onDisk == after.bytes else { return say("RESULT fail: \(onDisk) bytes on disk, store says \(after.bytes)") }
    for index in 0 ..< 5 {
        guard await store.entry(forKey: "small-\(index)")?.data == Data(repeating: UInt8(index), count: 10_000) else {
            return say("RESULT fail: small-\(index) unreadable after the failure")
        }
    }
    guard await store.entry(forKey: "too-big") == nil else { return say("RESULT fail: too-big readable") }
    try await store.store(Data(repeating: 9, count: 10_000), forKey: "after")
    guard await store.entry(forKey: "after") != nil else { return say("RESULT fail: store unusable after the failure") }
    say("RESULT ok")
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: diskstore-stress storm <directory> <first> | fsize <directory>\n".utf8))
    exit(2)
}
let directory = URL(fileURLWithPath: arguments[2], isDirectory: true)
do {
    switch arguments[1] {
    case "storm": try await storm(directory, first: arguments.count > 3 ? Int(arguments[3]) ?? 0 : 0)
    case "fsize": try await fileSizeLimit(directory)
    default:
        FileHandle.standardError.write(Data("unknown mode \(arguments[1])\n".utf8))
        exit(2)
    }
} catch {
    say("RESULT fail: \(error)")
    exit(1)
}
