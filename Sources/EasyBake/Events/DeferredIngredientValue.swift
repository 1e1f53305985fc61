/// A value that a source found the end of and moved past without reading
/// it: reading it into an index is left to whoever holds it, later and on
/// any thread.
///
/// How several jobs share one stream
/// (``Baker/bakeEach(_:from:each:recipe:materialization:jobs:_:)``): the
/// job whose turn it is to read only finds where each record ends
/// (``IngredientSource/deferValue(startingWith:keeping:)``), and each job
/// reads its own records, so that reading no longer waits its turn.
public protocol DeferredIngredientValue: Sendable {
    /// Reads the value into `index` (replacing what it held), keeping what
    /// `matcher` keeps, or the whole value when it is `nil`.
    ///
    /// - Throws: exactly what reading the value in place would have thrown
    ///   (``IngredientSource/readValue(startingWith:into:)`` and
    ///   ``IngredientSource/readValue(startingWith:into:keeping:)``), with
    ///   the same message and location. Such an error ends the source's
    ///   values there, as it would have in place: whatever the source read
    ///   after this value is not to be used.
    func read(into index: inout IngredientIndex, keeping matcher: PathMatcher?) throws(EasyBakeError)
}
