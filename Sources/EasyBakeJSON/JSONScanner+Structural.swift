import CEasyBakeScanning

/// Token positions from the structural stage (`CEasyBakeStructural.h`):
/// how a skip jumps from token to token instead of reading every byte.
///
/// The stage turns 64 bytes at a time into bitmaps; the cursor keeps the
/// current block's and hands out the next token at or after an offset.
/// Blocks are computed in order from where the cursor starts, which must be
/// outside any string (a value's first byte), because whether a quote opens
/// or closes a string carries from block to block.
package struct JSONStructuralCursor {
    private let base: UnsafePointer<UInt8>
    private let count: Int
    private let kernel: Int32
    private var state = easybake_structural_state()
    private var block = easybake_structural_block()
    /// The offset of the current block's first byte.
    private(set) var blockStart: Int

    /// A cursor whose first block begins at `start`, classifying bytes
    /// with the kernel `scanning` stands for: the machine's best for
    /// ``JSONByteScanning/vector`` (unless EASYBAKE_SCALAR is set), the
    /// portable scalar kernel for ``JSONByteScanning/word``.
    init(base: UnsafePointer<UInt8>, count: Int, from start: Int, scanning: JSONByteScanning) {
        self.init(base: base, count: count, from: start, kernel: easybake_structural_kernel(scanning == .word ? 1 : 0))
    }

    /// The kernels this machine can run (`EASYBAKE_KERNEL_…`): the scalar
    /// one and every vector one, so that tests compare them all.
    package static var availableKernels: [Int32] {
        let best = easybake_structural_kernel(0)
        var kernels = [Int32(EASYBAKE_KERNEL_SCALAR)]
        #if arch(x86_64)
        kernels.append(Int32(EASYBAKE_KERNEL_SSE2))
        #endif
        if !kernels.contains(best) { kernels.append(best) }
        return kernels
    }

    /// A cursor with a given kernel (`EASYBAKE_KERNEL_…`), for tests that
    /// compare the kernels.
    package init(base: UnsafePointer<UInt8>, count: Int, from start: Int, kernel: Int32) {
        self.base = base
        self.count = count
        self.kernel = kernel
        blockStart = start
        easybake_structural_scan(base, start, count, kernel, &state, &block)
    }

    /// The current block's bitmaps.
    package var bitmaps: easybake_structural_block { block }

    /// Moves on to the next block.
    package mutating func advance() {
        blockStart &+= 64
        easybake_structural_scan(base, blockStart, count, kernel, &state, &block)
    }

    /// The first token at or after `offset` (which is at or after the
    /// current block's start), or `count` when there is none.
    @inline(__always)
    mutating func token(from offset: Int) -> Int {
        while true {
            // Negative once the search has moved on to a later block.
            let relative = offset &- blockStart
            if relative < 64 {
                let tokens = relative <= 0 ? block.tokens : block.tokens & (~0 << UInt64(relative))
                if tokens != 0 { return blockStart &+ tokens.trailingZeroBitCount }
            }
            if blockStart &+ 64 >= count { return count }
            advance()
        }
    }

    /// For the opening quote at `open` (at or after the current block's
    /// start): the offset of its closing quote when the string lies within
    /// one block and holds nothing that needs checking (no control
    /// character, backslash or non-ASCII byte) — such a string is valid as
    /// it is.
    @inline(__always)
    mutating func plainStringEnd(openingAt open: Int) -> Int? {
        while open &- blockStart >= 64, blockStart &+ 64 < count { advance() }
        let relative = open &- blockStart
        guard relative >= 0, relative < 63 else { return nil }
        let after = block.quotes & (~1 << UInt64(relative))
        guard after != 0 else { return nil }
        let close = after.trailingZeroBitCount
        // The bits strictly between the quotes.
        let between = (UInt64(1) << UInt64(close)) &- (UInt64(2) << UInt64(relative))
        guard block.string_special & between == 0 else { return nil }
        return blockStart &+ close
    }
}

extension JSONScanner {
    /// Whether the byte at `offset` may follow a number or a literal: the
    /// end, whitespace, or the first byte of a token. Anything else would
    /// continue the scalar, which the cursor does not see as a token.
    @inline(__always)
    func endsScalar(at offset: Int) -> Bool {
        guard offset < count else { return true }
        switch base[offset] {
        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "\""),
             UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"):
            return true
        default:
            return false
        }
    }
}
