import CGIF
import ImageCore

/// One decode of a GIF's records into composited frames.
struct GIFAnimationDecoding {
    private let reader: GIFFileReader
    private let options: DecodingOptions
    private var canvas: GIFCanvas
    private var budget: AnimationFrameBudget
    private var pendingControl: GraphicsControlBlock?
    private var loopCount: Int?
    private var hasAlpha = false
    private var frames: [AnimationFrame] = []

    init(reader: GIFFileReader, options: DecodingOptions) {
        self.reader = reader
        self.options = options
        canvas = GIFCanvas(width: reader.canvasWidth, height: reader.canvasHeight)
        budget = AnimationFrameBudget(canvasWidth: reader.canvasWidth, canvasHeight: reader.canvasHeight,
                                      maxPixelCount: options.maxPixelCount)
    }

    /// Parses a graphic control extension's first sub-block.
    static func graphicsControl(_ blocks: [[UInt8]]) -> GraphicsControlBlock? {
        guard let first = blocks.first, first.count >= 4 else { return nil }
        var control = GraphicsControlBlock()
        let parsed = first.withUnsafeBufferPointer { bytes in
            DGifExtensionToGCB(bytes.count, bytes.baseAddress, &control)
        }
        return parsed == GIF_OK ? control : nil
    }

    mutating func decode() throws(ImagePipelineError) -> Image {
        records: while true {
            guard let record = reader.nextRecordType() else {
                if !frames.isEmpty && reader.lastErrorIsEndOfStream { break records }
                throw reader.lastError
            }
            switch record {
            case IMAGE_DESC_RECORD_TYPE:
                try decodeFrame()
                if !options.decodesAllFrames { break records }
            case EXTENSION_RECORD_TYPE:
                try readExtension()
            case TERMINATE_RECORD_TYPE:
                break records   // bytes after the trailer are never read
            default:
                break
            }
        }
        guard let first = frames.first else { throw .corruptData(format: .gif, message: "the file has no image") }
        var image = first.image
        image.metadata.hasAlpha = hasAlpha
        image.metadata.loopCount = loopCount ?? 1
        if frames.count > 1 {
            image.metadata.frames = frames.map { frame in
                var frame = frame
                frame.image.metadata.hasAlpha = hasAlpha
                frame.image.metadata.loopCount = loopCount ?? 1
                return frame
            }
        }
        return image
    }

    private mutating func readExtension() throws(ImagePipelineError) {
        let (code, blocks) = try reader.readExtension()
        if code == GRAPHICS_EXT_FUNC_CODE {
            pendingControl = Self.graphicsControl(blocks)
        } else if code == APPLICATION_EXT_FUNC_CODE, blocks.count >= 2 {
            let identifier = blocks[0]
            let isLoopExtension = identifier == Array("NETSCAPE2.0".utf8) || identifier == Array("ANIMEXTS1.0".utf8)
            let data = blocks[1]
            if isLoopExtension, data.count >= 3, data[0] == 1, loopCount == nil {
                loopCount = Int(data[1]) | Int(data[2]) << 8
            }
        }
    }

    private mutating func decodeFrame() throws(ImagePipelineError) {
        let descriptor = try reader.readImageDescriptor()
        let control = pendingControl
        pendingControl = nil
        try budget.admitFrame(format: .gif)

        let frameWidth = Int(descriptor.Width), frameHeight = Int(descriptor.Height)
        let rect = canvas.clip(left: Int(descriptor.Left), top: Int(descriptor.Top),
                               width: frameWidth, height: frameHeight)
        let transparentIndex = Int(control?.TransparentColor ?? NO_TRANSPARENT_COLOR)
        let disposal = control?.DisposalMode ?? DISPOSAL_UNSPECIFIED
        if transparentIndex >= 0 { hasAlpha = true }
        if frames.isEmpty && (rect.left > 0 || rect.top > 0 || rect.width < canvas.width || rect.height < canvas.height) {
            hasAlpha = true
        }
        if disposal == DISPOSE_BACKGROUND { hasAlpha = true }

        if disposal == DISPOSE_PREVIOUS { canvas.saveForRestore() }
        if rect.isEmpty || frameWidth == 0 || frameHeight == 0 {
            try reader.skipImageData()
        } else {
            guard let colorMap = descriptor.ColorMap ?? reader.file.pointee.SColorMap else {
                throw .corruptData(format: .gif, message: "frame \(frames.count + 1) has no colour table")
            }
            let palette = Self.palette(colorMap)
            try drawFrame(descriptor: descriptor, rect: rect, palette: palette, transparentIndex: transparentIndex)
        }

        let metadata = ImageMetadata(sourceFormat: .gif, hasAlpha: hasAlpha)
        frames.append(AnimationFrame(image: canvas.snapshot(metadata: metadata),
                                     duration: Self.duration(centiseconds: Int(control?.DelayTime ?? 0))))
        canvas.dispose(method: disposal, rect: rect)
    }

    /// Reads the frame's rows (in file order) and draws the visible part of each.
    private mutating func drawFrame(descriptor: GifImageDesc, rect: GIFCanvas.ClippedRect, palette: [UInt32],
                                    transparentIndex: Int) throws(ImagePipelineError) {
        let frameWidth = Int(descriptor.Width), frameHeight = Int(descriptor.Height)
        var line = [UInt8](repeating: 0, count: frameWidth)
        for frameRow in GIFRowOrder.rows(height: frameHeight, interlaced: descriptor.Interlace) {
            let result: Result<Void, ImagePipelineError> = line.withUnsafeMutableBufferPointer { buffer in
                do throws(ImagePipelineError) {
                    try reader.readLine(into: buffer)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            try result.get()
            line.withUnsafeBufferPointer { indices in
                palette.withUnsafeBufferPointer { colours in
                    canvas.drawRow(indices, y: rect.top + frameRow, left: rect.left, visibleWidth: rect.width,
                                   palette: colours.baseAddress!, transparentIndex: transparentIndex)
                }
            }
        }
    }

    /// 256 RGBA entries (memory order R, G, B, A); indices past the colour map are opaque black.
    private static func palette(_ colorMap: UnsafeMutablePointer<ColorMapObject>) -> [UInt32] {
        var palette = [UInt32](repeating: 0xFF00_0000, count: 256)
        let count = min(256, Int(colorMap.pointee.ColorCount))
        if let colors = colorMap.pointee.Colors {
            for index in 0 ..< count {
                let color = colors[index]
                palette[index] = UInt32(color.Red) | UInt32(color.Green) << 8 | UInt32(color.Blue) << 16 | 0xFF00_0000
            }
        }
        return palette.map { UInt32(littleEndian: $0) }
    }

    /// Browsers show 0 and 1 centisecond delays as 100 ms; so do we.
    static func duration(centiseconds: Int) -> Double {
        centiseconds <= 1 ? 0.1 : Double(centiseconds) / 100
    }
}

/// The frame rows in the order a GIF stores them: top to bottom, or for interlaced images the
/// four passes (every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1).
enum GIFRowOrder {
    static func rows(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0 ..< height) }
        var rows: [Int] = []
        rows.reserveCapacity(height)
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            rows.append(contentsOf: stride(from: start, to: height, by: step))
        }
        return rows
    }
}
