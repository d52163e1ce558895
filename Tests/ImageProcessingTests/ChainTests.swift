import ImageCore
import ImageProcessing
import Testing

@Suite struct ChainTests {
    @Test func chainAppliesInOrder() throws {
        let source = Image.make(width: 200, height: 100) { x, y in [UInt8(x), UInt8(y), 0, 255] }
        let chain = ProcessorChain([Resize(width: 64, height: 64, mode: .fill), Circle(), Rotate(.degrees90)])
        let result = try chain.process(source)
        #expect(result.dimensions == (64, 64))
        #expect(result.pixel(0, 0)[3] == 0)
        let stepwise = try Rotate(.degrees90).process(Circle().process(Resize(width: 64, height: 64, mode: .fill).process(source)))
        #expect(result == stepwise)
        let list: [any ImageProcessor] = chain.processors
        #expect(try list.process(source) == stepwise)
    }

    struct Refusal: Error {}

    @Test func customProcessorRunsAndWrapsErrors() throws {
        let invert = CustomProcessor(identifier: "invert") { image in
            var copy = image
            copy.withUnsafeMutableBytes { bytes in for i in bytes.indices { bytes[i] = 255 &- bytes[i] } }
            return copy
        }
        let result = try invert.process(Image.solid(width: 2, height: 2, format: .gray8, [10]))
        #expect(result.pixel(1, 1) == [245])

        let failing = CustomProcessor(identifier: "fails") { _ in throw Refusal() }
        let error = #expect(throws: ImagePipelineError.self) {
            try failing.process(Image.solid(width: 2, height: 2, format: .gray8, [10]))
        }
        guard case let .processingFailed(processor, _) = error else {
            Issue.record("expected processingFailed, got \(String(describing: error))")
            return
        }
        #expect(processor == "custom(id=fails)")
    }

    @Test func everyFrameOfAnAnimationIsProcessed() throws {
        var image = Image.solid(width: 40, height: 20, [255, 0, 0, 255])
        let frames = [image, Image.solid(width: 40, height: 20, [0, 255, 0, 255]), Image.solid(width: 40, height: 20, [0, 0, 255, 255])]
        image.metadata.frames = zip(frames, [0.1, 0.2, 0.3]).map { AnimationFrame(image: $0, duration: $1) }
        image.metadata.loopCount = 3
        let processors: [any ImageProcessor] = [Resize(width: 10, height: 10), Crop(width: 8, height: 4), GaussianBlur(radius: 1),
                                                Grayscale(), RoundedCorners(radius: 2), Circle(), Flip(.vertical)]
        for processor in processors {
            let result = try processor.process(image)
            #expect(result.metadata.frames.count == 3, "\(processor.identifier)")
            #expect(result.metadata.frames.map(\.duration) == [0.1, 0.2, 0.3])
            #expect(result.metadata.loopCount == 3)
            for (index, frame) in result.metadata.frames.enumerated() {
                #expect(frame.image.dimensions == result.dimensions, "\(processor.identifier)")
                let alone = try processor.process(frames[index])
                #expect(frame.image.packedBytes() == alone.packedBytes() && frame.image.pixelFormat == alone.pixelFormat,
                        "\(processor.identifier) frame \(index)")
            }
            // The first frame shares the image's memory, so it was processed once, not twice.
            #expect(result.metadata.frames[0].image.sharesStorage(with: result))
        }
    }
}
