import Testing
@testable import ImagePipeline

@Suite("Shrink on load")
struct ShrinkOnLoadTests {
    @Test("a leading downscaling Resize asks for a reduced decode; other chains decode at full size")
    func advice() throws {
        let resize = Resize(width: 256, height: 256, mode: .fit, upscale: false)
        let shrink = try #require(ShrinkOnLoad(processors: [resize, Circle()]))
        #expect(shrink.identifier == resize.identifier)
        #expect(shrink.minimumDecodeSize(PixelSize(width: 4000, height: 3000), orientation: .up)
                == PixelSize(width: 256, height: 192))
        #expect(ShrinkOnLoad(processors: [Circle(), resize]) == nil)
        #expect(ShrinkOnLoad(processors: []) == nil)
    }

    @Test("after Orient, the resize sees the upright size and the advice comes back in stored orientation")
    func orientFirst() throws {
        let resize = Resize(width: 300, height: 100, mode: .fill, upscale: false)
        let shrink = try #require(ShrinkOnLoad(processors: [Orient(), resize]))
        #expect(shrink.identifier == "orient()|" + resize.identifier)
        // Stored 1200x1800 with orientation 6 displays as 1800x1200: filling 300x100 needs 300x200 upright,
        // which is 200x300 in stored orientation.
        #expect(shrink.minimumDecodeSize(PixelSize(width: 1200, height: 1800), orientation: .right)
                == PixelSize(width: 200, height: 300))
        #expect(shrink.minimumDecodeSize(PixelSize(width: 1800, height: 1200), orientation: .up)
                == PixelSize(width: 300, height: 200))
    }

    @Test("the decode hint is part of the cache key")
    func cacheKey() async throws {
        let pipeline = Pipeline(configuration: .init(memoryCache: nil))
        let url = URL(string: "https://example.com/a.jpg")!
        let thumb = pipeline.cacheKey(for: ImageRequest(url: url, processors: [Resize(width: 64, height: 64, mode: .fit)]))
        let plain = pipeline.cacheKey(for: ImageRequest(url: url))
        #expect(thumb.decodeHint != nil)
        #expect(plain.decodeHint == nil)
        #expect(thumb != plain)
    }
}

import Foundation
