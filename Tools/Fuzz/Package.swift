// swift-tools-version:6.0
// The fuzz harness: one libFuzzer binary whose target is chosen at run time (FUZZ_TARGET).
// A package of its own, so that the fuzzer runtime's `main` and the sanitizer flags never reach the
// root package's normal build. Built and run by Tools/fuzz.
import Foundation
import PackageDescription

// The root package is two folders up; its identity is that folder's name, whatever the checkout
// is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
let rootIdentity = root.lastPathComponent

let package = Package(
    name: "colorcube-fuzz",
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "ColorCubeFuzz",
            dependencies: [
                "_CFuzzerDriver",
                .product(name: "ColorCubeCore", package: rootIdentity),
                .product(name: "ColorCubeTransform", package: rootIdentity),
                .product(name: "ColorCubeLooks", package: rootIdentity),
                .product(name: "ColorCubeImaging", package: rootIdentity),
                .product(name: "ColorCubeConverter", package: rootIdentity),
                .product(name: "ColorCubeEngine", package: rootIdentity),
                .product(name: "ColorCubeApplier", package: rootIdentity),
            ]
        ),
        // libFuzzer's driver entry point, declared for Swift.
        .target(name: "_CFuzzerDriver"),
    ],
    swiftLanguageModes: [.v5]
)
