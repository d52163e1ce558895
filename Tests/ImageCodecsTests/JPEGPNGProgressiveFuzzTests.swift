import Foundation
import ImageCodecs
import ImageCore
import Testing
import TestSupport

@Suite("Progressive decoders on damaged data")
struct ProgressiveFuzzTests {
    /// Feeds damaged copies in random chunk sizes; previews may fail with a typed error, never crash.
    static func fuzz(_ original: [UInt8], seed: UInt64, makeDecoder: () -> any ProgressiveImageDecoding) -> (previews: Int, errors: Int) {
        var generator = SeededGenerator(seed: seed)
        var (previews, errors) = (0, 0)
        for _ in 0 ..< 30 {
            var damaged = original
            for _ in 0 ..< Int.random(in: 1 ... 4, using: &generator) {
                damaged[Int.random(in: 0 ..< damaged.count, using: &generator)] = UInt8.random(in: 0 ... 255, using: &generator)
            }
            let decoder = makeDecoder()
            var offset = 0
            while offset < damaged.count {
                let size = Int.random(in: 1 ... 4096, using: &generator)
                let chunk = Data(damaged[offset ..< min(damaged.count, offset + size)])
                offset += chunk.count
                if decoder.append(chunk), (try? decoder.makePreview()) != nil { previews += 1 }
            }
            // Once all bytes are in, the damage has either been noticed or a preview (maybe nil) comes back.
            do { _ = try decoder.makePreview() } catch { errors += 1 }
        }
        return (previews, errors)
    }

    @Test("Progressive JPEG with random damage")
    func jpeg() throws {
        let original = [UInt8](try Corpus.data("bench/jpeg-q85-progressive/kodim19.jpg"))
        let result = Self.fuzz(original, seed: 99) { ProgressiveJPEGDecoder() }
        // Damage in entropy-coded data can decode to a damaged picture; damage in headers must be noticed.
        #expect(result.previews > 0 && result.errors > 0, "\(result)")
    }

    @Test("Interlaced PNG with random damage")
    func png() throws {
        let original = [UInt8](try Corpus.data("pngsuite/basi6a16.png"))
        let result = Self.fuzz(original, seed: 5) { ProgressivePNGDecoder() }
        // Every changed byte breaks a CRC, the signature or the structure (a random byte may equal the old one).
        #expect(result.errors >= 27, "\(result.errors) of 30 damaged copies noticed")
    }
}
