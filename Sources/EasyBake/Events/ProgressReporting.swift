/// A source that can tell how much of its input it has read, for progress
/// reports on long inputs.
public protocol ProgressReporting {
    /// The input bytes consumed so far.
    var bytesRead: Int { get }
}

extension AnyIngredientSource {
    /// The input bytes the wrapped source has consumed, when it reports them.
    public var bytesRead: Int? { (base as? any ProgressReporting)?.bytesRead }
}
