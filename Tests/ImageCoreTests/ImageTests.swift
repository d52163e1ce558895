import Foundation
import Testing
@testable import ImageCore

@Suite("Image storage")
struct ImageTests {
    @Test("rows are 64-byte aligned and packed bytes round-trip")
    func alignmentAndPacking() {
        let packed = (0 ..< 3 * 5 * 4).map { UInt8($0 & 0xFF) }
        let image = Image(width: 3, height: 5, pixelFormat: .rgba8, packed: packed)
        #expect(image.bytesPerRow == 64)
        #expect(image.packedBytes() == packed)
        image.withUnsafeBytes { #expect(Int(bitPattern: $0.baseAddress!) % 64 == 0) }
    }

    @Test("contiguous and non-contiguous packed input give the same image, padding zeroed")
    func packedInputPaths() {
        let count = 5 * 3 * 4
        let array = (0 ..< count).map { UInt8(($0 * 7) & 0xFF) }
        let fromArray = Image(width: 5, height: 3, pixelFormat: .rgba8, packed: array)
        let fromData = Image(width: 5, height: 3, pixelFormat: .rgba8, packed: Data(array))
        let fromLazy = Image(width: 5, height: 3, pixelFormat: .rgba8, packed: (0 ..< count).lazy.map { UInt8(($0 * 7) & 0xFF) })
        #expect(fromArray.packedBytes() == array)
        #expect(fromData == fromArray)
        #expect(fromLazy == fromArray)
        for image in [fromArray, fromData, fromLazy] {
            image.withUnsafeBytes { bytes in
                for row in 0 ..< 3 { #expect(bytes[(row * 64 + 20) ..< (row * 64 + 64)].allSatisfy { $0 == 0 }) }
            }
        }
    }

    @Test("mutating a copy leaves the original untouched (copy on write)")
    func copyOnWrite() {
        let original = Image(width: 4, height: 4, pixelFormat: .gray8)
        var copy = original
        #expect(copy.sharesStorage(with: original))
        copy.withUnsafeMutableBytes { $0[0] = 200 }
        #expect(!copy.sharesStorage(with: original))
        #expect(original.packedBytes()[0] == 0)
        #expect(copy.packedBytes()[0] == 200)
        #expect(copy != original)
    }

    @Test("premultiply then unpremultiply restores opaque and zero-alpha pixels; gray expands")
    func formatConversion() {
        let straight = Image(width: 3, height: 1, pixelFormat: .rgba8, packed: [200, 100, 50, 255, 200, 100, 50, 128, 9, 9, 9, 0])
        let premultiplied = straight.converted(to: .rgba8Premultiplied)
        #expect(premultiplied.packedBytes() == [200, 100, 50, 255, 100, 50, 25, 128, 0, 0, 0, 0])
        let back = premultiplied.converted(to: .rgba8).packedBytes()
        #expect(Array(back[0 ..< 4]) == [200, 100, 50, 255])
        #expect(Array(back[8 ..< 12]) == [0, 0, 0, 0])
        let gray = Image(width: 1, height: 1, pixelFormat: .gray8, packed: [77])
        #expect(gray.converted(to: .rgba8).packedBytes() == [77, 77, 77, 255])
        #expect(Image(width: 1, height: 1, pixelFormat: .rgba8, packed: [255, 255, 255, 255]).converted(to: .gray8).packedBytes() == [255])
    }

    @Test("cost counts every animation frame")
    func costOfAnimation() {
        let frame = Image(width: 16, height: 2, pixelFormat: .rgba8)
        var animated = frame
        animated.metadata.frames = [AnimationFrame(image: frame, duration: 0.1), AnimationFrame(image: frame, duration: 0.1)]
        #expect(frame.cost == 128)
        #expect(animated.cost == 256)
    }
}
