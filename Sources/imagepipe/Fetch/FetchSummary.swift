import Foundation
import ImagePipeline

/// The end-of-run summary of `imagepipe fetch`.
struct FetchSummary: Codable {
    var images = 0
    var failed = 0
    var networkRequests: Int
    var coalesced: Int
    var memoryHits: Int
    var diskHits: Int
    var notModified: Int
    var bytes: Int
    var previews = 0
    var decodes: Int

    init(statistics: PipelineStatistics) {
        networkRequests = statistics.networkRequests
        coalesced = statistics.coalescedJoins
        memoryHits = statistics.memoryHits
        diskHits = statistics.diskHits
        notModified = statistics.notModified
        bytes = statistics.bytesLoaded
        decodes = statistics.decodes
    }

    /// One JSON object with sorted keys, on one line.
    func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    func humanReadable() -> String {
        """
        \(images) images, \(failed) failed; \(networkRequests) network requests (\(bytes) bytes), \
        \(coalesced) coalesced joins, \(memoryHits) memory hits, \(diskHits) disk hits, \
        \(notModified) not modified, \(decodes) decodes, \(previews) previews
        """
    }
}
