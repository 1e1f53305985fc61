/// Bounds on what one payload may cost, shared by every source and by
/// streaming. Passing a limit throws ``EasyBakeError/Code/limitExceeded``
/// naming the limit, its value and the position.
///
/// The defaults are safe for untrusted input and generous for real payloads;
/// raise them for trusted input:
/// ```swift
/// var limits = IngredientLimits.default
/// limits.maximumDepth = 10_000
/// ```
public struct IngredientLimits: Sendable, Hashable {
    /// The deepest nesting of containers. Default 512.
    public var maximumDepth: Int
    /// The largest input in bytes. Default: no limit (streaming reads any size).
    public var maximumInputBytes: Int
    /// The longest single string (or XML text node, attribute) in bytes. Default 64 MiB.
    public var maximumStringBytes: Int
    /// The longest number literal in characters. Default 1,000,000.
    public var maximumNumberLength: Int
    /// The most nodes that entity or alias expansion may produce for one
    /// payload (billion-laughs and alias bombs stop here). Default 1,000,000.
    public var maximumExpansion: Int
    /// The most values (scalars and containers) one tree may hold — a tree
    /// built whole, or one streamed record. Default 100,000,000, a few
    /// gigabytes of tree; lower it for untrusted input whose size you do
    /// not bound otherwise.
    public var maximumNodes: Int

    /// Limits with the given values; each defaults to the value its property
    /// documents.
    public init(
        maximumDepth: Int = 512,
        maximumInputBytes: Int = .max,
        maximumStringBytes: Int = 64 << 20,
        maximumNumberLength: Int = 1_000_000,
        maximumExpansion: Int = 1_000_000,
        maximumNodes: Int = 100_000_000
    ) {
        self.maximumDepth = maximumDepth
        self.maximumInputBytes = maximumInputBytes
        self.maximumStringBytes = maximumStringBytes
        self.maximumNumberLength = maximumNumberLength
        self.maximumExpansion = maximumExpansion
        self.maximumNodes = maximumNodes
    }

    /// The defaults.
    public static let `default` = IngredientLimits()
}

extension IngredientLimits {
    /// One of the limits, by the name of its property: what a limit error
    /// says was exceeded (`EasyBakeError.limit(.maximumDepth, value, at: location)`).
    public enum Limit: String, Sendable, Hashable, CaseIterable {
        case maximumDepth, maximumInputBytes, maximumStringBytes, maximumNumberLength, maximumExpansion, maximumNodes

        /// This limit's value in `limits`.
        public func value(in limits: IngredientLimits) -> Int {
            switch self {
            case .maximumDepth: limits.maximumDepth
            case .maximumInputBytes: limits.maximumInputBytes
            case .maximumStringBytes: limits.maximumStringBytes
            case .maximumNumberLength: limits.maximumNumberLength
            case .maximumExpansion: limits.maximumExpansion
            case .maximumNodes: limits.maximumNodes
            }
        }
    }
}

extension EasyBakeError {
    /// A limit error: names the limit, its value and the position.
    public static func limit(_ limit: IngredientLimits.Limit, _ value: Int, at location: SourceLocation?)
        -> EasyBakeError
    {
        EasyBakeError(.limitExceeded, "\(limit.rawValue) limit of \(value) exceeded", location: location)
    }
}
