import EasyBake
import EasyBakeYAML
import Testing

@Suite("YAML scalars resolve by the YAML 1.2 core schema")
struct YAMLScalarTests {
    static let plainTable: [(String, Ingredients)] = [
        ("null", .null), ("Null", .null), ("NULL", .null), ("~", .null), ("", .null),
        ("nULL", "nULL"), ("none", "none"),
        ("true", true), ("True", true), ("TRUE", true), ("false", false), ("FALSE", false),
        ("tRUE", "tRUE"),
        // YAML 1.1 booleans are strings under the 1.2 core schema (the default).
        ("yes", "yes"), ("no", "no"), ("on", "on"), ("off", "off"), ("y", "y"), ("NO", "NO"),
        ("0", 0), ("-0", 0), ("+12", 12), ("007", 7), ("-42", -42), ("1234567890", 1_234_567_890),
        ("9223372036854775807", .integer(.max)), ("-9223372036854775808", .integer(.min)),
        ("9223372036854775808", .exactNumber("9223372036854775808")),
        ("0x1F", 31), ("0xff", 255), ("0o17", 15), ("0o8", "0o8"), ("0x", "0x"), ("0xG", "0xG"),
        ("0xFFFFFFFFFFFFFFFFFF", .exactNumber("4722366482869645213695")),
        ("1.5", 1.5), ("-2.25", -2.25), ("+.5", 0.5), (".5", 0.5), ("1.", 1.0), ("1e3", 1000.0),
        ("6.02E+23", 6.02e23), ("1.0e-3", 0.001), ("0.1", 0.1),
        ("3.14159265358979323846264338327950288", .exactNumber("3.14159265358979323846264338327950288")),
        (".inf", .float(.infinity)), ("+.Inf", .float(.infinity)), ("-.INF", .float(-.infinity)),
        ("1_000", "1_000"), ("1.2.3", "1.2.3"), ("-x", "-x"), (".", "."), ("e3", "e3"), ("1e", "1e"),
        ("12:30", "12:30"), ("2001-12-14", "2001-12-14"), ("hello world", "hello world"),
    ]

    @Test("plain scalar resolution table", arguments: plainTable)
    func plain(_ text: String, _ expected: Ingredients) throws {
        let tree = try yaml("value: \(text)\n")
        #expect(tree["value"] == expected, "\(text.debugDescription)")
    }

    @Test(".nan reads as a NaN float")
    func nan() throws {
        for text in [".nan", ".NaN", ".NAN"] {
            guard case .float(let value)? = try yaml("v: \(text)")["v"] else {
                Issue.record("\(text) did not read as a float")
                continue
            }
            #expect(value.isNaN)
        }
        #expect(try yaml("v: -.nan")["v"] == "-.nan")
    }

    @Test("quoted and block scalars are always strings")
    func quoted() throws {
        let tree = try yaml(
            """
            a: "true"
            b: '123'
            c: "null"
            d: ''
            e: |
              42
            f: >-
              3.5
            """)
        #expect(tree == ["a": "true", "b": "123", "c": "null", "d": "", "e": "42\n", "f": "3.5"])
    }

    @Test("the YAML 1.1 option reads yes/no/on/off as booleans")
    func yaml11() throws {
        var options = YAMLReadingOptions()
        options.schema = .yaml11
        let tree = try yaml("[yes, No, ON, off, y, N, true, 'yes', maybe]", options)
        #expect(tree == [true, false, true, false, true, false, true, "yes", "maybe"])
    }

    @Test("explicit standard tags are honoured")
    func tags() throws {
        let tree = try yaml(
            """
            s: !!str 123
            t: !!str true
            i: !!int "42"
            h: !!int 0x10
            f: !!float 1
            g: !!float "2.5"
            b: !!bool "false"
            n: !!null ""
            x: !!binary |
              aGVs
              bG8=
            d: !!timestamp 2001-12-14
            q: ! 12
            u: !custom 7
            """)
        #expect(
            tree == [
                "s": "123", "t": "true", "i": 42, "h": 16, "f": 1.0, "g": 2.5, "b": false, "n": .null,
                "x": "aGVs\nbG8=\n", "d": "2001-12-14", "q": "12", "u": "7",
            ])
    }

    @Test("a value that does not fit its tag is an invalid value with a location")
    func badTags() throws {
        for text in ["a: !!int abc", "a: !!float x1", "a: !!bool maybe", "a: !!null nothing"] {
            let error = try #require(yamlError(text))
            #expect(error.code == .invalidValue, "\(text)")
            #expect(error.location?.line == 1)
            #expect(error.location?.column == 4)
        }
    }

    static let taggedNodes = """
        bucket: !Ref MyBucket
        zone: !GetAZs ""
        list: !Sub [a, b]
        obj: !!python/object:os.system {cmd: ls}
        global: !<tag:example.com,2024:point> 1
        known: !!map {a: 1}
        plain: !!str 1
        number: !Count 12
        flag: !Flag true
        empty: !Nothing
        !Tagged key: 2
        """

    @Test(
        "by default a node with an unknown tag keeps its kind: a scalar is its text, a sequence an array, a mapping a dictionary"
    )
    func unknownTagsValue() throws {
        #expect(
            try yaml(Self.taggedNodes) == [
                "bucket": "MyBucket",
                "zone": "",
                "list": ["a", "b"],
                "obj": ["cmd": "ls"],
                "global": "1",
                "known": ["a": 1],
                "plain": "1",
                // A tagged scalar is not resolved by the schema.
                "number": "12",
                "flag": "true",
                "empty": "",
                "key": 2,
            ])
        #expect(YAMLReadingOptions().unknownTags == .value)
        #expect(
            try yaml("a: &x !Ref thing\nb: *x\nc: &y !Seq [1]\nd: *y\n") == [
                "a": "thing", "b": "thing", "c": [1], "d": [1],
            ])
    }

    @Test("currentTag gives the tag of the node of the last event, as written")
    func currentTag() throws {
        var source = try YAMLIngredientSource(
            .text(
                """
                a: !Ref x
                b: !Seq [1, !!int 2]
                c: !!map {d: ! e}
                !K f: &n !<tag:example.com,2024:p> g
                h: *n
                i: {<<: {j: !J k}}
                l: plain
                """))
        var seen: [String] = []
        while let event = try source.next() {
            seen.append("\(event) \(source.currentTag ?? "-")")
        }
        #expect(
            seen == [
                "beginDictionary -",
                #"key("a") -"#, #"scalar("x") !Ref"#,
                #"key("b") -"#, "beginArray !Seq", "scalar(1) -", "scalar(2) !!int", "endArray -",
                #"key("c") -"#, "beginDictionary !!map", #"key("d") -"#, #"scalar("e") !"#, "endDictionary -",
                #"key("f") !K"#, #"scalar("g") !<tag:example.com,2024:p>"#,
                // An alias replays the anchored node, tag included; so does a merge.
                #"key("h") -"#, #"scalar("g") !<tag:example.com,2024:p>"#,
                #"key("i") -"#, "beginDictionary -", #"key("j") -"#, #"scalar("k") !J"#, "endDictionary -",
                #"key("l") -"#, #"scalar("plain") -"#,
                "endDictionary -",
            ])
    }

    @Test("currentTag is the same whatever the unknown-tag policy, and nil after a skip")
    func currentTagWrapped() throws {
        var options = YAMLReadingOptions()
        options.unknownTags = .wrap
        var source = try YAMLIngredientSource(.text("a: !Ref x\nb: !T [1]\nc: 1\n"), options: options)
        var seen: [String] = []
        while let event = try source.next() {
            seen.append("\(event) \(source.currentTag ?? "-")")
            if event == .key("b") {
                try source.skipValue()
                #expect(source.currentTag == nil)
            }
        }
        #expect(
            seen == [
                "beginDictionary -", #"key("a") -"#, "beginDictionary -", #"key("!Ref") -"#, #"scalar("x") !Ref"#,
                "endDictionary -", #"key("b") -"#, #"key("c") -"#, "scalar(1) -", "endDictionary -",
            ])
    }

    @Test("unknown tags can be wrapped: a single-key dictionary from the tag to the node")
    func unknownTagsWrap() throws {
        var options = YAMLReadingOptions()
        options.unknownTags = .wrap
        let tree = try yaml(
            """
            bucket: !Ref MyBucket
            zone: !GetAZs ""
            list: !Sub [a, b]
            obj: !!python/object:os.system {cmd: ls}
            global: !<tag:example.com,2024:point> 1
            known: !!map {a: 1}
            plain: !!str 1
            !Tagged key: 2
            """, options)
        #expect(
            tree == [
                "bucket": ["!Ref": "MyBucket"],
                "zone": ["!GetAZs": ""],
                "list": ["!Sub": ["a", "b"]],
                "obj": ["!!python/object:os.system": ["cmd": "ls"]],
                "global": ["!<tag:example.com,2024:point>": "1"],
                "known": ["a": 1],
                "plain": "1",
                "key": 2,
            ])
        // Paths and transformers reach the tag like any key.
        #expect(try tree.resolve(#"bucket["!Ref"]"#) == "MyBucket")
    }

    @Test("a wrapped tagged node keeps its anchor: aliases replay the wrapper")
    func unknownTagsWithAnchors() throws {
        let tree = try yaml("a: &x !Ref thing\nb: *x\nc: &y !Seq [1]\nd: *y\n", YAMLReadingOptions(unknownTags: .wrap))
        #expect(tree == ["a": ["!Ref": "thing"], "b": ["!Ref": "thing"], "c": ["!Seq": [1]], "d": ["!Seq": [1]]])
    }

    @Test("unknown tags can be read as values (the default) or rejected with their position")
    func unknownTagsPolicies() throws {
        var options = YAMLReadingOptions()
        options.unknownTags = .value
        #expect(try yaml("a: !Ref thing\nb: !Seq [1]\n", options) == ["a": "thing", "b": [1]])
        options.unknownTags = .reject
        let error = yamlError("a: !Ref thing", options)
        #expect(error?.code == .unsupported)
        #expect(error?.message == "unknown tag !Ref")
        #expect(error?.location?.column == 4)
        #expect(yamlError("a: !Seq [1]", options)?.message == "unknown tag !Seq")
        #expect(try yaml("a: !!str thing\nb: !!seq [1]\n", options) == ["a": "thing", "b": [1]])
    }

    @Test("keys that are not strings become their text")
    func keys() throws {
        let tree = try yaml("1: a\ntrue: b\n~: c\n1.50: d\n'q': e\n")
        #expect(tree.dictionaryValue?.keys == ["1", "true", "~", "1.50", "q"])
    }

    @Test("a key that is a mapping or sequence is an error")
    func complexKeys() throws {
        #expect(yamlError("? [a, b]\n: c\n")?.code == .unsupported)
        #expect(yamlError("{[a]: 1}")?.code == .unsupported)
    }
}

@Suite("YAML numbers asked as String keep their text (issue 27, item 3)")
struct YAMLNumberTextTests {
    struct Record: Decodable {
        let zip: String
        let version: String
        let hex: String
        let plus: String
        let exponent: String
        let count: Int
    }

    @Test("a zip code, a version, a hexadecimal and a signed number read as written, straight from the bytes")
    func numberText() throws {
        let yaml = "zip: 01234\nversion: 1.10\nhex: 0x1F  # a comment\nplus: +12\nexponent: 1e2\ncount: 0x1F\n"
        let record = try Baker().bake(Record.self, from: .text(yaml), format: YAMLFormat())
        #expect(record.zip == "01234")
        #expect(record.version == "1.10")
        #expect(record.hex == "0x1F")
        #expect(record.plus == "+12")
        #expect(record.exponent == "1e2")
        #expect(record.count == 31)
        // As the last bytes of the input, with no line end after them.
        struct Last: Decodable { let last: String }
        #expect(try Baker().bake(Last.self, from: .text("last: 0o17"), format: YAMLFormat()).last == "0o17")
    }
}
