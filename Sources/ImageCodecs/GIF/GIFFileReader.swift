import CGIF
import Foundation
import ImageCore

/// A giflib decoder reading from memory, record by record (`DGifGetRecordType` and friends).
///
/// `DGifSlurp` is not used: it allocates every frame's raster up front from the frame header,
/// so a hostile header could make it allocate gigabytes; reading a line at a time keeps
/// memory at one row per frame plus the canvas.
final class GIFFileReader {
    /// The bytes giflib reads from, and how far it has read.
    private final class MemorySource {
        let base: UnsafePointer<UInt8>
        let count: Int
        var offset = 0
        init(base: UnsafePointer<UInt8>, count: Int) {
            self.base = base
            self.count = count
        }
    }

    let file: UnsafeMutablePointer<GifFileType>
    private let source: MemorySource

    /// Opens `bytes` (which must stay valid for the reader's life) and reads the screen descriptor.
    init(_ bytes: UnsafeRawBufferPointer) throws(ImagePipelineError) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw .corruptData(format: .gif, message: "no data")
        }
        source = MemorySource(base: base, count: bytes.count)
        var error: Int32 = 0
        let opened = DGifOpen(Unmanaged.passUnretained(source).toOpaque(), { gif, buffer, length in
            guard let gif, let buffer, length > 0, let user = gif.pointee.UserData else { return 0 }
            let source = Unmanaged<MemorySource>.fromOpaque(user).takeUnretainedValue()
            let available = min(Int(length), source.count - source.offset)
            guard available > 0 else { return 0 }
            buffer.update(from: source.base + source.offset, count: available)
            source.offset += available
            return Int32(available)
        }, &error)
        guard let opened else {
            throw .corruptData(format: .gif, message: GIFFileReader.describe(error))
        }
        file = opened
    }

    deinit {
        var error: Int32 = 0
        DGifCloseFile(file, &error)
    }

    var canvasWidth: Int { Int(file.pointee.SWidth) }
    var canvasHeight: Int { Int(file.pointee.SHeight) }

    /// The error of the last failed call, as a typed error.
    var lastError: ImagePipelineError {
        .corruptData(format: .gif, message: GIFFileReader.describe(file.pointee.Error))
    }

    /// Whether the last failure was running out of data or meeting a byte that starts no block:
    /// the end of a truncated file, which browsers show up to the last complete frame.
    var lastErrorIsEndOfStream: Bool {
        file.pointee.Error == D_GIF_ERR_READ_FAILED || file.pointee.Error == D_GIF_ERR_WRONG_RECORD
    }

    static func describe(_ code: Int32) -> String {
        if let message = GifErrorString(code) { return String(cString: message) }
        return "giflib error \(code)"
    }

    /// Reads the next record's type.
    func nextRecordType() -> GifRecordType? {
        var type = UNDEFINED_RECORD_TYPE
        return DGifGetRecordType(file, &type) == GIF_OK ? type : nil
    }

    /// Reads an extension record and returns its code and the data of each sub-block.
    func readExtension() throws(ImagePipelineError) -> (code: Int32, blocks: [[UInt8]]) {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(file, &code, &block) == GIF_OK else { throw lastError }
        var blocks: [[UInt8]] = []
        // giflib hands out each sub-block as a length byte followed by that many data bytes.
        while let current = block {
            // Only the first two sub-blocks matter to us (GCB, NETSCAPE loop); skip the rest unstored.
            if blocks.count < 2 {
                blocks.append(Array(UnsafeBufferPointer(start: current + 1, count: Int(current[0]))))
            }
            guard DGifGetExtensionNext(file, &block) == GIF_OK else { throw lastError }
        }
        return (code, blocks)
    }

    /// Reads an image descriptor (and its local colour map).
    func readImageDescriptor() throws(ImagePipelineError) -> GifImageDesc {
        guard DGifGetImageDesc(file) == GIF_OK else { throw lastError }
        return file.pointee.Image
    }

    /// Reads the next `line.count` pixels of the current image.
    func readLine(into line: UnsafeMutableBufferPointer<UInt8>) throws(ImagePipelineError) {
        guard DGifGetLine(file, line.baseAddress, Int32(line.count)) == GIF_OK else { throw lastError }
    }

    /// Skips the compressed data of the current image without decoding it.
    func skipImageData() throws(ImagePipelineError) {
        var codeSize: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetCode(file, &codeSize, &block) == GIF_OK else { throw lastError }
        while block != nil {
            guard DGifGetCodeNext(file, &block) == GIF_OK else { throw lastError }
        }
    }
}
