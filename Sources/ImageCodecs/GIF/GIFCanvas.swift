import CGIF
import ImageCore

/// The GIF logical screen: frames are drawn onto it in order, disposed of as each frame's
/// graphic control extension says, and snapshotted as full-canvas RGBA images.
///
/// Pixels are straight RGBA packed in `UInt32`s (memory order R, G, B, A). The canvas starts
/// transparent, and "restore to background" clears to transparent, as browsers do.
struct GIFCanvas {
    let width: Int
    let height: Int
    private var pixels: [UInt32]
    /// The canvas before the current frame, kept when that frame's disposal is "previous".
    private var saved: [UInt32]?

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt32](repeating: 0, count: width * height)
    }

    /// The part of a frame rectangle that lies on the canvas (frames may reach past its edges).
    struct ClippedRect {
        let left: Int, top: Int, width: Int, height: Int
        var isEmpty: Bool { width <= 0 || height <= 0 }
    }

    func clip(left: Int, top: Int, width frameWidth: Int, height frameHeight: Int) -> ClippedRect {
        let right = min(width, left + frameWidth), bottom = min(height, top + frameHeight)
        return ClippedRect(left: left, top: top, width: right - left, height: bottom - top)
    }

    /// Call before drawing a frame whose disposal is "restore previous".
    mutating func saveForRestore() { saved = pixels }

    /// Draws one decoded row of colour indices at canvas row `y`, starting at column `left`;
    /// indices equal to `transparentIndex` leave the canvas as it was.
    mutating func drawRow(_ indices: UnsafeBufferPointer<UInt8>, y: Int, left: Int, visibleWidth: Int,
                          palette: UnsafePointer<UInt32>, transparentIndex: Int) {
        guard y >= 0, y < height, visibleWidth > 0 else { return }
        let start = y * width + left
        pixels.withUnsafeMutableBufferPointer { canvas in
            if transparentIndex < 0 {
                for x in 0 ..< visibleWidth { canvas[start + x] = palette[Int(indices[x])] }
            } else {
                for x in 0 ..< visibleWidth where Int(indices[x]) != transparentIndex {
                    canvas[start + x] = palette[Int(indices[x])]
                }
            }
        }
    }

    /// Applies the disposal of the frame just shown, before the next frame is drawn.
    mutating func dispose(method: Int32, rect: ClippedRect) {
        switch method {
        case DISPOSE_BACKGROUND:
            guard !rect.isEmpty else { return }
            for y in rect.top ..< rect.top + rect.height {
                let start = y * width + rect.left
                pixels.withUnsafeMutableBufferPointer { canvas in
                    canvas[start ..< start + rect.width].update(repeating: 0)
                }
            }
        case DISPOSE_PREVIOUS:
            if let saved { pixels = saved }
        default:
            break   // unspecified and "do not dispose" keep the frame
        }
        saved = nil
    }

    /// A full-canvas image of the current state, sharing nothing with the canvas.
    func snapshot(metadata: ImageMetadata) -> Image {
        var image = Image(uninitializedWidth: width, height: height, pixelFormat: .rgba8, metadata: metadata)
        let stride = image.bytesPerRow, rowLength = width * 4
        image.withUnsafeMutableBytes { destination in
            pixels.withUnsafeBytes { source in
                for row in 0 ..< height {
                    (destination.baseAddress! + row * stride)
                        .copyMemory(from: source.baseAddress! + row * rowLength, byteCount: rowLength)
                }
            }
        }
        return image
    }
}
