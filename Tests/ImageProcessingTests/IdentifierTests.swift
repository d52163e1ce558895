import ImageCore
import ImageProcessing
import Testing

@Suite struct IdentifierTests {
    @Test func documentedFormats() {
        #expect(Resize(width: 256, height: 256, mode: .fill).identifier
                == "resize(w=256,h=256,mode=fill,anchor=center,upscale=false,filter=lanczos3)")
        #expect(Crop(PixelRect(x: 10, y: 20, width: 100, height: 50)).identifier == "crop(x=10,y=20,w=100,h=50)")
        #expect(Crop(width: 100, height: 50, anchor: .topLeft).identifier == "crop(w=100,h=50,anchor=topLeft)")
        #expect(RoundedCorners(radius: 16).identifier == "roundedCorners(radius=16)")
        #expect(RoundedCorners(radius: 2.5).identifier == "roundedCorners(radius=2.5)")
        #expect(Circle().identifier == "circle()")
        #expect(GaussianBlur(radius: 8).identifier == "gaussianBlur(radius=8)")
        #expect(Grayscale().identifier == "grayscale()")
        #expect(Rotate(.degrees90).identifier == "rotate(degrees=90)")
        #expect(Flip(.vertical).identifier == "flip(axis=vertical)")
        #expect(Orient().identifier == "orient()")
        #expect(ProcessorChain([Orient(), Circle()]).identifier == "orient()|circle()")
        #expect(([Orient(), Circle()] as [any ImageProcessor]).identifier == "orient()|circle()")
    }

    @Test func everyParameterChangesTheIdentifier() {
        var processors: [any ImageProcessor] = []
        for mode in Resize.Mode.allCases {
            for anchor in Anchor.allCases {
                for upscale in [false, true] {
                    for filter in ResamplingFilter.allCases {
                        processors.append(Resize(width: 256, height: 256, mode: mode, anchor: anchor, upscale: upscale, filter: filter))
                    }
                }
            }
        }
        processors += [Resize(width: 255, height: 256), Resize(width: 256, height: 255), Resize(width: 25, height: 6256)]
        processors += [Crop(PixelRect(x: 1, y: 2, width: 3, height: 4)), Crop(PixelRect(x: 2, y: 1, width: 3, height: 4)),
                       Crop(PixelRect(x: 1, y: 2, width: 4, height: 3))]
        processors += Anchor.allCases.map { Crop(width: 3, height: 4, anchor: $0) }
        processors += [RoundedCorners(radius: 1), RoundedCorners(radius: 1.5), RoundedCorners(radius: 10), Circle()]
        processors += [GaussianBlur(radius: 1), GaussianBlur(radius: 1.25), GaussianBlur(radius: 12), Grayscale(), Orient()]
        processors += Rotate.Angle.allCases.map { Rotate($0) } + Flip.Axis.allCases.map { Flip($0) }
        processors += [CustomProcessor(identifier: "a") { $0 }, CustomProcessor(identifier: "b") { $0 }]
        let identifiers = processors.map(\.identifier)
        let duplicates = Dictionary(grouping: identifiers, by: { $0 }).filter { $0.value.count > 1 }.keys
        #expect(duplicates.isEmpty, "duplicates: \(duplicates.sorted())")
        #expect(identifiers.count > 240)
    }

    @Test func customTextCannotForgeAChainOrABuiltIn() {
        let forged = CustomProcessor(identifier: "x)|orient(") { $0 }
        #expect(forged.identifier == "custom(id=x%29%7Corient%28)")
        #expect(forged.identifier != ProcessorChain([CustomProcessor(identifier: "x") { $0 }, Orient()]).identifier)
        #expect(CustomProcessor(identifier: "100%") { $0 }.identifier == "custom(id=100%25)")
        #expect(CustomProcessor(identifier: "a=b,c") { $0 }.identifier == "custom(id=a%3Db%2Cc)")
    }

    @Test func nestedChainsFlatten() {
        let nested = ProcessorChain([ProcessorChain([Orient(), Grayscale()]), Circle()])
        #expect(nested.processors.count == 3)
        #expect(nested.identifier == ProcessorChain([Orient(), Grayscale(), Circle()]).identifier)
        #expect(ProcessorChain([]).identifier == "")
    }
}
