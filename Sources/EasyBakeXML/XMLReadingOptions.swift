import EasyBake

/// How an XML document becomes ingredients: the names of attribute and text
/// keys, what happens to namespaces and to surrounding whitespace, and the
/// limits that bound what one document may cost.
///
/// The defaults follow EasyBake's XML conventions:
///
/// ```xml
/// <rss version="2.0">
///   <channel>
///     <title>News</title>
///     <item><title>A</title><category>x</category><category>y</category></item>
///     <item><title>B</title><note/></item>
///   </channel>
/// </rss>
/// ```
/// reads as
/// ```json
/// {"rss": {"@version": "2.0", "channel": {"title": "News", "item": [
///   {"title": "A", "category": ["x", "y"]},
///   {"title": "B", "note": null}]}}}
/// ```
///
/// - The root element is the single key of the top dictionary.
/// - An element becomes a dictionary of its children by name; attributes
///   become keys prefixed with ``attributePrefix`` (`@version`).
/// - An element with only text and no attributes becomes its string; an
///   element with attributes or children keeps its text under ``textKey``
///   (`#text`).
/// - Repeated sibling elements become an array in document order (the source
///   repeats the key and reports `DuplicateKeyPolicy.collect`).
/// - An empty element (`<note/>`, `<note></note>`) becomes null.
/// - Text is kept exactly, except that whitespace-only text between child
///   elements is dropped. Text-only elements keep even whitespace-only text
///   (`<a> </a>` is `" "`) unless ``trimsText`` is set.
/// - Mixed content (`<p>Hello <b>you</b> there</p>`) keeps each text run in
///   order under ``textKey``: `{"#text": ["Hello ", " there"], "b": "you"}`;
///   the interleaving of text runs with child elements is not recorded —
///   unless ``markupElements`` names the element, which then also keeps its
///   inner markup and its text content in document order.
/// - CDATA sections are text; comments and processing instructions are
///   dropped; entity and character references are replaced by their text.
///   A document that is not well-formed is an error, unless
///   ``lenientReferences`` reads a feed's stray `&` and HTML entities.
/// - Numbers stay strings: XML has no types, baking coerces as the model asks.
public struct XMLReadingOptions: Sendable, Hashable {
    /// What becomes of namespace prefixes in element and attribute names.
    public enum NamespaceMode: String, Sendable, Hashable, CaseIterable {
        /// Names keep their prefix as written: `atom:link`. The default.
        case keepPrefixes
        /// Prefixes are replaced by their namespace URI in Clark notation:
        /// `{http://www.w3.org/2005/Atom}link`. Unprefixed attributes have
        /// no namespace and keep their plain name. Paths reach such keys
        /// with quoting: `feed["{http://www.w3.org/2005/Atom}entry"]`.
        case resolveToURIs
        /// Prefixes are dropped: `atom:link` becomes `link`.
        case strip
    }

    /// The prefix that marks attribute keys. Default `"@"`.
    public var attributePrefix: String
    /// The key under which an element with attributes or children keeps its
    /// text. Default `"#text"`.
    public var textKey: String
    /// Trims XML whitespace (space, tab, CR, LF) from both ends of every text
    /// value; text that trims to nothing counts as absent (a text-only
    /// element then becomes null). Default `false`: text is kept exactly.
    public var trimsText: Bool
    /// What becomes of namespace prefixes. Default ``NamespaceMode/keepPrefixes``.
    public var namespaces: NamespaceMode
    /// Keeps namespace declarations as attributes (`@xmlns`,
    /// `@xmlns:atom`), so that writing the tree back gives a document with
    /// the same namespaces. Default `true`. A declaration that binds a
    /// prefix to the namespace it is bound to already changes nothing, and
    /// is not kept.
    public var keepsNamespaceDeclarations: Bool
    /// Accepts documents that are well-formed XML 1.0 but not
    /// namespace-well-formed (Namespaces in XML 1.0, §7). Default `false`:
    /// such a document is a `EasyBakeError.Code.syntax` error with its line
    /// and column, whose message starts with `namespace error:`.
    ///
    /// Refused by default: a prefix that is not declared (`<a:b/>`, also on
    /// attributes); a prefix undeclared with `xmlns:p=""` (allowed only in
    /// an XML 1.1 document, where using the prefix inside its scope is then
    /// the error); two attributes with the same namespace and local name
    /// (`<x a:n="1" b:n="2"/>` where `a` and `b` are bound to one URI); the
    /// prefix `xml` bound to anything but
    /// `http://www.w3.org/XML/1998/namespace`, another prefix or the default
    /// namespace bound to that URI, the prefix `xmlns` declared at all, and
    /// anything bound to `http://www.w3.org/2000/xmlns/` (also when the
    /// declaration is an attribute default of the internal subset); a name
    /// that is not a qualified name — more than one colon, an empty prefix
    /// or local part, a local part that cannot start a name (`a:b:c`,
    /// `:a`, `a:`, `a:1b`) — in a tag or in an element, attribute-list or
    /// document type declaration; and a colon in an entity name, a
    /// processing-instruction target or a notation name.
    ///
    /// Namespace names are compared as strings and not checked to be URI
    /// references (a relative or malformed one is accepted, as the
    /// specification leaves it).
    ///
    /// Set it for legacy feeds that use undeclared prefixes: each name is
    /// then read as written (with ``NamespaceMode/resolveToURIs``, a name
    /// whose prefix is not declared keeps its prefix).
    public var acceptsNamespaceErrors: Bool
    /// The elements whose inner markup and text content are kept, by name
    /// as the tree's keys spell them (`summary`, `atom:content`). Each such
    /// element reads as a dictionary that holds, beside its usual keys,
    /// ``innerXMLKey`` — its content as XML markup, in document order,
    /// names and namespace declarations as written, without the white
    /// space that only lays out its child elements at either end (the
    /// indentation of the `<div>` inside `<summary type="xhtml">`) — and
    /// ``textContentKey`` — all the text of that markup, in document order
    /// (XPath's `string()` but for that white space). Default empty: nothing is kept, and reading
    /// costs nothing more.
    ///
    /// ```swift
    /// // <summary type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p><b>Bold</b> news</p></div></summary>
    /// // summary.#innerXML:   <div xmlns="http://www.w3.org/1999/xhtml"><p><b>Bold</b> news</p></div>
    /// // summary.#textContent: Bold news
    /// ```
    ///
    /// The XML writer writes an element's ``innerXMLKey`` as its content, so
    /// such an element round-trips in order; it refuses other mixed content,
    /// whose order the tree does not know. Comments and processing
    /// instructions are not kept (the reader drops them); the markup counts
    /// against `IngredientLimits.maximumStringBytes`.
    public var markupElements: Set<String>
    /// Reads the references of feeds that are not well-formed XML the way
    /// feed readers do, and reports each repair as a warning with its line
    /// and column. Default `false`: such a document is a
    /// `EasyBakeError.Code.syntax` error at its first `&`.
    ///
    /// Feeds are often written by HTML tools, and carry what HTML allows
    /// and XML does not:
    ///
    /// - An `&` that starts no reference (`?utm_source=a&utm_medium=rss`,
    ///   `Tom & Jerry`, an `&` at the end of the input) is read as the
    ///   text `&`, in content and in attribute values (not in comments,
    ///   CDATA sections or the document type declaration, where it is
    ///   left as written). This needs an ASCII-compatible encoding (UTF-8,
    ///   ISO-8859-1, …); in a UTF-16 document it stays an error.
    /// - A reference to an entity the document does not declare that HTML
    ///   names (`&nbsp;`, `&eacute;`, `&mdash;`, `&copy;`; every HTML 5
    ///   name, so every HTML 4 and XHTML 1 one) is read as HTML's
    ///   characters (U+00A0, `é`, `—`, `©`).
    /// - A reference to any other undeclared entity (`&foo;`) is kept as
    ///   its text, `&foo;`.
    ///
    /// Everything else is read as strictly as ever: the five entities of
    /// XML and those the internal subset declares keep their meaning (a
    /// declaration wins over HTML's), character references (`&#233;`,
    /// `&#xE9;`) are left to XML's rules, and a document that is malformed
    /// otherwise is still an error. External entities are still never
    /// loaded, and each HTML entity costs the length of its replacement
    /// against `IngredientLimits.maximumExpansion`, as a declared one does.
    ///
    /// No change is silent: each repair is an `EasyBakeError` warning
    /// (code `syntax`) with the line and column of its `&` in the input as
    /// written. They are reported by ``XMLIngredientSource/warnings`` (also
    /// while streaming: `BakedRecords.reader.source.warnings`), at the
    /// head of `Baker.Result.warnings` from `Baker.bakeReporting(_:from:format:recipe:)`,
    /// and on standard error by the `easybake` command's `--xml-lenient`.
    ///
    /// ```swift
    /// // <link>https://example.com/?a=1&b=2</link><title>Caf&eacute;&nbsp;news</title>
    /// let format = XMLFormat(options: .init(lenientReferences: true))
    /// // link: "https://example.com/?a=1&b=2", title: "Café\u{A0}news", and three warnings
    /// ```
    public var lenientReferences: Bool
    /// The key of a captured element's inner markup: `"#innerXML"`.
    public static let innerXMLKey = "#innerXML"
    /// The key of a captured element's text content: `"#textContent"`.
    public static let textContentKey = "#textContent"
    /// The bounds on depth, input size, text and attribute sizes, and entity
    /// expansion.
    ///
    /// Element nesting counts one level per element plus one for the
    /// document dictionary. Each reference to an internal entity costs the
    /// byte length of its replacement text (at least 1) against
    /// `IngredientLimits.maximumExpansion`, so billion-laughs and
    /// quadratic-blowup documents stop early. libxml2 itself refuses element
    /// nesting deeper than 256 (EasyBake never enables its `HUGE` mode); that
    /// is reported as a limit error too.
    public var limits: IngredientLimits

    /// Options with EasyBake's default conventions; see the type's discussion.
    public init(
        attributePrefix: String = "@",
        textKey: String = "#text",
        trimsText: Bool = false,
        namespaces: NamespaceMode = .keepPrefixes,
        keepsNamespaceDeclarations: Bool = true,
        acceptsNamespaceErrors: Bool = false,
        markupElements: Set<String> = [],
        lenientReferences: Bool = false,
        limits: IngredientLimits = .default
    ) {
        self.lenientReferences = lenientReferences
        self.markupElements = markupElements
        self.attributePrefix = attributePrefix
        self.textKey = textKey
        self.trimsText = trimsText
        self.namespaces = namespaces
        self.keepsNamespaceDeclarations = keepsNamespaceDeclarations
        self.acceptsNamespaceErrors = acceptsNamespaceErrors
        self.limits = limits
    }
}
