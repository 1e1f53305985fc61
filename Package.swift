// swift-tools-version:6.0
import CompilerPluginSupport
import PackageDescription

// The core (`EasyBake`) depends on nothing but the toolchain. Each text format
// is its own module so that a JSON-only user links neither libxml2 nor libyaml.
let package = Package(
    name: "EasyBake",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "EasyBake", targets: ["EasyBake"]),
        .library(name: "EasyBakeJSON", targets: ["EasyBakeJSON"]),
        .library(name: "EasyBakeXML", targets: ["EasyBakeXML"]),
        .library(name: "EasyBakeYAML", targets: ["EasyBakeYAML"]),
        // Test helpers (fixtures, model factories): for test targets, so
        // that an app does not ship them.
        .library(name: "EasyBakeTesting", targets: ["EasyBakeTesting"]),
        .executable(name: "easybake", targets: ["easybake"]),
        // `@Bakeable` and its attributes. A product of its own because a macro
        // needs swift-syntax, which takes minutes to build: clients of the
        // products above never build it.
        .library(name: "EasyBakeMacros", targets: ["EasyBakeMacros"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Only for `swift package generate-documentation`; it adds no code to the library.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Only for the macros (`EasyBakeMacros`); 603 is the release for Swift 6.3.
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
    targets: [
        // The grammars and conversion rules shared by the library and the
        // macros' compile-time checks (ingredient paths, JSON numbers, the
        // scalar conversions of baking); it depends on nothing.
        .target(name: "EasyBakePathGrammar"),
        // Atomic flags for the core (a tree read by a format fills its
        // nodes on first access, from any thread): C, no library.
        .target(name: "CEasyBakeAtomics"),
        .target(name: "EasyBake", dependencies: ["EasyBakePathGrammar", "CEasyBakeAtomics"]),
        // Vector byte scanning for the JSON reader: C intrinsics, no library.
        .target(name: "CEasyBakeScanning"),
        .target(name: "EasyBakeJSON", dependencies: ["EasyBake", "EasyBakePathGrammar", "CEasyBakeScanning"]),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .target(name: "EasyBakeXML", dependencies: ["EasyBake", "CLibXML2"]),
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .target(name: "EasyBakeYAML", dependencies: ["EasyBake", "CYAML", "CEasyBakeScanning"]),
        // Fixtures read files in any format; `Fixtures(yaml:)` needs the YAML
        // module, the format fixture files are best kept in.
        .target(name: "EasyBakeTesting", dependencies: ["EasyBake", "EasyBakeYAML"]),
        // The macros' code is a library of its own, which the tests call
        // directly: a test target that depended on the `.macro` target
        // itself would make SwiftPM build every test target, and the library
        // under them, a second time for the host.
        .target(
            name: "EasyBakeMacrosImplementation",
            dependencies: [
                "EasyBakePathGrammar",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        ),
        .macro(
            name: "EasyBakeMacrosPlugin",
            dependencies: [
                "EasyBakeMacrosImplementation",
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .target(name: "EasyBakeMacros", dependencies: ["EasyBake", "EasyBakeMacrosPlugin"]),
        .executableTarget(
            name: "easybake",
            dependencies: [
                "EasyBake", "EasyBakeJSON", "EasyBakeXML", "EasyBakeYAML",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "EasyBakeTestSupport",
            dependencies: ["EasyBake"],
            path: "Tests/EasyBakeTestSupport"
        ),
        .testTarget(
            name: "EasyBakeTests", dependencies: ["EasyBake", "EasyBakeJSON", "EasyBakeTesting", "EasyBakeTestSupport"]
        ),
        .testTarget(name: "EasyBakeJSONTests", dependencies: ["EasyBake", "EasyBakeJSON", "EasyBakeTestSupport"]),
        .testTarget(
            name: "EasyBakeXMLTests", dependencies: ["EasyBake", "EasyBakeXML", "EasyBakeJSON", "EasyBakeTestSupport"]),
        .testTarget(
            name: "EasyBakeYAMLTests",
            dependencies: ["EasyBake", "EasyBakeYAML", "EasyBakeJSON", "EasyBakeTesting", "EasyBakeTestSupport"]
        ),
        .testTarget(
            name: "EasyBakeStreamingTests",
            dependencies: ["EasyBake", "EasyBakeJSON", "EasyBakeXML", "EasyBakeYAML", "EasyBakeTestSupport"]
        ),
        .testTarget(
            name: "EasyBakeMacrosTests",
            dependencies: [
                "EasyBakeMacros", "EasyBakeMacrosImplementation", "EasyBake", "EasyBakeJSON", "EasyBakeXML",
                "EasyBakeYAML", "EasyBakeTestSupport",
                .product(name: "SwiftSyntaxMacrosTestSupport", package: "swift-syntax"),
            ]
        ),
        // Snapshots/ holds expected outputs (some of them Swift files) that
        // the tests read from disk: not sources of the target.
        .testTarget(name: "easybakeTests", dependencies: ["easybake", "EasyBakeTestSupport"], exclude: ["Snapshots"]),
    ]
)
