import EasyBake
import EasyBakeTestSupport
import Foundation
import Testing
@testable import easybake

/// Models scaffolded from the shipped fixtures, compiled in a package of
/// their own that depends on EasyBake by path, and run: each bakes every
/// record of its fixture with its generated recipe file, decomposes it and
/// bakes it again.
///
/// The package lives in `.build/scaffold-check/` under the package root, so
/// that a second `swift test` builds it incrementally. Its target compiles
/// with warnings as errors: generated code must compile without warnings.
@Suite("Scaffolded models compile, bake and round-trip", .serialized)
struct ScaffoldPackageTests {
    struct Sample {
        let name: String
        let fixture: String
        let each: String
        let format: String
        /// Swift that describes one baked model `m`, printed per record.
        let show: String
        /// How many records the fixture holds.
        var records = 3
        /// For a YAML stream: the documents read (`.all`).
        var documents: String? = nil
        /// For XML: the elements whose markup is kept (`--xml-markup`).
        var markupElements: [String] = []
    }

    static let samples = [
        // Forty records of the benchmark's generated data: the shape the
        // speed figures are measured on (nested address, orders with dates
        // and items, optional fields), scaffolded and baked like any fixture.
        Sample(
            name: "BenchUser", fixture: "json/benchmark-users.json", each: "users[*]", format: "json",
            show:
                #""\(m.id) \(m.username) orders=\(m.orders.count) first=\(m.orders.first.map { iso($0.placedAt) } ?? "-") city=\(m.address.city)""#,
            records: 40),
        Sample(
            name: "User", fixture: "json/users.json", each: "users[*]", format: "json",
            show:
                #""\(m.userID) \(m.fullName) admin=\(m.isAdmin) unread=\(m.unreadMessages) joined=\(iso(m.joined)) home=\(m.homepage?.absoluteString ?? "nil") email=\(m.email ?? "nil") town=\(m.address.town) postcode=\(m.address.postcode ?? "nil") devices=\(m.devices.map(\.kind))""#
        ),
        Sample(
            name: "YAMLUser", fixture: "yaml/users.yaml", each: "users[*]", format: "yaml",
            show:
                #""\(m.userID) \(m.fullName) admin=\(m.isAdmin) lastSeen=\(m.lastSeen) devices=\(m.devices.map(\.os))""#
        ),
        Sample(
            name: "LineUser", fixture: "jsonl/users.jsonl", each: "[*]", format: "jsonl",
            show: #""\(m.userID) \(m.fullName) town=\(m.address.town) devices=\(m.devices.map(\.kind))""#),
        Sample(
            name: "DocumentUser", fixture: "yaml/user-documents.yaml", each: "[*]", format: "yaml",
            show: #""\(m.userID) \(m.fullName) joined=\(iso(m.joined)) devices=\(m.devices.map(\.os))""#,
            documents: ".all"),
        // Records keyed by name: `[*]` over the dictionary gives each one
        // (the `.defaults` template too, which makes most fields optional).
        Sample(
            name: "Member", fixture: "yaml/members.yaml", each: "[*]", format: "yaml",
            show: #""\(m.name ?? "-") \(m.memberID.map(String.init) ?? "-") town=\(m.address.town)""#),
        Sample(
            name: "NamedUser", fixture: "yaml/user-records.yaml", each: "[*]", format: "yaml",
            show: #""\(m.fullName ?? "-") unread=\(m.unreadMessages) town=\(m.address.town)""#, records: 4),
        Sample(
            name: "FeedItem", fixture: "xml/feed.rss", each: "rss.channel.item[*]", format: "xml",
            show:
                #""\(m.title) | \(m.link.absoluteString) | \(iso(m.pubDate)) | guid=\(m.guid.map { "\($0.text) permalink=\($0.isPermaLink.map(String.init) ?? "nil")" } ?? "nil") | categories=\(m.category ?? []) | enclosure=\(m.enclosure.map { "\($0.length) \($0.type)" } ?? "nil")""#
        ),
        // XHTML kept as markup: each entry's summary and content bake with
        // their inner markup and text content beside their elements.
        Sample(
            name: "XHTMLEntry", fixture: "xml/atom-xhtml.xml", each: "feed.entry[*]", format: "xml",
            show: #""\(m.title) | \(m.summary.innerXML) | \(m.content.textContent)""#, records: 2,
            markupElements: ["content", "summary"]),
        Sample(
            name: "AtomEntry", fixture: "xml/atom.xml", each: "feed.entry[*]", format: "xml",
            show:
                #""\(m.title) | \(iso(m.published)) | links=\(m.link.map(\.rel)) lengths=\(m.link.map { $0.length.map(String.init) ?? "-" }) | terms=\((m.category ?? []).map(\.term)) | creator=\(m.creator ?? "nil")""#
        ),
    ]

    static let packageDirectory = TestPaths.packageRoot.appendingPathComponent(".build/scaffold-check")

    @Test(
        "the fixtures' models build without warnings and bake every record, before and after decomposing",
        .timeLimit(.minutes(30)))
    func fixturesModelsBakeAndRoundTrip() throws {
        try writePackage()
        var build = try Self.run(["build", "--package-path", Self.packageDirectory.path], timeout: 1700)
        if build.status != 0 {
            // SwiftPM plans a path dependency's build once: after a source
            // file of EasyBake is added or removed, the incremental build
            // works from the old list ("missing inputs", or a type of the
            // new file not found). Build once more from scratch before
            // believing the failure.
            let products = Self.packageDirectory.appendingPathComponent(".build")
            try? FileManager.default.removeItem(at: products)
            build = try Self.run(["build", "--package-path", Self.packageDirectory.path], timeout: 1700)
        }
        try #require(build.status == 0, "swift build failed:\n\(build.output)")
        let run = try Self.run(
            ["run", "--skip-build", "--package-path", Self.packageDirectory.path, "ScaffoldCheck"], timeout: 300)
        try #require(run.status == 0, "ScaffoldCheck failed:\n\(run.output)")
        let lines = run.output.split(separator: "\n").map(String.init)

        for sample in Self.samples {
            #expect(
                lines.contains(
                    "\(sample.name): \(sample.records) baked, \(sample.records) equal after decompose and bake"),
                "\(run.output)")
        }
        #expect(
            lines.contains(
                #"User 101 Ada Lovelace admin=true unread=12 joined=1843-07-10T00:00:00Z home=https://example.com/~ada email=ada@example.com town=London postcode=SW1Y 4JH devices=["phone", "laptop"]"#
            ), "\(run.output)")
        #expect(
            lines.contains(
                #"User 102 Grace Hopper admin=true unread=0 joined=1906-12-09T00:00:00Z home=nil email=nil town=Arlington postcode=22202 devices=[]"#
            ), "\(run.output)")
        #expect(
            lines.contains(
                #"User 103 Katherine Johnson admin=false unread=3 joined=1918-08-26T00:00:00Z home=nil email=nil town=Hampton postcode=nil devices=["tablet"]"#
            ), "\(run.output)")
        #expect(
            lines.contains(#"YAMLUser 102 Grace Hopper admin=true lastSeen=1763712000 devices=[]"#), "\(run.output)")
        #expect(
            lines.contains("BenchUser 1 alan.torvalds1 orders=2 first=2016-06-30T13:37:21Z city=Berlin"),
            "\(run.output)")
        #expect(
            lines.contains(
                #"FeedItem Sourdough in 24 hours | https://kitchen.example.org/posts/sourdough | 2025-03-03T08:15:00Z | guid=kitchen-2025-0012 permalink=false | categories=["bread"] | enclosure=12345678 audio/mpeg"#
            ), "\(run.output)")
        #expect(
            lines.contains {
                $0.hasPrefix("FeedItem ")
                    && $0.contains(
                        "guid=https://kitchen.example.org/posts/knives permalink=nil | categories=[\"tools\", \"reviews\", \"safety\"] | enclosure=nil"
                    )
            }, "\(run.output)")
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "AtomEntry Sourdough in 24 hours | 2025-03-03T08:15:00Z | links=[\"alternate\", \"enclosure\"] lengths=[\"-\", \"12345678\"]"
                )
            }, "\(run.output)")
        #expect(lines.filter { $0.hasPrefix("AtomEntry ") }.count == 3, "\(run.output)")
        #expect(lines.contains(#"LineUser 102 Grace Hopper town=Arlington devices=[]"#), "\(run.output)")
        #expect(
            lines.contains(#"DocumentUser 101 Ada Lovelace joined=1843-07-10T00:00:00Z devices=["ios", "macos"]"#),
            "\(run.output)")
        // The command the header suggests reads the same documents as the Swift does.
        let header = try String(
            contentsOf: Self.packageDirectory.appendingPathComponent("Sources/ScaffoldCheck/DocumentUser.swift"),
            encoding: .utf8)
        #expect(
            header.contains(
                "// or: easybake bake --recipe DocumentUser.recipe.json --each '[*]' --documents all user-documents.yaml"
            ), "\(header)")
        #expect(lines.contains("Member Ada 1 town=London"), "\(run.output)")
        #expect(
            lines.contains(
                #"XHTMLEntry Sourdough in 24 hours | <div xmlns="http://www.w3.org/1999/xhtml">Flour, water, salt &amp; <em>time</em>.</div> | Mix 500 g of flour with water.Rest, fold, wait, bake."#
            ), "\(run.output)")
    }

    /// Writes the package, touching only files whose content changed.
    private func writePackage() throws {
        let root = TestPaths.packageRoot
        let sources = Self.packageDirectory.appendingPathComponent("Sources/ScaffoldCheck")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let dependency = root.lastPathComponent
        try Self.writeIfChanged(
            Self.packageDirectory.appendingPathComponent("Package.swift"),
            """
            // swift-tools-version:6.0
            // Written by ScaffoldPackageTests: models scaffolded from EasyBake's fixtures.
            import PackageDescription

            let package = Package(
                name: "ScaffoldCheck",
                platforms: [.macOS(.v13)],
                dependencies: [.package(path: \(ModelScaffold.swiftLiteral(root.path)))],
                targets: [
                    .executableTarget(
                        name: "ScaffoldCheck",
                        dependencies: [
                            .product(name: "EasyBake", package: \(ModelScaffold.swiftLiteral(dependency))),
                            .product(name: "EasyBakeJSON", package: \(ModelScaffold.swiftLiteral(dependency))),
                            .product(name: "EasyBakeXML", package: \(ModelScaffold.swiftLiteral(dependency))),
                            .product(name: "EasyBakeYAML", package: \(ModelScaffold.swiftLiteral(dependency))),
                        ],
                        swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]
                    ),
                ]
            )

            """)
        var checks: [String] = []
        for sample in Self.samples {
            let fixture = TestPaths.fixture(sample.fixture)
            var payload = Payload(path: fixture.path, format: nil)
            if sample.documents != nil { payload.documents.choice = .all }
            payload.documents.markupElements = Set(sample.markupElements)
            let survey = try PathsSurveying.survey(payload, each: sample.each, maximumPaths: 10_000)
            let scaffold = try ModelScaffold.make(
                from: survey,
                request: .init(
                    name: sample.name, each: sample.each, inputName: sample.fixture, formatName: sample.format,
                    yamlArguments: sample.documents.map { "documents: \($0)" },
                    xmlArguments: payload.documents.xmlSwiftValue, readingFlags: payload.documents.commandFlags))
            try Self.writeIfChanged(sources.appendingPathComponent("\(sample.name).swift"), scaffold.swiftSource)
            let recipe = Self.packageDirectory.appendingPathComponent("\(sample.name).recipe.json")
            try Self.writeIfChanged(recipe, scaffold.recipeJSON)
            let source =
                switch sample.format {
                case "xml" where !sample.markupElements.isEmpty:
                    "try XMLIngredientSource(.file(\(ModelScaffold.swiftLiteral(fixture.path))), options: XMLReadingOptions(\(payload.documents.xmlSwiftValue!)))"
                case "xml": "try XMLIngredientSource(.file(\(ModelScaffold.swiftLiteral(fixture.path))))"
                case "yaml" where sample.documents != nil:
                    "try YAMLIngredientSource(.file(\(ModelScaffold.swiftLiteral(fixture.path))), options: YAMLReadingOptions(documents: \(sample.documents!)))"
                case "yaml": "try YAMLIngredientSource(.file(\(ModelScaffold.swiftLiteral(fixture.path))))"
                case "jsonl": "try JSONLinesIngredientSource(.file(\(ModelScaffold.swiftLiteral(fixture.path))))"
                default: "try JSONIngredientSource(.file(\(ModelScaffold.swiftLiteral(fixture.path))))"
                }
            checks.append(
                """
                try check(\(sample.name).self, recipeFile: \(ModelScaffold.swiftLiteral(recipe.path)), \
                source: \(source), each: \(ModelScaffold.swiftLiteral(sample.each))) { m in \(sample.show) }
                """)
        }
        try Self.writeIfChanged(
            sources.appendingPathComponent("main.swift"),
            """
            // Written by ScaffoldPackageTests.
            import EasyBake
            import EasyBakeJSON
            import EasyBakeXML
            import EasyBakeYAML
            import Foundation

            func iso(_ date: Date) -> String { DateFormats.formatISO8601(date) }

            /// Bakes every record with the generated recipe file, then
            /// decomposes each model and bakes it again.
            func check<Model: Codable & Hashable, Source: IngredientSource>(
                _ type: Model.Type, recipeFile: String, source: Source, each: String, show: (Model) -> String
            ) throws {
                let recipe = try RecipeFile.load(.file(recipeFile), format: JSONFormat())[0]
                var baked = 0
                var equal = 0
                for result in try Baker().bakeEach(type, from: source, each: each, recipe: recipe) {
                    let model = try result.get()
                    baked += 1
                    print("\\(type) \\(show(model))")
                    let decomposed = try Baker().decompose(model, recipe: recipe)
                    let again = try Baker().bake(type, from: decomposed, recipe: recipe)
                    if again == model { equal += 1 } else { print("differs after decompose and bake: \\(model) \\(again)") }
                }
                print("\\(type): \\(baked) baked, \\(equal) equal after decompose and bake")
            }

            \(checks.joined(separator: "\n"))

            """)
    }

    private static func writeIfChanged(_ url: URL, _ text: String) throws {
        let data = Data(text.utf8)
        if (try? Data(contentsOf: url)) == data { return }
        try data.write(to: url)
    }

    /// Runs `swift ARGUMENTS`, output and errors together, ended after `timeout` seconds.
    private static func run(_ arguments: [String], timeout: TimeInterval) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift"] + arguments
        process.currentDirectoryURL = packageDirectory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let timer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
