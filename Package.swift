// swift-tools-version:6.0
// ImagePipeline: fetch, decode, process and cache images on Linux with async/await.
//
// Module layout (each folder under Sources/ is one concern; see ../shared/DESIGN.md):
//   ImageCore        Image, pixel formats, metadata, the one public error type, format sniffing
//   ImageCodecs      JPEG / PNG / WebP / GIF decoders and encoders, progressive decoders
//   ImageLoading     the DataLoader protocol and its libcurl implementation
//   ImageCaching     MemoryCache (LRU) and DiskStore actors
//   ImageProcessing  processors (resize, crop, blur, ...) as value types
//   ImagePipeline    the Pipeline actor; re-exports everything above
//   imagepipe        the command-line tool
//   LoopbackHTTPServer  a small SwiftNIO HTTP server for tests and the demo (loopback only)
import PackageDescription

/// Every Swift target compiles in Swift 6 language mode; warnings are kept at zero by review.
let swiftSettings: [SwiftSetting] = []

let package = Package(
    name: "ImagePipeline",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ImagePipeline", targets: ["ImagePipeline"]),
        .executable(name: "imagepipe", targets: ["imagepipe"]),
        .plugin(name: "ImagePipeCommand", targets: ["ImagePipeCommand"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // MARK: C libraries, found through pkg-config; `swift build` names the apt package when one is missing.
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng16",
                       providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebpdemux",
                       providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CGIF", path: "Sources/CGIF", pkgConfig: "libgif",
                       providers: [.apt(["libgif-dev"])]),
        // MARK: C shims for what Swift must not call directly (longjmp error paths, variadic setopt).
        .target(name: "CImageSupport", dependencies: ["CCurl", "CTurboJPEG", "CPNG", "CWebP", "CGIF"]),

        // MARK: Swift modules
        .target(name: "ImageCore",
                dependencies: [.product(name: "Crypto", package: "swift-crypto")],
                swiftSettings: swiftSettings),
        .target(name: "ImageCodecs",
                dependencies: ["ImageCore", "CImageSupport", "CTurboJPEG", "CPNG", "CWebP", "CGIF"],
                swiftSettings: swiftSettings),
        .target(name: "ImageLoading",
                dependencies: ["ImageCore", "CImageSupport", "CCurl",
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: swiftSettings),
        .target(name: "ImageCaching",
                dependencies: ["ImageCore", "CImageSupport",
                               .product(name: "Crypto", package: "swift-crypto"),
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: swiftSettings),
        .target(name: "ImageProcessing",
                dependencies: ["ImageCore"],
                swiftSettings: swiftSettings),
        .target(name: "ImagePipeline",
                dependencies: ["ImageCore", "ImageCodecs", "ImageLoading", "ImageCaching", "ImageProcessing",
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "Metrics", package: "swift-metrics")],
                swiftSettings: swiftSettings),
        .target(name: "LoopbackHTTPServer",
                dependencies: [.product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOPosix", package: "swift-nio"),
                               .product(name: "NIOHTTP1", package: "swift-nio")],
                swiftSettings: swiftSettings),
        .executableTarget(name: "imagepipe",
                          dependencies: ["ImagePipeline", "LoopbackHTTPServer",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser"),
                                         .product(name: "Crypto", package: "swift-crypto")],
                          swiftSettings: swiftSettings),

        // MARK: `swift package imagepipe …` runs the tool from any package that depends on this one.
        .plugin(name: "ImagePipeCommand",
                capability: .command(intent: .custom(verb: "imagepipe", description: "Run the imagepipe tool")),
                dependencies: ["imagepipe"]),

        // MARK: Tests (Swift Testing). Corpus images live in ../shared/corpus beside the repository.
        .target(name: "TestSupport", dependencies: ["ImageCore"], path: "Tests/TestSupport"),
        .testTarget(name: "ImageCoreTests", dependencies: ["ImageCore", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "ImageCodecsTests", dependencies: ["ImageCodecs", "ImageCore", "TestSupport", "CPNG", "CGIF",
                                                             .product(name: "Crypto", package: "swift-crypto")],
                    swiftSettings: swiftSettings),
        .testTarget(name: "ImageLoadingTests", dependencies: ["ImageLoading", "LoopbackHTTPServer", "TestSupport"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "ImageCachingTests", dependencies: ["ImageCaching", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "ImageProcessingTests", dependencies: ["ImageProcessing", "ImageCodecs", "TestSupport"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "ImagePipelineTests", dependencies: ["ImagePipeline", "LoopbackHTTPServer", "TestSupport"],
                    swiftSettings: swiftSettings),
        // A child process for the DiskStore crash (kill -9) and write-failure tests; built by `swift build --build-tests`.
        .executableTarget(name: "diskstore-stress", dependencies: ["ImageCaching", "ImageCore", "TestSupport"], path: "Tests/DiskStoreStress",
                          swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v6]
)
