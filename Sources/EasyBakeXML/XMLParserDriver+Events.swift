internal import CLibXML2
import EasyBake
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The SAX callbacks' work: elements, attributes, text and entities become
// queued `IngredientEvent`s; skipped values make none.
extension XMLParserDriver {
    @inline(__always)
    func emit(_ event: IngredientEvent, _ position: UInt64) {
        events.append(QueuedEvent(event: event, position: position, frame: Int32(truncatingIfNeeded: frames.count)))
        eventsMade &+= 1
    }

    @inline(__always)
    static func position(_ context: xmlParserCtxtPtr) -> UInt64 {
        guard let input = context.pointee.input else { return 1 << 32 | 1 }
        return UInt64(UInt32(truncatingIfNeeded: max(input.pointee.line, 1))) << 32
            | UInt64(UInt32(truncatingIfNeeded: max(input.pointee.col, 1)))
    }

    /// The key of an element or attribute name, from the name cache.
    func name(
        local: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?, attribute: Bool
    ) -> String {
        nameKeys[nameSlot(local: local, prefix: prefix, uri: uri, attribute: attribute)]
    }

    /// The slot of the name cache that holds the key of an element or
    /// attribute name, filled first if it held another.
    func nameSlot(
        local: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?, attribute: Bool
    ) -> Int {
        // libxml2 interns names, prefixes and URIs in the context's
        // dictionary, so their addresses identify them.
        var qualifier: UnsafePointer<xmlChar>? =
            switch options.namespaces {
            case .keepPrefixes: prefix
            case .resolveToURIs: uri
            case .strip: nil
            }
        // An undeclared prefix (read only with acceptsNamespaceErrors) has
        // no URI to resolve to: it is kept as written.
        let unresolved = qualifier == nil && prefix != nil && options.namespaces == .resolveToURIs
        if unresolved { qualifier = prefix }
        let qualifierBits = UInt(bitPattern: qualifier)
        let localBits = UInt(bitPattern: local)
        // Multiplicative hashing of the two addresses picks the slot.
        let mixed =
            (localBits &* 0x9E37_79B9_7F4A_7C15) ^ (qualifierBits &* 0xC2B2_AE3D_27D4_EB4F) ^ (attribute ? 1 : 0)
            ^ (unresolved ? 2 : 0)
        // The mask keeps the slot inside the cache: its size is a power of 2.
        assert(Self.nameCacheSize & (Self.nameCacheSize - 1) == 0, "the name cache's size is no power of 2")
        let home = Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) >> 54) & (Self.nameCacheSize - 1)
        assert(names.count == Self.nameCacheSize && nameKeys.count == Self.nameCacheSize, "a name cache resized")
        // Two slots per name, its home and the one beside it: with one, two
        // names of a record whose addresses fall on the same slot (which
        // depends on where libxml2's dictionary lies) would evict each
        // other at every element, and make their keys anew each time.
        @inline(__always) func holds(_ slot: Int) -> Bool {
            let cached = names[slot]
            return cached.filled && cached.local == localBits && cached.qualifier == qualifierBits
                && cached.attribute == attribute && cached.unresolved == unresolved
        }
        if holds(home) { return home }
        if holds(home ^ 1) { return home ^ 1 }
        // A free slot of the two, else the home slot.
        let slot = names[home].filled && !names[home ^ 1].filled ? home ^ 1 : home
        var text = attribute ? attributePrefix : ""
        if let qualifier {
            let q = String(cString: qualifier)
            text += options.namespaces == .resolveToURIs && !unresolved ? "{\(q)}" : "\(q):"
        }
        text += String(cString: local)
        names[slot] = NameSlot(
            qualifier: qualifierBits, local: localBits, attribute: attribute, unresolved: unresolved, filled: true,
            byteCount: text.utf8.count)
        nameKeys[slot] = text
        return slot
    }

    @inline(__always)
    static func isXMLWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// Where the pending text's value lies in the buffer: trimmed when
    /// asked, `nil` when absent.
    func pendingRange(droppingWhitespaceOnly: Bool) -> Range<Int>? {
        if pendingText.isEmpty { return nil }
        var start = 0
        var end = pendingText.count
        if options.trimsText || droppingWhitespaceOnly {
            while start < end, Self.isXMLWhitespace(pendingText[start]) { start += 1 }
            while end > start, Self.isXMLWhitespace(pendingText[end - 1]) { end -= 1 }
            if start == end { return nil }
            if !options.trimsText { start = 0; end = pendingText.count }
        }
        return start..<end
    }

    /// The pending text as a value: trimmed when asked, `nil` when absent.
    func pendingValue(droppingWhitespaceOnly: Bool) -> String? {
        pendingRange(droppingWhitespaceOnly: droppingWhitespaceOnly).map { pendingText.string($0) }
    }

    /// Emits text that precedes or follows child elements as a `#text` entry.
    func flushText(droppingWhitespaceOnly: Bool, _ position: UInt64) {
        if let range = pendingRange(droppingWhitespaceOnly: droppingWhitespaceOnly) {
            if indexing {
                emitKey(id: textKeyID, position)
                emitText(range, position)
            } else {
                emit(.key(textKey), position)
                emit(.scalar(.string(pendingText.string(range))), position)
            }
        }
        pendingText.removeAll()
    }

    func startElement(
        _ context: xmlParserCtxtPtr,
        local: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        namespaceCount: Int, namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        assert(
            Self.libxml2Namespaces(namespaces, count: namespaceCount, context: context),
            "namespaces other than the top of libxml2's namespace stack")
        assert(Self.libxml2Attributes(attributes, count: attributeCount), "malformed attributes from libxml2")
        guard !failed else { return }
        let position = Self.position(context)
        // The document dictionary, then one level per element.
        if frames.count + depthOffset + 2 > limits.maximumDepth {
            fail(.limit(.maximumDepth, limits.maximumDepth, at: currentLocation(context)), context)
            return
        }
        if !options.acceptsNamespaceErrors {
            if namespaceCount > 0, let namespaces,
                !checkDeclarations(context, namespaceCount: namespaceCount, namespaces: namespaces)
            {
                return
            }
            if tracksUndeclarations,
                !checkUndeclaredPrefixes(
                    context, prefix: prefix, namespaceCount: namespaceCount, namespaces: namespaces,
                    attributeCount: attributeCount, attributes: attributes)
            {
                return
            }
        }
        if markup.isActive,
            !captureStartTag(
                context, local: local, prefix: prefix, uri: uri, namespaceCount: namespaceCount, namespaces: namespaces,
                attributeCount: attributeCount, attributes: attributes)
        {
            return
        }
        if skipping {
            skipStartElement(
                context, local: local, prefix: prefix, attributeCount: attributeCount, attributes: attributes)
            return
        }
        if frames.isEmpty {
            openDictionary(position)
            rootSeen = true
        } else {
            let parent = frames.count - 1
            if let empty = frames[parent].empty {
                fail(XMLEmptyMarker.hasContent(empty, at: currentLocation(context)), context)
                return
            }
            if !frames[parent].opened {
                openDictionary(position)
                frames[parent].opened = true
            }
            flushText(droppingWhitespaceOnly: true, position)
            frames[parent].hasChildElements = true
        }
        // Names become keys: they count against the string limit as JSON
        // and YAML keys do (libxml2's own cap is 50,000 bytes).
        let elementSlot = nameSlot(local: local, prefix: prefix, uri: uri, attribute: false)
        if names[elementSlot].byteCount > limits.maximumStringBytes {
            fail(.limit(.maximumStringBytes, limits.maximumStringBytes, at: currentLocation(context)), context)
            return
        }
        emitKey(slot: elementSlot, position)

        // EasyBake's marker of an empty value, and the declaration of its
        // namespace, are no attributes of the element.
        var empty: XMLEmptyMarker.Kind?
        var markerAttribute = -1
        if let attributes {
            for i in 0..<attributeCount where XMLEmptyMarker.isNamespace(attributes[5 * i + 2]) {
                guard XMLEmptyMarker.isMarker(local: attributes[5 * i], uri: attributes[5 * i + 2]) else {
                    fail(XMLEmptyMarker.unknownAttribute(attributes[5 * i], at: currentLocation(context)), context)
                    return
                }
                guard let value = attributes[5 * i + 3], let valueEnd = attributes[5 * i + 4],
                    let kind = XMLEmptyMarker.Kind(bytes: UnsafeRawBufferPointer(start: value, count: valueEnd - value))
                else {
                    fail(
                        XMLEmptyMarker.unknownValue(
                            attributes[5 * i + 3], attributes[5 * i + 4], at: currentLocation(context)), context)
                    return
                }
                empty = kind
                markerAttribute = i
            }
        }
        let markerDeclarations =
            options.keepsNamespaceDeclarations && namespaceCount > 0
            ? (0..<namespaceCount).count { XMLEmptyMarker.isNamespace(namespaces?[2 * $0 + 1]) } : 0
        let declarations = options.keepsNamespaceDeclarations ? namespaceCount : 0
        let keptAttributes = attributeCount - (markerAttribute >= 0 ? 1 : 0)
        // A kept namespace declaration reads as an attribute, so it is
        // content of a marked element too (and the element would otherwise
        // open a dictionary whose empty value has no key).
        if empty != nil, keptAttributes > 0 || declarations - markerDeclarations > 0 {
            fail(XMLEmptyMarker.hasContent(empty!, at: currentLocation(context)), context)
            return
        }
        // A captured element is a dictionary, to hold its markup and text.
        let captured = empty == nil && !markup.names.isEmpty && markup.names.contains(nameKeys[elementSlot])
        let opened = declarations - markerDeclarations > 0 || keptAttributes > 0 || captured
        if opened {
            openDictionary(position)
            if let namespaces {
                for i in 0..<declarations where !XMLEmptyMarker.isNamespace(namespaces[2 * i + 1]) {
                    let declaredPrefix = namespaces[2 * i]
                    // libxml2 hands a namespace's URI with each `&` kept as
                    // `&#38;`, as it hands attribute values: replaced the same
                    // way, or `xmlns:a="x&amp;y"` would read as `x&#38;y`.
                    var declaredURI = ""
                    if let uri = namespaces[2 * i + 1] {
                        guard let text = attributeValue(context, uri, strlen(uri)) else { return }
                        declaredURI = text
                    }
                    let key = attributePrefix + (declaredPrefix.map { "xmlns:" + String(cString: $0) } ?? "xmlns")
                    emitKey(key, position)
                    emitString(declaredURI, position)
                }
            }
            if let attributes {
                for i in 0..<attributeCount where i != markerAttribute {
                    let base = 5 * i
                    guard let attributeLocal = attributes[base], let value = attributes[base + 3],
                        let valueEnd = attributes[base + 4]
                    else { continue }
                    let length = valueEnd - value
                    assert(length >= 0, "an attribute value that ends before it begins")
                    if length > limits.maximumStringBytes {
                        fail(
                            .limit(.maximumStringBytes, limits.maximumStringBytes, at: currentLocation(context)),
                            context)
                        return
                    }
                    let keySlot = nameSlot(
                        local: attributeLocal, prefix: attributes[base + 1], uri: attributes[base + 2],
                        attribute: true)
                    if names[keySlot].byteCount - attributePrefix.utf8.count > limits.maximumStringBytes {
                        fail(
                            .limit(.maximumStringBytes, limits.maximumStringBytes, at: currentLocation(context)),
                            context)
                        return
                    }
                    if indexing, memchr(value, 0x26, length) == nil {
                        // No reference to replace: the index takes libxml2's bytes.
                        emitKey(slot: keySlot, position)
                        emitText(UnsafeRawBufferPointer(start: value, count: length), position)
                        continue
                    }
                    guard let text = attributeValue(context, value, length) else { return }
                    emitKey(slot: keySlot, position)
                    emitString(text, position)
                }
            }
        }
        frames.append(
            Frame(
                opened: opened, hasChildElements: false, empty: empty,
                declarations: UInt8(clamping: namespaceCount), local: local, prefix: prefix,
                line: Int32(truncatingIfNeeded: position >> 32)))
        pendingText.removeAll()
        if captured { markup.begin(depth: frames.count) }
    }

    /// An attribute's value with its references replaced.
    ///
    /// Without `XML_PARSE_NOENT`, libxml2 hands SAX2 attribute values with
    /// entity references still in them (`&#38;` for `&amp;`), as its tree
    /// builder does, the replacement is done here the same way; it goes
    /// through the `getEntity` hook, so it is charged to the expansion budget.
    func attributeValue(_ context: xmlParserCtxtPtr, _ value: UnsafePointer<xmlChar>, _ length: Int) -> String? {
        // `length` bytes from `value`, libxml2's: memchr reads them all.
        assert(length >= 0, "an attribute value of negative length")
        if memchr(value, 0x26, length) == nil {
            return String(decoding: UnsafeBufferPointer(start: value, count: length), as: UTF8.self)
        }
        // Any repair in the value was warned about when libxml2 read it.
        decodingAttribute = true
        let decoded = xmlStringLenDecodeEntities(context, value, Int32(length), Int32(XML_SUBSTITUTE_REF), 0, 0, 0)
        decodingAttribute = false
        guard let decoded else {
            if !failed {
                fail(
                    .syntax("cannot replace the references in an attribute value", at: currentLocation(context)),
                    context)
            }
            return nil
        }
        defer { easybake_xml_free(decoded) }
        guard !failed else { return nil }
        let text = String(cString: decoded)
        if text.utf8.count > limits.maximumStringBytes {
            fail(.limit(.maximumStringBytes, limits.maximumStringBytes, at: currentLocation(context)), context)
            return nil
        }
        return text
    }

    /// Writes a start tag into the markup captures open around it.
    func captureStartTag(
        _ context: xmlParserCtxtPtr, local: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?,
        uri: UnsafePointer<xmlChar>?,
        namespaceCount: Int, namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) -> Bool {
        var declared: [(prefix: [UInt8]?, uri: [UInt8])] = []
        if let namespaces {
            for i in 0..<namespaceCount {
                declared.append(
                    (
                        namespaces[2 * i].map(XMLMarkupCapture.bytes),
                        namespaces[2 * i + 1].map(XMLMarkupCapture.bytes) ?? []
                    ))
            }
        }
        var written: [(name: XMLMarkupCapture.Name, value: [UInt8])] = []
        if let attributes {
            for i in 0..<attributeCount {
                guard let attributeLocal = attributes[5 * i], let value = attributes[5 * i + 3],
                    let valueEnd = attributes[5 * i + 4]
                else { continue }
                assert(valueEnd >= value, "an attribute value that ends before it begins")
                guard let text = attributeValue(context, value, valueEnd - value) else { return false }
                written.append(
                    (
                        XMLMarkupCapture.name(
                            local: attributeLocal, prefix: attributes[5 * i + 1], uri: attributes[5 * i + 2]),
                        Array(text.utf8)
                    ))
            }
        }
        markup.startTag(
            depth: frames.count + 1, name: XMLMarkupCapture.name(local: local, prefix: prefix, uri: uri),
            namespaces: declared, attributes: written)
        return checkMarkupLimit(context)
    }

    /// Fails when a captured element's markup outgrows the string limit.
    func checkMarkupLimit(_ context: xmlParserCtxtPtr) -> Bool {
        guard markup.longestMarkup > limits.maximumStringBytes else { return true }
        fail(.limit(.maximumStringBytes, limits.maximumStringBytes, at: currentLocation(context)), context)
        return false
    }

    /// A start tag inside a skipped value: the frame and the limits only.
    func skipStartElement(
        _ context: xmlParserCtxtPtr, local: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?,
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        if frames.isEmpty { rootSeen = true }
        if let attributes {
            for i in 0..<attributeCount {
                guard let value = attributes[5 * i + 3], let valueEnd = attributes[5 * i + 4] else { continue }
                assert(valueEnd >= value, "an attribute value that ends before it begins")
                if valueEnd - value > limits.maximumStringBytes {
                    fail(.limit(.maximumStringBytes, limits.maximumStringBytes, at: currentLocation(context)), context)
                    return
                }
            }
        }
        frames.append(
            Frame(
                opened: false, hasChildElements: false, local: local, prefix: prefix,
                line: Int32(truncatingIfNeeded: Self.position(context) >> 32)))
        skippedTextBytes = 0
    }

    /// An end tag inside a skipped value; the end of the element whose
    /// value is skipped ends the skip, and produces no event itself.
    func skipEndElement(_ context: xmlParserCtxtPtr) {
        skippedTextBytes = 0
        guard frames.count == skipEndDepth else { return }
        skipping = false
        let position = Self.position(context)
        lastPosition = position
        if frames.isEmpty { emit(.endDictionary, position) }
    }

    func endElement(_ context: xmlParserCtxtPtr) {
        guard !failed, let frame = frames.popLast() else { return }
        if tracksUndeclarations {
            let depth = frames.count
            while let last = prefixScopes.last, last.depth >= depth { prefixScopes.removeLast() }
        }
        let captured = markup.isActive ? markup.end(depth: frames.count + 1) : nil
        if skipping {
            skipEndElement(context)
            return
        }
        let position = Self.position(context)
        if let empty = frame.empty {
            guard pendingValue(droppingWhitespaceOnly: true) == nil else {
                fail(XMLEmptyMarker.hasContent(empty, at: currentLocation(context)), context)
                return
            }
            emitEmpty(empty, position)
        } else if frame.opened {
            flushText(droppingWhitespaceOnly: frame.hasChildElements, position)
            if let captured {
                emitKey(XMLReadingOptions.innerXMLKey, position)
                emitString(captured.markup, position)
                emitKey(XMLReadingOptions.textContentKey, position)
                emitString(captured.text, position)
            }
            closeDictionary(position)
        } else if indexing {
            if let range = pendingRange(droppingWhitespaceOnly: false) {
                emitText(range, position)
            } else {
                emitNull(position)
            }
        } else {
            let value = pendingValue(droppingWhitespaceOnly: false)
            emit(.scalar(value.map(Ingredients.string) ?? .null), position)
        }
        pendingText.removeAll()
        if frames.isEmpty { closeDictionary(position) }
    }

    func characters(_ context: xmlParserCtxtPtr, _ text: UnsafePointer<xmlChar>, _ length: Int) {
        assert(length >= 0, "text of negative length")
        guard !failed, !frames.isEmpty, length > 0 else { return }
        if markup.isActive {
            markup.text(UnsafeBufferPointer(start: text, count: length))
            guard checkMarkupLimit(context) else { return }
        }
        if skipping {
            skippedTextBytes += length
            if skippedTextBytes > limits.maximumStringBytes {
                fail(.limit(.maximumStringBytes, limits.maximumStringBytes, at: currentLocation(context)), context)
            }
            return
        }
        if pendingText.count + length > limits.maximumStringBytes {
            fail(.limit(.maximumStringBytes, limits.maximumStringBytes, at: currentLocation(context)), context)
            return
        }
        pendingText.append(text, count: length)
    }

    /// Looks an entity up for libxml2, refusing external ones and charging
    /// internal ones against the expansion budget.
    func entity(
        _ context: xmlParserCtxtPtr, named name: UnsafePointer<xmlChar>?, parameter: Bool
    ) -> xmlEntityPtr? {
        guard !failed, let name else {
            xmlStopParser(context)
            return nil
        }
        deepestEntityNesting = max(deepestEntityNesting, Int(context.pointee.depth))
        let found = parameter ? xmlSAX2GetParameterEntity(context, name) : xmlSAX2GetEntity(context, name)
        guard let found else {
            // A lenient reading gives an undeclared entity HTML's meaning
            // or its own text; a strict one lets libxml2 refuse it.
            return options.lenientReferences && !parameter ? undeclaredEntity(context, named: name) : nil
        }
        switch found.pointee.etype {
        case XML_INTERNAL_PREDEFINED_ENTITY:
            return found
        case XML_INTERNAL_GENERAL_ENTITY, XML_INTERNAL_PARAMETER_ENTITY:
            return charge(found, named: name, parameter: parameter, context) ? found : nil
        default:
            let system = found.pointee.SystemID.map { String(cString: $0) } ?? "?"
            let what = parameter ? "%\(String(cString: name));" : "&\(String(cString: name));"
            fail(
                EasyBakeError(
                    .forbidden,
                    "the reference \(what) names an external entity (\(system.debugDescription)); external entities are never loaded",
                    location: currentLocation(context)), context)
            return nil
        }
    }

    func refuseResolution(
        _ context: xmlParserCtxtPtr, publicID: UnsafePointer<xmlChar>?, systemID: UnsafePointer<xmlChar>?
    ) {
        let system = systemID.map { String(cString: $0) } ?? publicID.map { String(cString: $0) } ?? "?"
        fail(
            EasyBakeError(
                .forbidden,
                "the document asks to load the external resource \(system.debugDescription); external entities and DTDs are never loaded",
                location: currentLocation(context)), context)
    }
}
