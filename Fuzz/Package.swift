// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for EasyBake. A package of its own, depending on the root
// package by path, so that the root package's `swift build` and `swift test`
// never compile it. Build and run with `Fuzz/run.sh` (see "Fuzzing" in
// Sources/EasyBake/EasyBake.docc/ErrorsAndLimits.md): the targets only make sense built with
// `swift build --sanitize=fuzzer`, where libFuzzer supplies `main`.
let package = Package(
    name: "EasyBakeFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "EasyBake", path: "..")
    ],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "EasyBake", package: "EasyBake")]
        ),
        .executableTarget(
            name: "FuzzJSON",
            dependencies: ["FuzzSupport", .product(name: "EasyBakeJSON", package: "EasyBake")]
        ),
        .executableTarget(
            name: "FuzzXML",
            dependencies: ["FuzzSupport", .product(name: "EasyBakeXML", package: "EasyBake")]
        ),
        .executableTarget(
            name: "FuzzYAML",
            dependencies: ["FuzzSupport", .product(name: "EasyBakeYAML", package: "EasyBake")]
        ),
        .executableTarget(
            name: "FuzzRecipe",
            dependencies: [
                "FuzzSupport",
                .product(name: "EasyBakeJSON", package: "EasyBake"),
                .product(name: "EasyBakeYAML", package: "EasyBake"),
            ]
        ),
    ]
)
