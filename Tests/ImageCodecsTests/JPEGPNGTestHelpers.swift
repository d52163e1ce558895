import Foundation
import ImageCore
import TestSupport

/// Helpers shared by the JPEG and PNG tests.
enum CodecTestHelpers {
    /// A 16x16 Adobe CMYK JPEG written by Pillow 13 from RGB (255 - 16y, 16x, 16y).
    static let adobeCMYKJPEG = Data(base64Encoded: "/9j/7gAOQWRvYmUAZAAAAAAA/9sAQwABAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB/8AAFAgAEAAQBEMRAE0RAFkRAEsRAP/EAB8AAAEFAQEBAQEBAAAAAAAAAAABAgMEBQYHCAkKC//EALUQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+v/aAA4EQwBNAFkASwAAPwD+jj/h5J/1H/8AyZ/+yr+b/wD4Jt/8wD/t2/8AZa/m/wD+Hbf/AFAP/Jb/AOxr+/ij/h5J/wBR/wD8mf8A7Kv9AD/gm3/zAP8At2/9lo/4dt/9QD/yW/8AsaK/z/8A/h5J/wBR/wD8mf8A7Kv8/wD/AOCbf/MA/wC3b/2Wv9AD/h23/wBQD/yW/wDsaKP+Hkn/AFH/APyZ/wDsq/0AP+Cbf/MA/wC3b/2Wj/h23/1AP/Jb/wCxor//2Q==")!

    /// Peak signal-to-noise ratio in dB over the RGB channels of two same-sized images.
    static func psnr(_ a: Image, _ b: Image) -> Double {
        let left = a.converted(to: .rgba8).packedBytes(), right = b.converted(to: .rgba8).packedBytes()
        precondition(left.count == right.count)
        var squared = 0.0
        var samples = 0
        for index in left.indices where index % 4 != 3 {
            let d = Double(Int(left[index]) - Int(right[index]))
            squared += d * d
            samples += 1
        }
        let mse = squared / Double(samples)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// Cuts points spread over the data: the first bytes densely, then evenly.
    static func truncationOffsets(count: Int, samples: Int = 48) -> [Int] {
        var offsets = Set([0, 1, 2, 3, 4, 7, 8, 12, 16, 20, 24, 33, 40, 64, 100])
        for index in 1 ..< samples { offsets.insert(count * index / samples) }
        offsets.insert(count - 1)
        offsets.insert(count - 2)
        return offsets.filter { $0 < count }.sorted()
    }
}

