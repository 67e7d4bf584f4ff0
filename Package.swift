// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "colorcube",
    products: [
        // Public API: what a Swift app links to build, read, write and apply colour cubes.
        .library(name: "ColorCubeCore", targets: ["ColorCubeCore"]),
        .library(name: "ColorCubeTransform", targets: ["ColorCubeTransform"]),
        .library(name: "ColorCubeLooks", targets: ["ColorCubeLooks"]),
        .library(name: "ColorCubeImaging", targets: ["ColorCubeImaging"]),
        .library(name: "ColorCubeGenerator", targets: ["ColorCubeGenerator"]),
        .library(name: "ColorCubeConverter", targets: ["ColorCubeConverter"]),
        .library(name: "ColorCubeEngine", targets: ["ColorCubeEngine"]),
        .library(name: "ColorCubeApplier", targets: ["ColorCubeApplier"]),
        .library(name: "ColorCubeLearner", targets: ["ColorCubeLearner"]),
        .executable(name: "colorcube", targets: ["colorcube"]),
        // `colorcube studio` runs this one, so that building colorcube alone needs no HTTP server.
        .executable(name: "colorcube-studio", targets: ["colorcube-studio"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The studio's HTTP server: no dependencies of its own (sockets through the C library), so it
        // adds seconds to a first build where SwiftNIO-based servers add minutes (Tools/README.md).
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // MARK: Public API
        .target(name: "ColorCubeCore"),
        // Looks as chains of operations (1D/3D LUTs, matrices, ranges, CDLs, logs): Swift only, no C.
        .target(name: "ColorCubeTransform", dependencies: ["ColorCubeCore"]),
        // Looks and the text, XML and raw LUT formats: Swift and Foundation only, no C, so an app
        // can read and write any such look (and make Core Image cube data) without our C libraries.
        .target(name: "ColorCubeLooks", dependencies: ["ColorCubeCore", "ColorCubeTransform"]),
        .target(
            name: "ColorCubeImaging",
            dependencies: ["ColorCubeCore", "_CPNG", "_CJPEG", "_CTIFF", "_CWebP", "_CHEIF", "_CEXR", "CLittleCMS"]
        ),
        .target(
            name: "ColorCubeGenerator",
            dependencies: ["ColorCubeCore", "ColorCubeLooks", "ColorCubeConverter"]
        ),
        .target(
            name: "ColorCubeConverter",
            dependencies: ["ColorCubeCore", "ColorCubeTransform", "ColorCubeLooks", "ColorCubeImaging", "CLittleCMS", "_CZlib"]
        ),
        // The engine: a transform prepared once and run over 8-bit, 16-bit and float pixels (lattice
        // kernels, the chain runner, colour memos, pixel layouts), shared by Applier and Learner.
        .target(name: "ColorCubeEngine", dependencies: ["ColorCubeCore", "ColorCubeTransform", "_CLatticeKernel"]),
        .target(
            name: "ColorCubeApplier",
            dependencies: ["ColorCubeCore", "ColorCubeTransform", "ColorCubeImaging", "ColorCubeEngine", "_CYCbCrKernel", "_CVideoCodec"]
        ),
        .target(
            name: "ColorCubeLearner",
            dependencies: ["ColorCubeCore", "ColorCubeImaging", "ColorCubeTransform", "ColorCubeLooks", "ColorCubeConverter",
                           "ColorCubeEngine", "_CPrefetch"]
        ),
        .executableTarget(
            name: "colorcube",
            dependencies: [
                "ColorCubeCore", "ColorCubeTransform", "ColorCubeLooks", "ColorCubeImaging", "ColorCubeGenerator",
                "ColorCubeConverter", "ColorCubeEngine", "ColorCubeApplier", "ColorCubeLearner",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The studio: a local web page over the same library (looks, chains, previews, export, grading
        // a folder), behind a loopback HTTP server. No library module depends on it.
        .target(
            name: "ColorCubeStudio",
            dependencies: ["ColorCubeCore", "ColorCubeTransform", "ColorCubeLooks", "ColorCubeImaging", "ColorCubeConverter",
                           "ColorCubeEngine", "ColorCubeApplier", .product(name: "FlyingFox", package: "FlyingFox"),
                           .product(name: "FlyingSocks", package: "FlyingFox")]
        ),
        .executableTarget(
            name: "colorcube-studio",
            dependencies: ["ColorCubeStudio", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // MARK: Implementation details (no stable API)
        // libpng and libjpeg report errors with longjmp, which Swift cannot catch: these shims keep
        // setjmp on the C side and hand Swift a status code plus the library's message.
        // _CPNG compresses image data itself (libdeflate, a band of rows per core; zlib for the checks).
        .target(
            name: "_CPNG",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("deflate"), .linkedLibrary("z")]
        ),
        // The engine's 8-bit loops for AVX2 + FMA, chosen at run time (Swift cannot compile a function
        // for a CPU feature the rest of the binary does not assume); Swift's loops are the fallback.
        .target(name: "_CLatticeKernel"),
        // The 8-bit video grader's per-block loop (table reads of its colour memo), in C for a
        // tight loop; the Float path in Swift is its reference.
        .target(name: "_CYCbCrKernel"),
        // Cache prefetch hints for the learner's colour tally (Swift cannot ask for a prefetch).
        .target(name: "_CPrefetch"),
        // FFmpeg's libraries for video, opened at run time (dlopen) so that the binary starts and
        // grades photos without them; built against their headers when present (Tools/install-deps).
        .target(name: "_CVideoCodec", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "_CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "_CTIFF", linkerSettings: [.linkedLibrary("tiff")]),
        // libwebp and libheif return status codes; their shims keep ownership of buffers on the C side.
        .target(name: "_CWebP", linkerSettings: [.linkedLibrary("webp"), .linkedLibrary("webpmux"), .linkedLibrary("webpdemux")]),
        .target(name: "_CHEIF", linkerSettings: [.linkedLibrary("heif"), .linkedLibrary("dav1d"), .linkedLibrary("de265")]),
        // OpenEXR through its C API (the Core library), which reports errors as status codes.
        .target(name: "_CEXR", linkerSettings: [.linkedLibrary("OpenEXRCore-3_1")]),
        // zlib's one-shot compress and a bounded inflate for Camera Raw profiles' tables.
        .target(name: "_CZlib", linkerSettings: [.linkedLibrary("z")]),
        .systemLibrary(
            name: "CLittleCMS",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]
        ),

        // MARK: Tests
        .testTarget(
            name: "ColorCubeTests",
            dependencies: [
                "ColorCubeCore", "ColorCubeTransform", "ColorCubeLooks", "ColorCubeImaging", "ColorCubeGenerator",
                "ColorCubeConverter", "ColorCubeEngine", "ColorCubeApplier", "ColorCubeLearner", "CLittleCMS", "_CVideoCodec",
            ]
        ),
        .testTarget(
            name: "StudioTests",
            dependencies: ["ColorCubeCore", "ColorCubeLooks", "ColorCubeImaging", "ColorCubeConverter", "ColorCubeEngine",
                           "ColorCubeApplier", "ColorCubeStudio"]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["ColorCubeCore", "ColorCubeLooks", "ColorCubeImaging", "ColorCubeConverter"]),
    ],
    // Swift 6 mode everywhere: the compiler checks what crosses threads. Parallel loops run through
    // ColorCubeCore's ParallelLoop (Dispatch), locks are `Locked` (a POSIX mutex ThreadSanitizer sees), and the few places
    // where raw memory is shared (buffers split among worker threads, the stream's frames, the
    // engine's lattice and colour memo) are small Sendable types that state their rule in one place
    // (DisjointRegions, LatticeKernel, ColorMemo8).
    swiftLanguageModes: [.v6]
)
