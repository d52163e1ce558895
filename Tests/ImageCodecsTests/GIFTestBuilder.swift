import CGIF
import Foundation

/// Writes small GIFs with giflib's encoder (EGif), so tests can build frames with exact
/// rectangles, disposal methods, transparency and interlacing and know every expected pixel.
struct GIFTestBuilder {
    struct Frame {
        var left = 0, top = 0, width: Int, height: Int
        /// Colour indices, row-major, top row first (the builder reorders for interlacing).
        var indices: [UInt8]
        var disposal: Int32 = DISPOSAL_UNSPECIFIED
        var transparentIndex: Int32 = NO_TRANSPARENT_COLOR
        var delayCentiseconds: Int32 = 10
        var interlaced = false
        var writesControlBlock = true
    }

    var width: Int
    var height: Int
    /// Global colour table (RGB triples); 2, 4, 8 … 256 entries.
    var palette: [(UInt8, UInt8, UInt8)]
    var loopCount: Int?
    var frames: [Frame] = []

    /// The encoded file.
    func encode() throws -> Data {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        var error: Int32 = 0
        guard let gif = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), { gif, bytes, count in
            guard let gif, let bytes, let user = gif.pointee.UserData else { return 0 }
            Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue().bytes
                .append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(count)))
            return count
        }, &error) else { throw BuildError.giflib(error) }
        EGifSetGifVersion(gif, true)
        var colors = palette.map { GifColorType(Red: $0.0, Green: $0.1, Blue: $0.2) }
        let map = GifMakeMapObject(Int32(colors.count), &colors)
        defer { GifFreeMapObject(map) }
        var ok = EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, map) == GIF_OK
        if let loopCount {
            var identifier = Array("NETSCAPE2.0".utf8)
            var loop: [UInt8] = [1, UInt8(loopCount & 0xFF), UInt8(loopCount >> 8)]
            ok = ok && EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK
            ok = ok && EGifPutExtensionBlock(gif, 11, &identifier) == GIF_OK
            ok = ok && EGifPutExtensionBlock(gif, 3, &loop) == GIF_OK
            ok = ok && EGifPutExtensionTrailer(gif) == GIF_OK
        }
        for frame in frames {
            if frame.writesControlBlock {
                var control = GraphicsControlBlock(DisposalMode: frame.disposal, UserInputFlag: false,
                                                   DelayTime: frame.delayCentiseconds,
                                                   TransparentColor: frame.transparentIndex)
                var block = [GifByteType](repeating: 0, count: 4)
                let length = EGifGCBToExtension(&control, &block)
                ok = ok && EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), &block) == GIF_OK
            }
            ok = ok && EGifPutImageDesc(gif, Int32(frame.left), Int32(frame.top), Int32(frame.width),
                                        Int32(frame.height), frame.interlaced, nil) == GIF_OK
            let rows = frame.interlaced
                ? [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { Array(stride(from: $0.0, to: frame.height, by: $0.1)) }
                : Array(0 ..< frame.height)
            for row in rows {
                var line = Array(frame.indices[row * frame.width ..< (row + 1) * frame.width])
                ok = ok && EGifPutLine(gif, &line, Int32(frame.width)) == GIF_OK
            }
        }
        var closeError: Int32 = 0
        let closed = EGifCloseFile(gif, &closeError) == GIF_OK
        guard ok, closed else { throw BuildError.giflib(closeError) }
        return Data(sink.bytes)
    }

    enum BuildError: Error { case giflib(Int32) }
}
