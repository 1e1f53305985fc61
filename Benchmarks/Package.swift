// swift-tools-version:6.0
import PackageDescription

// The benchmark runner is its own package so that the peers it measures
// EasyBake against (XMLCoder, SWXMLHash, Yams, libxml2's and libyaml's bare
// APIs) never become dependencies of the library. It depends on the root
// package by path, like swift-nio's and swift-collections' benchmarks.
let package = Package(
    name: "EasyBakeBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "EasyBake", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/CoreOffice/XMLCoder", exact: "0.18.2"),
        .package(url: "https://github.com/drmohundro/SWXMLHash", exact: "8.1.1"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
    ],
    targets: [
        // The bare C parsers, the ceiling every Swift parser is measured
        // against. Own module names: the root package's CLibXML2 and CYAML
        // are not products, and module names must be unique in a graph.
        .systemLibrary(
            name: "CBenchXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
        .systemLibrary(
            name: "CBenchYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        // simdjson, the structural JSON parser issue 30 measures the scanner
        // against, behind a C interface. Its On-Demand API is compiled into
        // the caller, so the shim is built for the machine that runs it, as
        // simdjson's own benchmarks are; its DOM parser picks a kernel at
        // run time. Debian's libsimdjson-dev (CI installs it).
        .target(
            name: "CBenchSimdjson",
            cxxSettings: [.unsafeFlags(["-O3", "-march=native"])],
            linkerSettings: [.linkedLibrary("simdjson")]
        ),
        .executableTarget(
            name: "easybake-bench",
            dependencies: [
                .product(name: "EasyBake", package: "EasyBake"),
                .product(name: "EasyBakeJSON", package: "EasyBake"),
                .product(name: "EasyBakeXML", package: "EasyBake"),
                .product(name: "EasyBakeYAML", package: "EasyBake"),
                .product(name: "EasyBakeMacros", package: "EasyBake"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "XMLCoder", package: "XMLCoder"),
                .product(name: "SWXMLHash", package: "SWXMLHash"),
                .product(name: "Yams", package: "Yams"),
                "CBenchXML2", "CBenchYAML", "CBenchSimdjson",
            ]
        ),
    ],
    cxxLanguageStandard: .cxx17
)
