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
    /// - Returns: `true` once the value is read; `false` where it turns
    ///   out to be one that only the source itself, reading in turn, reads
    ///   as it must — a record deferred from the source's own reading of
    ///   records (``IngredientSource/deferNextRecord(at:)``) in which that
    ///   reading meets what it leaves to the source's events. `index` then
    ///   holds nothing to use, and the reader reads this record, and every
    ///   record after it, again through the source's events from the start
    ///   of the input, as it does when
    ///   ``IngredientSource/readNextRecord(at:into:)`` says
    ///   ``IndexedRecordRead/unavailable``.
    /// - Throws: exactly what reading the value in place would have thrown
    ///   (``IngredientSource/readValue(startingWith:into:)`` and
    ///   ``IngredientSource/readValue(startingWith:into:keeping:)``), with
    ///   the same message and location. Such an error ends the source's
    ///   values there, as it would have in place: whatever the source read
    ///   after this value is not to be used.
    func read(into index: inout IngredientIndex, keeping matcher: PathMatcher?) throws(EasyBakeError) -> Bool
}
