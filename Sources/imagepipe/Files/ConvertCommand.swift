import ArgumentParser
import Foundation
import ImagePipeline

/// `imagepipe convert INPUT OUTPUT [--max-size N] [--quality Q]`.
struct ConvertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Decode an image, turn it upright, optionally shrink it, and encode it by OUTPUT's extension.",
        discussion: "Output formats: .jpg/.jpeg, .png, .webp. Animated input keeps its first frame."
    )

    @Argument(help: "The input image.")
    var input: String

    @Argument(help: "The output file (.jpg, .jpeg, .png or .webp).")
    var output: String

    @Option(name: .long, help: "Shrink to fit within N×N pixels (never enlarges).")
    var maxSize: Int?

    @Option(name: .long, help: "JPEG or lossy WebP quality, 1–100 (default 85). 100 with .webp means lossless.")
    var quality: Int = 85

    mutating func validate() throws {
        guard (1 ... 100).contains(quality) else { throw ValidationError("--quality must be between 1 and 100") }
        if let maxSize, maxSize <= 0 { throw ValidationError("--max-size must be positive") }
        guard ImageFormat(fileExtension: (output as NSString).pathExtension) != nil else {
            throw ValidationError("cannot tell the output format from '\(output)': use .jpg, .jpeg, .png or .webp")
        }
    }

    func run() async throws {
        let (input, output, maxSize, quality) = (self.input, self.output, self.maxSize, self.quality)
        do {
            try await BlockingWorkPool.shared.run {
                let data = try FileInput.read(input)
                let decoder = try Codecs.decoder(for: data)
                var options = DecodingOptions(decodesAllFrames: false)
                var processors: [any ImageProcessor] = [Orient()]
                if let maxSize {
                    let resize = Resize(width: maxSize, height: maxSize, mode: .fit, upscale: false)
                    processors.append(resize)
                    // Shrink on load: a JPEG decodes at the smallest DCT scale that still covers the target.
                    let header = try decoder.readHeader(data)
                    let upright = header.orientation.swapsDimensions
                        ? PixelSize(width: header.height, height: header.width)
                        : PixelSize(width: header.width, height: header.height)
                    if let minimum = resize.minimumInputSize(for: upright) {
                        options.minimumSize = header.orientation.swapsDimensions
                            ? PixelSize(width: minimum.height, height: minimum.width) : minimum
                    }
                }
                var image = try decoder.decode(data, options: options)
                image.metadata.frames = []
                for processor in processors { image = try processor.process(image) }
                let format = ImageFormat(fileExtension: (output as NSString).pathExtension)!
                let encoded = try Codecs.encode(image, as: format, quality: quality)
                do {
                    try encoded.write(to: URL(fileURLWithPath: output), options: .atomic)
                } catch {
                    throw ImagePipelineError.diskStoreFailed(message: "cannot write \(output): \(error.localizedDescription)")
                }
            }
        } catch {
            CommandFailure.report(input, error)
            throw ExitCode(1)
        }
    }
}
