import EasyBakeTestSupport
import Foundation
import Testing

/// The reading choices of issue 16 through the command: YAML's unknown tags
/// (`--yaml-tags value|wrap|reject`) and XML's namespace errors
/// (refused, or read with `--xml-accept-namespace-errors`).
@Suite("The easybake command on tagged YAML and XML namespace errors")
struct ConformanceCommandTests {
    static func file(_ text: String, _ ext: String) throws -> String {
        let url = TestFiles.directory.appendingPathComponent("\(UUID())-conformance.\(ext)")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static let template =
        "Resources:\n  Logs:\n    Type: AWS::S3::Bucket\n    Properties:\n      BucketName: !Sub '${AWS::StackName}-logs'\n      Tags: !Tagged [a, b]\nOutput: !Ref Logs\n"

    @Test("unknown YAML tags read as the node's value by default")
    func yamlTagsValue() throws {
        let file = try Self.file(Self.template, "yaml")
        let result = try Command.run(["convert", "--to", "json", file])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.lines == [
                #"{"Resources":{"Logs":{"Type":"AWS::S3::Bucket","Properties":{"BucketName":"${AWS::StackName}-logs","Tags":["a","b"]}}},"Output":"Logs"}"#
            ])
        let explicit = try Command.run(["get", "Output", "--yaml-tags", "value", file])
        #expect(explicit.lines == [#""Logs""#])
    }

    @Test("--yaml-tags wrap keeps the tag as a single-key dictionary")
    func yamlTagsWrap() throws {
        let file = try Self.file(Self.template, "yaml")
        let result = try Command.run(["get", "--yaml-tags", "wrap", "Output", file])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.lines == [#"{"!Ref":"Logs"}"#])
        let tags = try Command.run([
            "get", "--yaml-tags", "wrap", #"Resources.Logs.Properties.Tags["!Tagged"][1]"#, file,
        ])
        #expect(tags.lines == [#""b""#])
        let scaffold = try Command.run(["scaffold", "--name", "Template", "--yaml-tags", "wrap", file])
        #expect(scaffold.status == 0, "\(scaffold.standardError)")
        #expect(scaffold.standardOutput.contains("YAMLReadingOptions(unknownTags: .wrap)"))
    }

    @Test("--yaml-tags reject refuses an unknown tag with its position")
    func yamlTagsReject() throws {
        let file = try Self.file(Self.template, "yaml")
        let result = try Command.run(["convert", "--to", "json", "--yaml-tags", "reject", file])
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(result.standardError.hasPrefix("error: unsupported: unknown tag !Sub"), "\(result.standardError)")
        #expect(result.standardError.contains("-conformance.yaml:5:19"), "\(result.standardError)")
    }

    @Test("--yaml-tags takes value, wrap or reject, and only for YAML")
    func yamlTagsMisused() throws {
        let yaml = try Self.file(Self.template, "yaml")
        let unknown = try Command.run(["convert", "--to", "json", "--yaml-tags", "drop", yaml])
        #expect(unknown.status != 0)
        #expect(unknown.standardError.contains("value"))
        let json = try Self.file(#"{"a": 1}"#, "json")
        let other = try Command.run(["convert", "--to", "json", "--yaml-tags", "wrap", json])
        #expect(other.status == 1)
        #expect(other.standardError.hasPrefix("error: unsupported: --yaml-tags"), "\(other.standardError)")
    }

    static let legacyFeed =
        "<rss version=\"2.0\">\n  <channel>\n    <item><title>A</title><dc:creator>Ada</dc:creator></item>\n  </channel>\n</rss>\n"

    @Test("an XML namespace error is refused with its position; --xml-accept-namespace-errors reads it")
    func xmlNamespaceErrors() throws {
        let file = try Self.file(Self.legacyFeed, "rss")
        for arguments in [
            ["convert", "--to", "json", file], ["get", "rss.channel.item.title", file],
            ["bake", "--recipe", "Fixtures/recipes/rss-item.json", "--each", "rss.channel.item[*]", file],
        ] {
            let refused = try Command.run(arguments)
            #expect(refused.status == 1, "\(arguments)")
            #expect(
                refused.standardError.hasPrefix(
                    "error: syntax: namespace error: Namespace prefix dc on creator is not defined"),
                "\(arguments): \(refused.standardError)")
            #expect(refused.standardError.contains("-conformance.rss:3:"), "\(arguments): \(refused.standardError)")
        }
        let accepted = try Command.run(["get", "--xml-accept-namespace-errors", "rss.channel.item", file])
        #expect(accepted.status == 0, "\(accepted.standardError)")
        #expect(accepted.lines == [#"{"title":"A","dc:creator":"Ada"}"#])
        let paths = try Command.run(["paths", "--xml-accept-namespace-errors", file])
        #expect(paths.status == 0, "\(paths.standardError)")
        #expect(paths.standardOutput.contains("dc:creator"))
        let scaffold = try Command.run(["scaffold", "--name", "Feed", "--xml-accept-namespace-errors", file])
        #expect(scaffold.status == 0, "\(scaffold.standardError)")
        #expect(scaffold.standardOutput.contains("XMLFormat(options: XMLReadingOptions(acceptsNamespaceErrors: true))"))
        let yaml = try Self.file("a: 1\n", "yaml")
        let other = try Command.run(["convert", "--to", "json", "--xml-accept-namespace-errors", yaml])
        #expect(other.status == 1)
        #expect(
            other.standardError.hasPrefix("error: unsupported: --xml-accept-namespace-errors"), "\(other.standardError)"
        )
    }

    @Test(
        "--xml-markup keeps mixed content in order through convert --to xml; without it, convert refuses to reorder it")
    func mixedContent() throws {
        let page = "<html><body><p>Read <a href=\"/x\">this</a> first, <b>then</b> that.</p><p>Plain.</p></body></html>"
        let file = try Self.file(page, "xml")
        let kept = try Command.run(["convert", "--to", "xml", "--xml-markup", "p", file])
        #expect(kept.status == 0, "\(kept.standardError)")
        #expect(
            kept.standardOutput.contains(#"<p>Read <a href="/x">this</a> first, <b>then</b> that.</p>"#),
            "\(kept.standardOutput)")
        let text = try Command.run(["get", "--raw", "--xml-markup", "p", "html.body.p[0].#textContent", file])
        #expect(text.lines == ["Read this first, then that."])
        let refused = try Command.run(["convert", "--to", "xml", file])
        #expect(refused.status == 1)
        #expect(refused.standardOutput == "")
        #expect(
            refused.standardError.contains("the element <p> holds text beside child elements (mixed content)"),
            "\(refused.standardError)")
        // To JSON, nothing is refused: the text runs and elements are there, as before.
        let json = try Command.run(["convert", "--to", "json", file])
        #expect(json.status == 0)
        let scaffold = try Command.run(["scaffold", "--name", "Page", "--xml-markup", "p", file])
        #expect(
            scaffold.standardOutput.contains(#"XMLReadingOptions(markupElements: ["p"])"#), "\(scaffold.standardOutput)"
        )
        let yaml = try Self.file("a: 1\n", "yaml")
        let other = try Command.run(["convert", "--to", "json", "--xml-markup", "p", yaml])
        #expect(other.standardError.hasPrefix("error: unsupported: --xml-markup"), "\(other.standardError)")
    }
}
