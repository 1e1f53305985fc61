/// What streaming watches a record's bake for; a plain bake has none, so it
/// pays for none of it.
///
/// Streaming bakes one model per record and may read each record pruned to
/// the recipe's paths, so it needs to learn two things a bake knows:
/// whether the model asked the record's root for anything the recipe does
/// not map (which a pruned record would not hold), and which recipes the
/// model asked every key of (those need no tally in later records).
final class BakeObserver {
    /// Recipes an earlier bake of the same stream found the model to ask
    /// every key of: not tallied again.
    private var settledRecipes: Set<ObjectIdentifier>
    /// What the model asked of the record's root beyond the recipe (a
    /// property name, or `*` for all keys or the whole value); `nil` when
    /// not watched for.
    @exclusivity(unchecked) private(set) var rootRequests: Set<String>?
    /// The recipes this bake found the model to ask every key of, once it
    /// has baked.
    private(set) var recipesAskedInFull: [ObjectIdentifier] = []

    init(settledRecipes: Set<ObjectIdentifier>, tracksRootRequests: Bool) {
        self.settledRecipes = settledRecipes
        if tracksRootRequests { rootRequests = [] }
    }

    /// Readies the observer for the next record's bake, as a new one with
    /// these arguments would be: a stream's session keeps one
    /// (``BakeSession/recordObserver(settledRecipes:tracksRootRequests:)``)
    /// rather than allocate one a record.
    func reset(settledRecipes: Set<ObjectIdentifier>, tracksRootRequests: Bool) {
        self.settledRecipes = settledRecipes
        rootRequests = tracksRootRequests ? [] : nil
        recipesAskedInFull = []
    }

    /// Whether the decoders note what the model asks of the root.
    var tracksRootRequests: Bool { rootRequests != nil }

    /// Whether an earlier bake settled `recipe` (by its identity).
    @inline(__always)
    func hasSettled(_ recipe: ObjectIdentifier) -> Bool {
        !settledRecipes.isEmpty && settledRecipes.contains(recipe)
    }

    /// Notes that the model asked the record's root for `name` (`*`: all
    /// its keys, or the whole value) where the recipe maps nothing.
    func noteRootRequest(_ name: String) {
        rootRequests?.insert(name)
    }

    /// Notes the recipes the finished bake found the model to ask in full.
    func noteBaked(askingInFull recipes: [ObjectIdentifier]) {
        recipesAskedInFull = recipes
    }
}
