import ArgumentParser
import EasyBake
import EasyBakeJSON
import EasyBakeYAML
import Foundation

/// A worker's share of a splittable input: `--byte-range START-END`, or
/// `--split I/N`, the I-th of N equal byte ranges of a file. JSON Lines,
/// top-level JSON arrays and YAML streams split; the ranges of a partition
/// read every record (every document of a stream) once
/// (`JSONLinesIngredientSource.init(_:byteRange:options:)`,
/// `YAMLIngredientSource.init(_:byteRange:options:)`).
enum InputSplit: Equatable {
    case byteRange(Range<Int>)
    case share(Int, of: Int)

    /// The byte range of an input of `size` bytes.
    func byteRange(size: Int) -> Range<Int> {
        switch self {
        case .byteRange(let range): range
        case .share(let index, let count): (size * index / count)..<(size * (index + 1) / count)
        }
    }

    /// `format` reading only this share of `input`.
    ///
    /// - Throws: ``EasyBakeError/Code/unsupported`` for a format that does
    ///   not split, or a share of standard input, whose size is unknown.
    func applied(to format: any IngredientFormat, input: IngredientInput) throws(EasyBakeError) -> any IngredientFormat
    {
        let range: Range<Int>
        switch self {
        case .byteRange(let given):
            range = given
        case .share:
            guard let path = input.filePath,
                let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
            else {
                throw EasyBakeError(
                    .unsupported, "--split divides a file by its size; for standard input give --byte-range START-END")
            }
            range = byteRange(size: size)
        }
        if var jsonLines = format as? JSONLinesFormat {
            jsonLines.byteRange = range
            return jsonLines
        }
        if var json = format as? JSONFormat {
            json.byteRange = range
            return json
        }
        if var yaml = format as? YAMLFormat {
            yaml.byteRange = range
            return yaml
        }
        throw EasyBakeError(
            .unsupported,
            "--byte-range and --split read a share of JSON Lines, of a top-level JSON array or of a YAML stream; the input is \(format.name)"
        )
    }
}

/// `START-END`: byte offsets, the end excluded.
struct ByteRangeArgument: ExpressibleByArgument {
    let range: Range<Int>

    init?(argument: String) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Int(parts[0]), let end = Int(parts[1]), start >= 0, end >= start else {
            return nil
        }
        range = start..<end
    }

    static var defaultValueDescription: String { "START-END" }
}

/// `I/N`: share I (from 0) of N.
struct ShareArgument: ExpressibleByArgument {
    let index: Int
    let count: Int

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count > 0,
            (0..<count).contains(index)
        else {
            return nil
        }
        self.index = index
        self.count = count
    }
}
