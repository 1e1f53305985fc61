// Byte scanning for the JSON and YAML readers, sixteen bytes at a time.
//
// The functions find the end of a run of plain bytes — a string's text, a
// stretch of whitespace — with the vector instructions every target machine
// has: SSE2 on x86-64 (part of its baseline) and NEON on arm64. Elsewhere
// they scan nothing and the caller's word-at-a-time loop does the work.
// They are `static inline`, so that Swift inlines them like its own code.
//
// Each looks at whole 16-byte blocks from `start` while they fit before
// `count`, and returns the offset of the first byte it is looking for, or
// the offset where it stopped (fewer than 16 bytes before `count`): the
// caller scans that rest itself. The one exception finds where a JSON
// container ends, 64 bytes at a time to its end
// (`easybake_json_container_end`).

#ifndef C_EASYBAKE_SCANNING_H
#define C_EASYBAKE_SCANNING_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__ARM_NEON)
#include <arm_neon.h>
#endif

/// Whether this build scans with vector instructions.
static inline int easybake_scans_vectors(void) {
#if defined(__SSE2__) || defined(__ARM_NEON)
    return 1;
#else
    return 0;
#endif
}

#if defined(__ARM_NEON)
/// A 64-bit mask with four bits per byte of a NEON comparison result.
static inline uint64_t easybake_neon_mask(uint8x16_t matches) {
    uint8x8_t narrowed = vshrn_n_u16(vreinterpretq_u16_u8(matches), 4);
    return vget_lane_u64(vreinterpret_u64_u8(narrowed), 0);
}
#endif

/// The first byte that ends a string's plain text: a quote, a backslash, a
/// control character (below 0x20) or a non-ASCII byte (0x80 and above).
static inline size_t easybake_string_special(const uint8_t *base, size_t start, size_t count) {
    size_t i = start;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i control = _mm_set1_epi8(0x1F);
    while (i + 16 <= count) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)(base + i));
        __m128i special = _mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash));
        // Unsigned "at most 0x1F": the minimum with 0x1F is the byte itself.
        special = _mm_or_si128(special, _mm_cmpeq_epi8(_mm_min_epu8(bytes, control), bytes));
        // Non-ASCII bytes have their top bit set, which is what movemask reads.
        unsigned mask = (unsigned)(_mm_movemask_epi8(special) | _mm_movemask_epi8(bytes));
        if (mask != 0) return i + (size_t)__builtin_ctz(mask);
        i += 16;
    }
#elif defined(__ARM_NEON)
    const uint8x16_t quote = vdupq_n_u8('"');
    const uint8x16_t backslash = vdupq_n_u8('\\');
    while (i + 16 <= count) {
        uint8x16_t bytes = vld1q_u8(base + i);
        uint8x16_t special = vorrq_u8(vceqq_u8(bytes, quote), vceqq_u8(bytes, backslash));
        special = vorrq_u8(special, vcltq_u8(bytes, vdupq_n_u8(0x20)));
        special = vorrq_u8(special, vcgeq_u8(bytes, vdupq_n_u8(0x80)));
        uint64_t mask = easybake_neon_mask(special);
        if (mask != 0) return i + (size_t)(__builtin_ctzll(mask) >> 2);
        i += 16;
    }
#endif
    return i;
}

/// The first byte that is not JSON whitespace (space, tab, line feed,
/// carriage return).
static inline size_t easybake_whitespace_end(const uint8_t *base, size_t start, size_t count) {
    size_t i = start;
#if defined(__SSE2__)
    const __m128i space = _mm_set1_epi8(' ');
    const __m128i tab = _mm_set1_epi8('\t');
    const __m128i newline = _mm_set1_epi8('\n');
    const __m128i carriage = _mm_set1_epi8('\r');
    while (i + 16 <= count) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)(base + i));
        __m128i blank = _mm_or_si128(_mm_cmpeq_epi8(bytes, space), _mm_cmpeq_epi8(bytes, tab));
        blank = _mm_or_si128(blank, _mm_or_si128(_mm_cmpeq_epi8(bytes, newline), _mm_cmpeq_epi8(bytes, carriage)));
        unsigned mask = (unsigned)_mm_movemask_epi8(blank) ^ 0xFFFFu;
        if (mask != 0) return i + (size_t)__builtin_ctz(mask);
        i += 16;
    }
#elif defined(__ARM_NEON)
    while (i + 16 <= count) {
        uint8x16_t bytes = vld1q_u8(base + i);
        uint8x16_t blank = vorrq_u8(vceqq_u8(bytes, vdupq_n_u8(' ')), vceqq_u8(bytes, vdupq_n_u8('\t')));
        blank = vorrq_u8(blank, vorrq_u8(vceqq_u8(bytes, vdupq_n_u8('\n')), vceqq_u8(bytes, vdupq_n_u8('\r'))));
        uint64_t mask = ~easybake_neon_mask(blank);
        if (mask != 0) return i + (size_t)(__builtin_ctzll(mask) >> 2);
        i += 16;
    }
#endif
    return i;
}

/// The first byte that is neither printable ASCII (0x20 to 0x7E) nor a line
/// feed: a control character, DEL or a non-ASCII byte, which the YAML
/// reader checks one by one.
static inline size_t easybake_printable_end(const uint8_t *base, size_t start, size_t count) {
    size_t i = start;
#if defined(__SSE2__)
    const __m128i control = _mm_set1_epi8(0x1F);
    const __m128i newline = _mm_set1_epi8('\n');
    const __m128i del = _mm_set1_epi8(0x7F);
    while (i + 16 <= count) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)(base + i));
        // Unsigned "at most 0x1F" (the minimum with 0x1F is the byte
        // itself), line feeds taken out.
        __m128i special = _mm_andnot_si128(_mm_cmpeq_epi8(bytes, newline),
                                           _mm_cmpeq_epi8(_mm_min_epu8(bytes, control), bytes));
        special = _mm_or_si128(special, _mm_cmpeq_epi8(bytes, del));
        // Non-ASCII bytes have their top bit set, which is what movemask reads.
        unsigned mask = (unsigned)(_mm_movemask_epi8(special) | _mm_movemask_epi8(bytes));
        if (mask != 0) return i + (size_t)__builtin_ctz(mask);
        i += 16;
    }
#elif defined(__ARM_NEON)
    while (i + 16 <= count) {
        uint8x16_t bytes = vld1q_u8(base + i);
        uint8x16_t special = vbicq_u8(vcltq_u8(bytes, vdupq_n_u8(0x20)), vceqq_u8(bytes, vdupq_n_u8('\n')));
        special = vorrq_u8(special, vcgeq_u8(bytes, vdupq_n_u8(0x7F)));
        uint64_t mask = easybake_neon_mask(special);
        if (mask != 0) return i + (size_t)(__builtin_ctzll(mask) >> 2);
        i += 16;
    }
#endif
    return i;
}

/// The quotes, backslashes, opening brackets (`{`, `[`) and closing
/// brackets (`}`, `]`) among the 64 bytes at `block`, one bit per byte,
/// lowest first. `[` and `{` differ only in the bit 0x20 (as do `]` and
/// `}`), so one comparison of the bytes with that bit set finds both.
static inline void easybake_json_block_masks(const uint8_t *block, int vectors, uint64_t *quotes,
                                             uint64_t *backslashes, uint64_t *opens, uint64_t *closes) {
    uint64_t q = 0, b = 0, o = 0, c = 0;
#if defined(__SSE2__)
    if (vectors) {
        const __m128i quote = _mm_set1_epi8('"');
        const __m128i backslash = _mm_set1_epi8('\\');
        const __m128i bit = _mm_set1_epi8(0x20);
        const __m128i open = _mm_set1_epi8('{');
        const __m128i close = _mm_set1_epi8('}');
        for (int k = 0; k < 4; k++) {
            __m128i bytes = _mm_loadu_si128((const __m128i *)(block + 16 * k));
            __m128i folded = _mm_or_si128(bytes, bit);
            q |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, quote)) << (16 * k);
            b |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, backslash)) << (16 * k);
            o |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(folded, open)) << (16 * k);
            c |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(folded, close)) << (16 * k);
        }
        *quotes = q; *backslashes = b; *opens = o; *closes = c;
        return;
    }
#endif
    (void)vectors;
    for (int k = 0; k < 64; k++) {
        uint8_t byte = block[k];
        uint64_t one = (uint64_t)1 << k;
        if (byte == '"') q |= one;
        else if (byte == '\\') b |= one;
        else if ((byte | 0x20) == '{') o |= one;
        else if ((byte | 0x20) == '}') c |= one;
    }
    *quotes = q; *backslashes = b; *opens = o; *closes = c;
}

/// Every bit from each set bit of `bits` up to (not including) the next
/// one: with the unescaped quotes as `bits`, the bytes inside strings,
/// opening quotes included.
static inline uint64_t easybake_prefix_xor(uint64_t bits) {
    bits ^= bits << 1;
    bits ^= bits << 2;
    bits ^= bits << 4;
    bits ^= bits << 8;
    bits ^= bits << 16;
    bits ^= bits << 32;
    return bits;
}

/// The bytes escaped by a backslash among 64 bytes whose backslashes are
/// `backslashes`: each backslash not itself escaped escapes the byte after
/// it, taken in order (backslashes are rare, so one at a time). `*carry` is
/// 1 when the previous block ended with an escaping backslash, and is set
/// for the next block.
static inline uint64_t easybake_json_escaped(uint64_t backslashes, uint64_t *carry) {
    uint64_t escaped = *carry;
    *carry = 0;
    uint64_t escaping = backslashes & ~escaped;
    while (escaping != 0) {
        uint64_t lowest = escaping & (0 - escaping);
        escaping ^= lowest;
        if (lowest == (uint64_t)1 << 63) {
            *carry = 1;
        } else {
            escaped |= lowest << 1;
            escaping &= ~(lowest << 1);
        }
    }
    return escaped;
}

/// Where the JSON array or object whose opening bracket is at `start` ends:
/// the offset just past its matching closing bracket, or 0 when it does not
/// end before `count`.
///
/// Only the structure is looked at, 64 bytes at a time: quotes not escaped
/// by a backslash delimit strings, and brackets outside strings are
/// counted. Nothing is checked, so for valid JSON the end is exact and for
/// invalid JSON it is a guess that whoever reads the value then disproves:
/// a streaming reader finds a record's end this way and leaves reading the
/// record to another thread. With `vectors` 0 the masks are built byte by
/// byte, as on machines without SSE2.
static inline size_t easybake_json_container_end(const uint8_t *base, size_t start, size_t count, int vectors) {
    uint64_t inString = 0;     // all ones when the previous block ended inside a string
    uint64_t escapeCarry = 0;  // 1 when the previous block ended with an escaping backslash
    size_t depth = 0;
    uint8_t tail[64];
    for (size_t i = start; i < count; i += 64) {
        const uint8_t *block = base + i;
        if (count - i < 64) {
            // Zeros are none of the bytes looked for.
            memset(tail, 0, sizeof tail);
            memcpy(tail, base + i, count - i);
            block = tail;
        }
        uint64_t quotes, backslashes, opens, closes;
        easybake_json_block_masks(block, vectors, &quotes, &backslashes, &opens, &closes);
        uint64_t escaped = easybake_json_escaped(backslashes, &escapeCarry);
        uint64_t inside = easybake_prefix_xor(quotes & ~escaped) ^ inString;
        inString = (uint64_t)((int64_t)inside >> 63);
        opens &= ~inside;
        closes &= ~inside;
        if ((opens | closes) == 0) continue;
        size_t closing = (size_t)__builtin_popcountll(closes);
        if (closing < depth) {
            // The container cannot end in this block.
            depth = depth + (size_t)__builtin_popcountll(opens) - closing;
            continue;
        }
        for (uint64_t brackets = opens | closes; brackets != 0; brackets &= brackets - 1) {
            uint64_t lowest = brackets & (0 - brackets);
            if (opens & lowest) {
                depth += 1;
            } else if (--depth == 0) {
                return i + (size_t)__builtin_ctzll(brackets) + 1;
            }
        }
    }
    return 0;
}

/// Where a JSON structural pass stands between two calls of
/// ``easybake_json_structurals``: zero it before the first.
typedef struct {
    /// All ones when the last block ended inside a string.
    uint64_t in_string;
    /// 1 when the last block ended with an escaping backslash.
    uint64_t escape_carry;
    /// 1 when the last byte was part of a run of scalar bytes (neither in a
    /// string, nor whitespace, nor a quote, nor one of `{}[]:,`).
    uint64_t scalar_carry;
    /// 1 when the string open at the end of the last block has a special
    /// byte (a control character, a backslash or a non-ASCII byte).
    uint64_t special_carry;
} easybake_json_structural_state;

/// The flag set on a closing quote's position when its string has a byte
/// that needs a closer look: a control character, a backslash (an escape)
/// or a non-ASCII byte (UTF-8 to validate).
#define EASYBAKE_JSON_STRING_SPECIAL 0x80000000u

/// The best structural pass this machine runs: 2 with AVX2 (x86-64, chosen
/// when the processor has it), 1 with SSE2 or NEON, 0 byte by byte. The
/// environment variable `EASYBAKE_SCALAR` set to anything but `0` (read
/// once) makes it 0, so that a whole program runs the scalar reference.
int easybake_json_structural_level(void);

/// The best structural pass the machine runs, whatever the environment says.
int easybake_json_machine_level(void);

/// The level chosen on a machine whose best is `machine` when
/// `EASYBAKE_SCALAR` holds `forced` (NULL when unset): 0 when it is set to
/// anything but `0` or nothing.
int easybake_json_choose_level(int machine, const char *forced);

/// JSON's structure among the bytes from `start`, up to `blocks` blocks of
/// 64 bytes (fewer when `count` comes first): the offsets from `start`,
/// in order, of every `{`, `}`, `[`, `]`, `:` and `,` outside strings, of
/// every quote that opens or closes a string, and of the first byte of
/// every run of other bytes outside strings (a number or a literal, or
/// stray bytes). Whitespace outside strings is all that is left out, so a
/// reader that checks each position and the scalars' grammar checks every
/// byte. A closing quote carries ``EASYBAKE_JSON_STRING_SPECIAL`` when its
/// string has a byte the reader must check; a string without it is
/// printable ASCII without escapes.
///
/// Strings are found as the JSON grammar finds them where it is valid:
/// quotes not escaped by a backslash open and close them. `out` has room
/// for `64 * blocks + 8` offsets (positions are written eight at a time);
/// returns how many were written. `level`
/// picks the pass (see ``easybake_json_structural_level``; a level the
/// machine lacks is lowered); every level writes the same offsets.
size_t easybake_json_structurals(const uint8_t *base, size_t start, size_t count, size_t blocks, int level,
                                 easybake_json_structural_state *state, uint32_t *out);

/// Where a skip over JSON's structure stands between two calls of
/// ``easybake_json_skip``: zero it, then set `next`, `grammar`, `depth`,
/// `budget`, `objects`, `max_string` and `plain_numbers`.
typedef struct {
    /// The structural pass's state at `next`.
    easybake_json_structural_state pass;
    /// Where the next block starts.
    size_t next;
    /// What the next token may be (``easybake_json_skip_grammar``).
    int grammar;
    /// Open containers in the skipped value (and the one it started in).
    int depth;
    /// The depth the skip may reach; deeper, it declines.
    int budget;
    /// Bit d: the container at depth d is an object.
    uint64_t objects;
    /// The most bytes a string may hold.
    size_t max_string;
    /// The opening quote of the last string begun.
    size_t open;
    /// Whether numbers of a plain shape are checked here (when a number may
    /// have 32 bytes); all others are the caller's. Literals always are.
    int plain_numbers;
} easybake_json_skip_state;

/// Where a skip starts, in the byte walk's terms.
enum {
    EASYBAKE_SKIP_EXPECT_VALUE = 0,
    EASYBAKE_SKIP_EXPECT_FIRST_VALUE_OR_END = 1,
    EASYBAKE_SKIP_EXPECT_FIRST_KEY_OR_END = 2,
    EASYBAKE_SKIP_EXPECT_KEY = 3,
    EASYBAKE_SKIP_EXPECT_AFTER_VALUE = 5,
};

/// The `grammar` of a skip that starts expecting `expect` at `depth`: 0
/// for a value that must be an array or object, 1 inside a container
/// (`in_object` says which), whose end ends the skip.
int easybake_json_skip_grammar(int expect, int depth, int in_object);

/// What ``easybake_json_skip`` found.
enum {
    /// Every block read was taken; the value goes on from `next`.
    EASYBAKE_SKIP_MORE = 0,
    /// The value ended (`*end` is just past it).
    EASYBAKE_SKIP_ENDED = 1,
    /// A token the grammar does not allow there, a string over the limit,
    /// or the depth budget reached: the caller reads it byte by byte.
    EASYBAKE_SKIP_DECLINED = 2,
    /// A marking skip wrote its `mark_limit`-th mark (`*end` is just past
    /// that comma).
    EASYBAKE_SKIP_MARKED = 3,
};

/// The flag of a check that is a string's opening quote (the next check is
/// its closing quote); other checks are the first byte of a number or
/// literal.
static const uint64_t EASYBAKE_SKIP_CHECK_STRING = (uint64_t)1 << 63;

/// Skips a JSON value over its structure, 64 bytes at a time from
/// `state->next`: each block is classed by the structural pass of `level`
/// (as ``easybake_json_structurals`` classes it), and JSON's grammar is
/// followed over its tokens straight from the bitmaps — brackets, colons,
/// commas and the opening quotes of strings must come where the grammar has
/// them, and strings must fit `max_string` (only those that cross a block
/// are measured when it is 64 or more). Whitespace and plain strings are
/// never read byte by byte.
///
/// Literals, and numbers of a plain shape (with `plain_numbers`: an
/// optional minus, an integer part, an optional fraction, no exponent, at
/// most 32 bytes), are checked here. What is left is left to the caller in
/// `checks`, in input order: each other scalar (its grammar, and that it
/// ends where a separator or whitespace begins), and each string with a
/// special byte that is neither plain text (``easybake_json_plain_string``)
/// nor text with valid escapes (control characters, an escape JSON does
/// not have, a lone surrogate escape, bytes that are not UTF-8). The caller checks
/// them before it trusts the result. Blocks are read while `checks` has
/// room for one more (66 entries); `*check_count` says how many were
/// written.
int easybake_json_skip(const uint8_t *base, size_t count, int level, easybake_json_skip_state *state,
                       uint64_t *checks, size_t room, size_t *check_count, size_t *end);

/// ``easybake_json_skip``, and the offset of each comma at depth
/// `mark_depth` of the skip (1: the container the skip started in, when it
/// started inside one), in input order: where the elements of an array
/// end. Blocks are read while `marks` has room for 64 more as well;
/// `*mark_count` says how many were written. With a `mark_limit` above 0,
/// the skip stops at the comma that makes that many marks
/// (``EASYBAKE_SKIP_MARKED``), with its checks written up to there: the
/// caller goes on from just past it, not from `state`.
int easybake_json_skip_marking(const uint8_t *base, size_t count, int level, easybake_json_skip_state *state,
                               uint64_t *checks, size_t room, size_t *check_count, size_t *end, size_t *marks,
                               size_t mark_room, size_t *mark_count, int mark_depth, size_t mark_limit);

/// Whether the string whose quotes are at `open` and `close` (`close` below
/// `count`) is plain text, as ``easybake_json_skip`` and
/// ``easybake_json_index`` decide before they leave a string with a special
/// byte to the caller: no control character, no backslash, and UTF-8 as
/// strict as the byte walk's (RFC 3629). `level` picks the way, as for the
/// pass; every level gives the same answer (for tests).
int easybake_json_plain_string(const uint8_t *base, size_t open, size_t close, size_t count, int level);

/// One entry of an `IngredientIndex` is a 64-bit word (its `Entry`): the
/// kind in the top byte; below it a string's or number's offset in the
/// input (36 bits) above its length (20 bits), a literal's offset, or the
/// position of a container's extra (28 bits) above its span (28 bits).
/// What does not fit is wide: `wide_flag` in the kind byte, and the
/// payload is the position of its extra.
///
/// An extra, as the Swift type lays it out (its `Extra`: a test holds the
/// two to one size and layout): the value's offset in the input; a
/// container's element count (`low`) and, when wide, its span (`high`); a
/// wide string's or number's length (`low`). A container's `high` is its
/// span whether it is wide or not (one store of both words).
typedef struct {
    uint64_t offset;
    uint32_t low;
    uint32_t high;
} easybake_index_extra;

/// The parts of an entry's payload (a test holds them to the Swift type's).
static const int EASYBAKE_INDEX_START_SHIFT = 20;
static const uint64_t EASYBAKE_INDEX_START_LIMIT = (uint64_t)1 << 36;
static const int EASYBAKE_INDEX_EXTRA_SHIFT = 28;

/// The kind bytes of an index's entries, as `IngredientIndex.Kind` has
/// them, and the flags of a wide entry and of a compact container: the
/// Swift caller fills them in, so the layout has one home.
typedef struct {
    uint8_t null_value, false_value, true_value, integer, float_value, string, array, dictionary, wide_flag,
        compact_flag;
} easybake_index_kinds;

/// A state of the automaton a build prunes by, as `PathMatcher.Picking`
/// lays its states out (a test holds the two to one layout): whether a
/// path ends there; the state a dictionary's members are picked in (-1:
/// the dictionary is kept whole); where its keys and its named elements
/// are in the tables; the state of an element no index names and of a
/// member no key names (-1: none).
typedef struct {
    uint8_t terminal;
    int32_t picking_state;
    int32_t keys_start, keys_count;
    int32_t elements_start, elements_count;
    int32_t other_elements, other_members;
} easybake_pick_state;

/// A key a picking state names: its bytes in the tables' `bytes`, and the
/// state its member's value is read in.
typedef struct {
    int32_t bytes_start, length, target;
} easybake_pick_key;

/// An element a picking state names by its index (from 0), and the state
/// it is read in.
typedef struct {
    int32_t index, target;
} easybake_pick_element;

/// The tables of a `PathMatcher.Picking`: a build given them keeps only
/// what the matcher's paths reach (``easybake_json_index_state``).
typedef struct {
    const easybake_pick_state *states;
    const easybake_pick_key *keys;
    const easybake_pick_element *elements;
    const uint8_t *bytes;
} easybake_picking;

/// Where a JSON index build stands between two calls of
/// ``easybake_json_index``: zero it, then set `next`, `budget`,
/// `max_string`, `max_nodes`, `kinds`, `stack`, `elements` and `objects`;
/// to prune, `picking`, `root_state` and `picks` too.
typedef struct {
    /// The structural pass's state at `next`.
    easybake_json_structural_state pass;
    /// Where the next block starts.
    size_t next;
    /// Where the build goes on (0 first: the value's first token).
    int resume;
    /// Open containers in the value.
    int depth;
    /// The depth the value may reach; deeper, the build declines.
    int budget;
    /// The most bytes a string may hold.
    size_t max_string;
    /// Whether numbers of a plain shape are read here (when a number may
    /// have 32 bytes); all others are the caller's.
    int plain_numbers;
    /// Values read so far (in the caller's count) and the most allowed.
    size_t nodes, max_nodes;
    /// The opening quote of the last string begun.
    size_t open;
    easybake_index_kinds kinds;
    /// For each open container (`budget` of them at most): its entry's
    /// position, its elements so far, and 1 for an object.
    uint64_t *stack;
    uint32_t *elements;
    uint8_t *objects;
    /// With `picking`, the build keeps only what its paths reach from
    /// `root_state`, as the byte walk prunes (`JSONScanner.indexValue`): a
    /// dictionary member no path needs writes no entry, its value is
    /// skipped over the structure (checked as strictly as any: its numbers
    /// and special strings go to the checks with
    /// ``EASYBAKE_INDEX_CHECK_UNWRITTEN``) and its dictionary does not
    /// count it; array elements all keep their places. `picks` holds each
    /// open container's state (`budget` of them at most). A key with an
    /// escape (or bytes that are not UTF-8) in a dictionary whose members
    /// are picked makes the build decline: only the byte walk decodes it.
    const easybake_picking *picking;
    int32_t *picks;
    int32_t root_state;
    /// The state of the member whose key was read last.
    int32_t member_state;
    /// A member's value being skipped: the grammar's row and the depth
    /// and kinds of the containers open in it.
    int32_t skip_depth;
    uint32_t skip_row;
    uint64_t skip_objects;
} easybake_json_index_state;

/// The flag of a check's `entry` when the value has none (a member no
/// path needs, skipped): the caller only checks it. For a string, the rest
/// of `entry` is its closing quote's offset.
static const uint64_t EASYBAKE_INDEX_CHECK_UNWRITTEN = (uint64_t)1 << 63;

/// The flag of a string's check (with ``EASYBAKE_SKIP_CHECK_STRING``) when
/// the build checked it and found escapes in valid text: the caller only
/// marks its entry as escaped.
static const uint64_t EASYBAKE_INDEX_CHECK_ESCAPED = (uint64_t)1 << 62;

/// A check of ``easybake_json_index``: the offset of a number's first byte,
/// or with ``EASYBAKE_SKIP_CHECK_STRING`` the opening quote of a string
/// with a special byte (and ``EASYBAKE_INDEX_CHECK_ESCAPED`` when it is
/// checked text with escapes); and the position of its entry.
typedef struct {
    uint64_t at;
    uint64_t entry;
} easybake_json_index_check;

/// Builds the index of the JSON array or object at `state->next` over its
/// structure, 64 bytes at a time, as ``easybake_json_skip`` skips one: the
/// grammar, the depth budget, the node limit and the length of strings are
/// followed in C, and each value's entry is written to `entries` from
/// `*entry_count` (which it advances) while `entry_room` has room for a
/// block's worth; each container's extra (and each wide value's) likewise
/// to `extras` from `*extra_count`, within `extra_room`. Literals and numbers of a plain shape (no exponent, at
/// most 32 bytes) are checked here, and so are strings whose special bytes
/// are UTF-8 text or text with valid escapes (flagged
/// ``EASYBAKE_INDEX_CHECK_ESCAPED``, for the caller to mark its entry); a
/// string with a control character, an escape JSON does not have, a lone
/// surrogate escape or bytes that are not UTF-8, and any
/// other number, are left to the caller in `checks` (room for `check_room`,
/// `*check_count` written), in input order, with a placeholder entry the
/// caller completes: the number's length and kind, the string's decoded
/// bytes.
///
/// Returns ``EASYBAKE_SKIP_MORE`` (every block read was taken, and the
/// entries or checks have no room for another), ``EASYBAKE_SKIP_ENDED``
/// (the value ended just before `*end`) or ``EASYBAKE_SKIP_DECLINED`` (the
/// caller builds the value again byte by byte, which says what is wrong).
int easybake_json_index(const uint8_t *base, size_t count, int level, easybake_json_index_state *state,
                        uint64_t *entries, size_t entry_room, size_t *entry_count, easybake_index_extra *extras,
                        size_t extra_room, size_t *extra_count, easybake_json_index_check *checks,
                        size_t check_room, size_t *check_count, size_t *end);

#endif
