import CEasyBakeScanning
@_spi(EasyBakeFormats) import EasyBake

/// The memory the structural build works in (its container stack and the
/// checks each C call leaves), kept with an index built more than once
/// (`IngredientIndex.Storage.builderScratch`).
///
/// A stream indexes each record with a call of its own into the same
/// index, and `withUnsafeTemporaryAllocation` takes anything over 1 KiB
/// from the heap: the build's four buffers were four allocations and
/// frees a record, about 2,500 instructions of the 35,000 a streamed
/// selective read spent on one (callgrind, `select/json/EasyBake
/// streaming`). An index being built is its builder's alone, so its
/// scratch is too.
final class JSONStructuralScratch {
    /// The deepest build the container stack has room for.
    let depthCapacity: Int
    /// The build's open containers: each one's entry position, element
    /// count, and whether it is an object.
    let stack: UnsafeMutablePointer<UInt64>
    let elements: UnsafeMutablePointer<UInt32>
    let objects: UnsafeMutablePointer<UInt8>
    /// Each open container's picking state, when the build prunes.
    let picks: UnsafeMutablePointer<Int32>
    /// The values a call of the build leaves to the byte walk's checks.
    let checks: UnsafeMutablePointer<easybake_json_index_check>

    static let checkRoom = 1024

    init(depthCapacity: Int) {
        self.depthCapacity = depthCapacity
        stack = .allocate(capacity: depthCapacity)
        elements = .allocate(capacity: depthCapacity)
        objects = .allocate(capacity: depthCapacity)
        picks = .allocate(capacity: depthCapacity)
        checks = .allocate(capacity: Self.checkRoom)
    }

    deinit {
        stack.deallocate()
        elements.deallocate()
        objects.deallocate()
        picks.deallocate()
        checks.deallocate()
    }

    /// The scratch `builder` holds, when its container stack is at least
    /// `depth` deep; else a new one with room for `capacity` (at least
    /// `depth`), which `builder` keeps if it was built into before (a
    /// stream's index), and the caller holds for this build only otherwise.
    static func held(by builder: IngredientIndex.Storage, depth: Int, capacity: Int) -> JSONStructuralScratch {
        if let held = builder.builderScratch as? JSONStructuralScratch, held.depthCapacity >= depth { return held }
        let made = JSONStructuralScratch(depthCapacity: max(depth, capacity))
        if builder.hasBeenBuilt { builder.builderScratch = made }
        builder.hasBeenBuilt = true
        return made
    }
}
