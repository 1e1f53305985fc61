import CEasyBakeScanning
import EasyBakeJSON
import EasyBake
import EasyBakeTestSupport
import Foundation
import Testing

/// The structural stage's bitmaps, from every kernel this machine runs,
/// against a byte-by-byte reference; and skipping with them against
/// reading, with the vector kernel and with the scalar one.
@Suite("JSON structural stage")
struct JSONStructuralStageTests {
    /// The bitmaps one byte at a time, written from their definitions.
    struct Reference: Equatable, CustomStringConvertible {
        var quotes: [Bool] = [], inString: [Bool] = [], escaped: [Bool] = [], tokens: [Bool] = []
        var special: [Bool] = [], whitespace: [Bool] = []

        init(_ bytes: [UInt8], from start: Int) {
            var inside = false, escaping = false, previousScalar = false
            for byte in bytes[start...] {
                let isEscaped = escaping
                escaping = !isEscaped && byte == UInt8(ascii: "\\")
                let isQuote = byte == UInt8(ascii: "\"") && !isEscaped
                var token = false
                var interior = inside
                if inside {
                    if isQuote { inside = false; interior = false }
                } else if isQuote {
                    inside = true
                    interior = true
                    token = true
                }
                let outside = !interior && !isQuote
                let structural = outside && Array("{}[]:,".utf8).contains(byte)
                let blank = outside && [0x20, 0x09, 0x0A, 0x0D].contains(byte)
                let scalar = outside && !structural && !blank
                if structural || (scalar && !previousScalar) { token = true }
                previousScalar = scalar
                quotes.append(isQuote)
                inString.append(interior)
                escaped.append(isEscaped)
                tokens.append(token)
                special.append(interior && !isQuote && (byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\\")))
                whitespace.append(blank)
            }
        }

        /// The same, read from a kernel's blocks.
        init(kernel: Int32, _ bytes: [UInt8], from start: Int) {
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress, start < bytes.count else { return }
                var state = easybake_structural_state()
                var block = easybake_structural_block()
                var offset = start
                while offset < bytes.count {
                    easybake_structural_scan(base, offset, bytes.count, kernel, &state, &block)
                    for bit in 0..<min(64, bytes.count - offset) {
                        func has(_ map: UInt64) -> Bool { map & (1 << UInt64(bit)) != 0 }
                        quotes.append(has(block.quotes))
                        inString.append(has(block.in_string))
                        escaped.append(has(block.escaped))
                        tokens.append(has(block.tokens))
                        special.append(has(block.string_special))
                        whitespace.append(has(block.whitespace))
                    }
                    offset += 64
                }
            }
        }

        var description: String {
            func line(_ bits: [Bool]) -> String { String(bits.map { $0 ? "1" : "." }) }
            return "quotes \(line(quotes))\nstring \(line(inString))\nescape \(line(escaped))\ntokens \(line(tokens))"
        }
    }

    /// The scalar kernel and every vector one this machine runs.
    static var kernels: [Int32] {
        let best = easybake_structural_kernel(0)
        var kernels = [Int32(EASYBAKE_KERNEL_SCALAR)]
        #if arch(x86_64)
        kernels.append(Int32(EASYBAKE_KERNEL_SSE2))
        #endif
        if !kernels.contains(best) { kernels.append(best) }
        return kernels
    }

    static func checkKernels(_ bytes: [UInt8], _ name: String) {
        for start in Set([0, min(1, bytes.count), bytes.count / 2]) where start < bytes.count {
            let reference = Reference(bytes, from: start)
            for kernel in Self.kernels {
                let stage = Reference(kernel: kernel, bytes, from: start)
                #expect(stage == reference, "\(name) from \(start), kernel \(kernel):\n\(stage)\nexpected\n\(reference)")
            }
        }
    }

    static func randomDocuments(count: Int, seed: UInt64) -> [[UInt8]] {
        var random = SeededGenerator(seed: seed)
        let pieces = ["{", "}", "[", "]", ",", ":", "\"k\"", "\"a\\\\\"", "\"\\\"\"", "\\", "\\\\\\\"", "\"é\"", " ", "\n",
                      "12", "-0.5e3", "true", "nul", "\"\u{1}\"", "\"x", "\"" + String(repeating: "w", count: 70) + "\""]
        return (0..<count).map { _ in
            var text = ""
            for _ in 0..<Int.random(in: 1...60, using: &random) { text += pieces.randomElement(using: &random)! }
            return Array(text.utf8)
        }
    }

    @Test("every kernel gives the reference bitmaps on generated inputs")
    func generated() {
        #expect(Self.kernels.count >= 2 || easybake_structural_kernel(0) == EASYBAKE_KERNEL_SCALAR)
        for (number, bytes) in Self.randomDocuments(count: 3_000, seed: 0x57A6).enumerated() {
            Self.checkKernels(bytes, "document \(number)")
        }
    }

    @Test("every kernel gives the reference bitmaps on every JSONTestSuite file and fixture")
    func corpora() throws {
        var files: [URL] = []
        if let corpus = TestPaths.corpus("JSONTestSuite") {
            let folder = corpus.appendingPathComponent("test_parsing")
            files += try FileManager.default.contentsOfDirectory(atPath: folder.path).map { folder.appendingPathComponent($0) }
        }
        let fixtures = FileManager.default.enumerator(at: TestPaths.fixtures, includingPropertiesForKeys: nil)
        while let url = fixtures?.nextObject() as? URL {
            if ["json", "jsonl"].contains(url.pathExtension) { files.append(url) }
        }
        #expect(files.count >= 9)
        for url in files {
            Self.checkKernels(try [UInt8](Data(contentsOf: url)), url.lastPathComponent)
        }
    }

    /// Skips the value of `bytes` with the given byte scanning (and so
    /// structural kernel): the error, or where the skip ended.
    static func skipOutcome(_ bytes: [UInt8], _ scanning: JSONByteScanning) -> String {
        do {
            var source = try JSONIngredientSource(.bytes(bytes))
            source.byteScanning = scanning
            try source.skipValue()
            let end = source.bytesRead
            if try source.next() != nil { return "more after the value" }
            return "ok at \(end)"
        } catch {
            return "\(error.code) \(error.location?.line ?? -1):\(error.location?.column ?? -1) \(error.message)"
        }
    }

    @Test("skipping with the vector and the scalar stage: same end, same error, and as reading")
    func skipping() throws {
        var documents = Self.randomDocuments(count: 3_000, seed: 0x5C1F).map { [UInt8(ascii: "[")] + $0 + [UInt8(ascii: "]")] }
        if let corpus = TestPaths.corpus("JSONTestSuite") {
            let folder = corpus.appendingPathComponent("test_parsing")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                documents.append(try [UInt8](Data(contentsOf: folder.appendingPathComponent(name))))
            }
        }
        var valid = 0
        for bytes in documents {
            let vector = Self.skipOutcome(bytes, .vector)
            let word = Self.skipOutcome(bytes, .word)
            #expect(vector == word, "\(String(decoding: bytes, as: UTF8.self))")
            let read: String
            do {
                var source = try JSONIngredientSource(.bytes(bytes))
                _ = try Ingredients(reading: &source)
                read = "ok"
                valid += 1
            } catch {
                read = "\(error.code) \(error.location?.line ?? -1):\(error.location?.column ?? -1) \(error.message)"
            }
            #expect(vector.hasPrefix("ok") == (read == "ok"), "\(String(decoding: bytes, as: UTF8.self))")
            if read != "ok" { #expect(vector == read, "\(String(decoding: bytes, as: UTF8.self))") }
        }
        #expect(valid > 100)
    }

    @Test("a long plain string across blocks, and escapes at a block's edge, are skipped exactly")
    func blockEdges() {
        for length in 55...75 {
            for text in [String(repeating: "a", count: length), String(repeating: "a", count: length) + "\\\"" , String(repeating: "\\\\", count: length / 2)] {
                let bytes = Array("[\"\(text)\", {\"k\": \"\(text)\"}, 1] ".utf8)
                #expect(Self.skipOutcome(bytes, .vector) == "ok at \(bytes.count - 1)", "\(length)")
                #expect(Self.skipOutcome(bytes, .word) == "ok at \(bytes.count - 1)", "\(length)")
            }
        }
    }
}
