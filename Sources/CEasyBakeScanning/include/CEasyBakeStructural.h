// The structural stage of the JSON reader: 64 bytes at a time into bitmaps.
//
// Bit i of each bitmap describes byte `start + i` of a block. The bitmaps
// say where strings are (unescaped quotes, string interiors, escaped bytes)
// and where, outside strings, the tokens begin: the structural characters
// `{ } [ ] : ,`, the opening quotes, and the first byte of every other run
// of non-whitespace (a number or a literal, or garbage the grammar rejects).
// A reader that knows these positions jumps from token to token instead of
// looking at every byte; the bytes inside strings are only looked at when
// the block says a string holds something that needs checking (a control
// character, a backslash, a byte above 0x7F).
//
// Per-byte classification is done by a kernel: SSE2 (the x86-64 baseline)
// or AVX2 (chosen at run time with cpuid) on x86-64, NEON on arm64, and a
// portable scalar kernel that is the reference. The string state that
// carries from block to block is computed the same way for all of them.
// Setting the environment variable EASYBAKE_SCALAR=1 makes the scalar
// kernel the default, so that a machine with vector units can run the code
// a machine without them runs.

#ifndef C_EASYBAKE_STRUCTURAL_H
#define C_EASYBAKE_STRUCTURAL_H

#include <stddef.h>
#include <stdint.h>

/// The kernels that classify bytes.
enum {
    EASYBAKE_KERNEL_SCALAR = 0,
    EASYBAKE_KERNEL_SSE2 = 1,
    EASYBAKE_KERNEL_AVX2 = 2,
    EASYBAKE_KERNEL_NEON = 3,
};

/// What carries from one block to the next.
typedef struct {
    /// All ones when the previous block ended inside a string.
    uint64_t in_string;
    /// 1 when the first byte of the next block is escaped by a backslash.
    uint64_t escape_carry;
    /// 1 when the previous block ended with a byte of a number or literal
    /// (a byte that continues the run, not a token start).
    uint64_t scalar_carry;
} easybake_structural_state;

/// The bitmaps of one 64-byte block. Bytes past the end of the input read
/// as spaces: they set no bit but `whitespace`.
typedef struct {
    /// Quotes that open or close a string (not escaped ones).
    uint64_t quotes;
    /// Each string's opening quote and interior (not its closing quote).
    uint64_t in_string;
    /// Bytes that follow an escaping backslash.
    uint64_t escaped;
    /// `{ } [ ] : ,` outside strings.
    uint64_t structural;
    /// Space, tab, line feed and carriage return outside strings.
    uint64_t whitespace;
    /// The first byte of each run of other bytes outside strings: where a
    /// number, a literal (or something malformed) begins.
    uint64_t scalar_starts;
    /// Where a token begins: `structural`, the opening quotes and
    /// `scalar_starts`.
    uint64_t tokens;
    /// Inside strings, the bytes that need a closer look: control
    /// characters, backslashes and bytes above 0x7F.
    uint64_t string_special;
} easybake_structural_block;

/// The kernel this machine runs best, or the scalar one when
/// `force_scalar` is non-zero or EASYBAKE_SCALAR is set (to anything but
/// "0") in the environment.
int easybake_structural_kernel(int force_scalar);

/// Computes the bitmaps of the block of 64 bytes at `start` (fewer when the
/// input ends first: the rest reads as spaces), with `kernel` (as given by
/// `easybake_structural_kernel`), updating `state` for the next block.
void easybake_structural_scan(const uint8_t *base, size_t start, size_t count, int kernel,
                              easybake_structural_state *state, easybake_structural_block *out);

#endif

#ifndef C_EASYBAKE_STRUCTURAL_SKIP_H
#define C_EASYBAKE_STRUCTURAL_SKIP_H

// Skipping a container over the bitmaps.
//
// The grammar of containers (brackets, commas, colons, keys where keys go)
// is checked here, token by token, and a string with nothing to check in
// it passes from quote to quote. Everything else is handed back to the
// caller, which checks it with the reader's own rules and calls again: a
// number or a literal, a string that holds escapes, control characters or
// non-ASCII bytes (or crosses a block), a string longer than the limit.
// Anything malformed in the grammar stops the skip, for the caller's
// reading path to word the error.

/// Where the grammar is, as the JSON scanner names it.
enum {
    EASYBAKE_SKIP_VALUE = 0,
    EASYBAKE_SKIP_FIRST_VALUE_OR_END = 1,
    EASYBAKE_SKIP_FIRST_KEY_OR_END = 2,
    EASYBAKE_SKIP_KEY = 3,
    EASYBAKE_SKIP_AFTER_VALUE = 4,
};

/// Why `easybake_skip_run` returned.
enum {
    /// The outermost container ended: `position` is just past it.
    EASYBAKE_SKIP_DONE = 0,
    /// A number or literal begins at `position`; check it, set `grammar`
    /// to AFTER_VALUE and call again.
    EASYBAKE_SKIP_NEEDS_SCALAR = 1,
    /// A string value begins at `position`; read it, set `grammar` to
    /// AFTER_VALUE and call again.
    EASYBAKE_SKIP_NEEDS_STRING = 2,
    /// A key begins at `position`; read it and its colon, set `grammar`
    /// to VALUE and call again.
    EASYBAKE_SKIP_NEEDS_KEY = 3,
    /// Something the grammar does not allow, or nesting beyond the budget,
    /// at `position`: the caller's reading path takes over.
    EASYBAKE_SKIP_DECLINED = 4,
};

/// A skip in progress.
typedef struct {
    const uint8_t *base;
    size_t count;
    int kernel;
    /// The reading position.
    size_t position;
    /// `EASYBAKE_SKIP_VALUE` and the others.
    int grammar;
    /// How many containers are open, and how many may be.
    int depth;
    int depth_budget;
    /// Bit d: the container at depth d is an object.
    uint64_t objects;
    /// The longest string handled here (longer ones go to the caller, who
    /// reports the limit).
    size_t maximum_string_bytes;
    size_t block_start;
    easybake_structural_state state;
    easybake_structural_block block;
} easybake_skip_context;

/// A skip from `position`, where the grammar is at `grammar` with `depth`
/// containers open (`objects` saying which are objects); its first block
/// is computed at once.
void easybake_skip_begin(easybake_skip_context *context, const uint8_t *base, size_t count, int kernel,
                         size_t position, int grammar, int depth, int depth_budget, uint64_t objects,
                         size_t maximum_string_bytes);

/// Goes on with the skip until the outermost container ends or the caller
/// is needed (`EASYBAKE_SKIP_…`).
int easybake_skip_run(easybake_skip_context *context);

#endif
