/// A decoded image: pixels plus ``ImageMetadata``.
///
/// `Image` is a value type with copy-on-write storage: copies are cheap and share memory
/// until one of them is mutated. Rows start on 64-byte boundaries (``bytesPerRow`` is a
/// multiple of 64), which keeps SIMD loads aligned; use ``packedBytes()`` when a tightly
/// packed copy is needed (hashing, encoding to raw formats).
///
/// ```swift
/// var image = Image(width: 2, height: 2, pixelFormat: .rgba8)
/// image.withUnsafeMutableBytes { bytes in bytes[0] = 255 }   // red channel of the top-left pixel
/// ```
public struct Image: Sendable {
    /// Width in pixels (as stored: EXIF orientation not applied).
    public let width: Int
    /// Height in pixels (as stored).
    public let height: Int
    /// Layout of one pixel.
    public let pixelFormat: PixelFormat
    /// Distance in bytes between the starts of two rows; a multiple of 64.
    public let bytesPerRow: Int
    /// Source format, orientation, alpha and animation frames.
    public var metadata: ImageMetadata

    private var storage: PixelStorage

    /// The row stride used for a given width and format: the packed row length rounded up to 64.
    public static func alignedBytesPerRow(width: Int, pixelFormat: PixelFormat) -> Int {
        let packed = width * pixelFormat.bytesPerPixel
        return (packed + PixelStorage.alignment - 1) / PixelStorage.alignment * PixelStorage.alignment
    }

    /// Makes an image whose pixels are all zero (transparent black, or black for gray).
    /// - Precondition: `width` and `height` are positive.
    public init(width: Int, height: Int, pixelFormat: PixelFormat, metadata: ImageMetadata = ImageMetadata()) {
        self.init(width: width, height: height, pixelFormat: pixelFormat, metadata: metadata, zeroed: true)
    }

    /// Makes an image whose pixel memory the caller fills completely (decoders use this to
    /// skip zeroing a buffer they are about to overwrite).
    public init(uninitializedWidth width: Int, height: Int, pixelFormat: PixelFormat,
                metadata: ImageMetadata = ImageMetadata()) {
        self.init(width: width, height: height, pixelFormat: pixelFormat, metadata: metadata, zeroed: false)
    }

    private init(width: Int, height: Int, pixelFormat: PixelFormat, metadata: ImageMetadata, zeroed: Bool) {
        precondition(width > 0 && height > 0, "Image dimensions must be positive, got \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.bytesPerRow = Image.alignedBytesPerRow(width: width, pixelFormat: pixelFormat)
        self.metadata = metadata
        self.storage = PixelStorage(byteCount: bytesPerRow * height, zeroed: zeroed)
    }

    /// Makes an image from tightly packed rows (`width × bytesPerPixel` bytes each, top row first).
    /// - Precondition: `packed.count == width * height * pixelFormat.bytesPerPixel`.
    public init<Bytes: Collection<UInt8>>(width: Int, height: Int, pixelFormat: PixelFormat, packed: Bytes,
                                          metadata: ImageMetadata = ImageMetadata()) {
        let rowLength = width * pixelFormat.bytesPerPixel
        precondition(packed.count == rowLength * height, "expected \(rowLength * height) bytes, got \(packed.count)")
        self.init(uninitializedWidth: width, height: height, pixelFormat: pixelFormat, metadata: metadata)
        let stride = bytesPerRow
        // Contiguous bytes (Array, Data, buffers) are copied a row at a time.
        let copiedRows: Void? = packed.withContiguousStorageIfAvailable { source in
            withUnsafeMutableBytes { destination in
                for row in 0 ..< height {
                    let target = destination.baseAddress! + row * stride
                    target.copyMemory(from: source.baseAddress! + row * rowLength, byteCount: rowLength)
                    // Zero the alignment padding so two equal images are equal byte for byte.
                    (target + rowLength).initializeMemory(as: UInt8.self, repeating: 0, count: stride - rowLength)
                }
            }
        }
        if copiedRows != nil { return }
        withUnsafeMutableBytes { destination in
            var row = 0
            var index = packed.startIndex
            while row < height {
                let rowStart = row * stride
                for column in 0 ..< rowLength {
                    destination[rowStart + column] = packed[index]
                    index = packed.index(after: index)
                }
                // Zero the alignment padding so two equal images are equal byte for byte.
                for padding in rowLength ..< stride { destination[rowStart + padding] = 0 }
                row += 1
            }
        }
    }

    /// Bytes of pixel memory this image holds, all frames included: the cost a cache charges.
    public var cost: Int { bytesPerRow * height * max(1, metadata.frames.count) }

    /// Calls `body` with the pixel memory (``bytesPerRow`` × ``height`` bytes).
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: storage.baseAddress, count: bytesPerRow * height))
    }

    /// Calls `body` with writable pixel memory, copying it first if another image shares it.
    public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        if !isKnownUniquelyReferenced(&storage) {
            let copy = PixelStorage(byteCount: storage.byteCount, zeroed: false)
            copy.baseAddress.copyMemory(from: storage.baseAddress, byteCount: storage.byteCount)
            storage = copy
        }
        return try body(UnsafeMutableRawBufferPointer(start: storage.baseAddress, count: bytesPerRow * height))
    }

    /// The pixels with rows packed tightly (no alignment padding), top row first.
    public func packedBytes() -> [UInt8] {
        let rowLength = width * pixelFormat.bytesPerPixel
        return [UInt8](unsafeUninitializedCapacity: rowLength * height) { buffer, count in
            withUnsafeBytes { source in
                for row in 0 ..< height {
                    let from = source.baseAddress! + row * bytesPerRow
                    (buffer.baseAddress! + row * rowLength).initialize(
                        from: from.assumingMemoryBound(to: UInt8.self), count: rowLength)
                }
            }
            count = rowLength * height
        }
    }

    /// Whether two images share the same pixel memory (a cheap identity check, not equality).
    public func sharesStorage(with other: Image) -> Bool { storage === other.storage }
}

extension Image: Equatable {
    /// Equal when dimensions, format, metadata and every pixel (padding excluded) are equal.
    public static func == (lhs: Image, rhs: Image) -> Bool {
        guard lhs.width == rhs.width, lhs.height == rhs.height, lhs.pixelFormat == rhs.pixelFormat,
              lhs.metadata == rhs.metadata else { return false }
        if lhs.storage === rhs.storage { return true }
        let rowLength = lhs.width * lhs.pixelFormat.bytesPerPixel
        return lhs.withUnsafeBytes { left in
            rhs.withUnsafeBytes { right in
                for row in 0 ..< lhs.height {
                    let a = left.baseAddress! + row * lhs.bytesPerRow
                    let b = right.baseAddress! + row * rhs.bytesPerRow
                    if memcmp(a, b, rowLength) != 0 { return false }
                }
                return true
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
