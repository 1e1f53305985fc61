// Most scanning functions are static inline in the header. This file holds
// the JSON structural pass, which is called once per run of blocks rather
// than once per token, so a call costs nothing worth inlining, and which
// picks its vector instructions when it runs (AVX2 needs a per-function
// target attribute, which an inline header function would spread to its
// callers).
#include "CEasyBakeScanning.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define EASYBAKE_HAS_AVX2_PASS 1
#endif

/// What a 64-byte block holds, one bit per byte, lowest first.
typedef struct {
    uint64_t quotes;
    uint64_t backslashes;
    /// `{`, `}`, `[`, `]`, `:` and `,`.
    uint64_t operators;
    /// Space, tab, line feed, carriage return.
    uint64_t whitespace;
    /// Control characters (below 0x20), backslashes and non-ASCII bytes:
    /// what a string's reader must look at.
    uint64_t specials;
} easybake_block_classes;

/// The reference: the classes byte by byte.
static void easybake_classify_scalar(const uint8_t *block, easybake_block_classes *c) {
    uint64_t q = 0, b = 0, o = 0, w = 0, s = 0;
    for (int k = 0; k < 64; k++) {
        uint8_t byte = block[k];
        uint64_t one = (uint64_t)1 << k;
        switch (byte) {
        case '"': q |= one; break;
        case '\\': b |= one; s |= one; break;
        case '{': case '}': case '[': case ']': case ':': case ',': o |= one; break;
        case ' ': case '\t': case '\n': case '\r': w |= one; break;
        default: break;
        }
        if (byte < 0x20 || byte >= 0x80) s |= one;
    }
    c->quotes = q; c->backslashes = b; c->operators = o; c->whitespace = w; c->specials = s;
}

#if defined(__SSE2__)
static void easybake_classify_sse2(const uint8_t *block, easybake_block_classes *c) {
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    // `[` and `{` differ only in the bit 0x20, as do `]` and `}`.
    const __m128i fold = _mm_set1_epi8(0x20);
    const __m128i open = _mm_set1_epi8('{');
    const __m128i close = _mm_set1_epi8('}');
    const __m128i colon = _mm_set1_epi8(':');
    const __m128i comma = _mm_set1_epi8(',');
    const __m128i space = _mm_set1_epi8(' ');
    const __m128i tab = _mm_set1_epi8('\t');
    const __m128i newline = _mm_set1_epi8('\n');
    const __m128i carriage = _mm_set1_epi8('\r');
    const __m128i control = _mm_set1_epi8(0x1F);
    uint64_t q = 0, b = 0, o = 0, w = 0, s = 0;
    for (int k = 0; k < 4; k++) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)(block + 16 * k));
        __m128i folded = _mm_or_si128(bytes, fold);
        __m128i isBackslash = _mm_cmpeq_epi8(bytes, backslash);
        __m128i ops = _mm_or_si128(_mm_cmpeq_epi8(folded, open), _mm_cmpeq_epi8(folded, close));
        ops = _mm_or_si128(ops, _mm_or_si128(_mm_cmpeq_epi8(bytes, colon), _mm_cmpeq_epi8(bytes, comma)));
        __m128i blank = _mm_or_si128(_mm_cmpeq_epi8(bytes, space), _mm_cmpeq_epi8(bytes, tab));
        blank = _mm_or_si128(blank, _mm_or_si128(_mm_cmpeq_epi8(bytes, newline), _mm_cmpeq_epi8(bytes, carriage)));
        // Unsigned "at most 0x1F": the minimum with 0x1F is the byte itself.
        __m128i special = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(bytes, control), bytes), isBackslash);
        int shift = 16 * k;
        q |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, quote)) << shift;
        b |= (uint64_t)(uint16_t)_mm_movemask_epi8(isBackslash) << shift;
        o |= (uint64_t)(uint16_t)_mm_movemask_epi8(ops) << shift;
        w |= (uint64_t)(uint16_t)_mm_movemask_epi8(blank) << shift;
        // Non-ASCII bytes have their top bit set, which is what movemask reads.
        s |= (uint64_t)(uint16_t)(_mm_movemask_epi8(special) | _mm_movemask_epi8(bytes)) << shift;
    }
    c->quotes = q; c->backslashes = b; c->operators = o; c->whitespace = w; c->specials = s;
}
#endif

#if defined(EASYBAKE_HAS_AVX2_PASS)
/// The classes of the AVX2 pass, one bit each in a byte looked up by the
/// byte's two nibbles (`vpshufb`): a byte is in a class when the entries of
/// both its nibbles have the bit. Operators take three bits (`,` is 0x2C,
/// `:` 0x3A, the brackets 0x5B, 0x5D, 0x7B, 0x7D: no one pair of nibble
/// sets covers them without taking in other bytes), whitespace two (space
/// 0x20; tab, line feed and carriage return 0x09, 0x0A, 0x0D), and control
/// characters the top bit, which `movemask` reads as it is.
enum {
    EASYBAKE_CLASS_COMMA = 0x01,
    EASYBAKE_CLASS_COLON = 0x02,
    EASYBAKE_CLASS_BRACKET = 0x04,
    EASYBAKE_CLASS_SPACE = 0x08,
    EASYBAKE_CLASS_BLANK = 0x10,
    EASYBAKE_CLASS_CONTROL = 0x80,
};

/// The entry of each low nibble: every class a byte with it may be in.
static const int8_t easybake_low_nibble_classes[16] = {
    (int8_t)(EASYBAKE_CLASS_SPACE | EASYBAKE_CLASS_CONTROL),                            // 0: space, NUL
    (int8_t)EASYBAKE_CLASS_CONTROL, (int8_t)EASYBAKE_CLASS_CONTROL, (int8_t)EASYBAKE_CLASS_CONTROL,
    (int8_t)EASYBAKE_CLASS_CONTROL, (int8_t)EASYBAKE_CLASS_CONTROL, (int8_t)EASYBAKE_CLASS_CONTROL,
    (int8_t)EASYBAKE_CLASS_CONTROL, (int8_t)EASYBAKE_CLASS_CONTROL,
    (int8_t)(EASYBAKE_CLASS_BLANK | EASYBAKE_CLASS_CONTROL),                            // 9: tab
    (int8_t)(EASYBAKE_CLASS_COLON | EASYBAKE_CLASS_BLANK | EASYBAKE_CLASS_CONTROL),     // A: `:`, line feed
    (int8_t)(EASYBAKE_CLASS_BRACKET | EASYBAKE_CLASS_CONTROL),                          // B: `[`, `{`
    (int8_t)(EASYBAKE_CLASS_COMMA | EASYBAKE_CLASS_CONTROL),                            // C: `,`
    (int8_t)(EASYBAKE_CLASS_BRACKET | EASYBAKE_CLASS_BLANK | EASYBAKE_CLASS_CONTROL),   // D: `]`, `}`, CR
    (int8_t)EASYBAKE_CLASS_CONTROL, (int8_t)EASYBAKE_CLASS_CONTROL,
};

/// The entry of each high nibble (non-ASCII bytes, 8 to F, are in none).
static const int8_t easybake_high_nibble_classes[16] = {
    (int8_t)(EASYBAKE_CLASS_BLANK | EASYBAKE_CLASS_CONTROL),  // 0x00-0x0F
    (int8_t)EASYBAKE_CLASS_CONTROL,                           // 0x10-0x1F
    EASYBAKE_CLASS_COMMA | EASYBAKE_CLASS_SPACE,              // 0x20-0x2F
    EASYBAKE_CLASS_COLON,                                     // 0x30-0x3F
    0, EASYBAKE_CLASS_BRACKET, 0, EASYBAKE_CLASS_BRACKET,     // 0x40-0x7F
    0, 0, 0, 0, 0, 0, 0, 0,
};

/// A byte per class test: all ones where `classes` has none of `bits`,
/// which `movemask` turns into the bytes outside the class.
__attribute__((target("avx2"))) static inline uint64_t easybake_avx2_outside(__m256i classes, int bits) {
    __m256i none = _mm256_cmpeq_epi8(_mm256_and_si256(classes, _mm256_set1_epi8((char)bits)), _mm256_setzero_si256());
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(none);
}

/// The classes by nibble lookup, 32 bytes at a time: two shuffles and an
/// `and` class every byte at once, instead of a comparison per character.
__attribute__((target("avx2"))) static void easybake_classify_avx2(const uint8_t *block,
                                                                   easybake_block_classes *c) {
    const __m128i low128 = _mm_loadu_si128((const __m128i *)easybake_low_nibble_classes);
    const __m128i high128 = _mm_loadu_si128((const __m128i *)easybake_high_nibble_classes);
    // `vpshufb` looks up within each 128-bit half: both halves hold the table.
    const __m256i lowTable = _mm256_broadcastsi128_si256(low128);
    const __m256i highTable = _mm256_broadcastsi128_si256(high128);
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    const __m256i quote = _mm256_set1_epi8('"');
    const __m256i backslash = _mm256_set1_epi8('\\');
    uint64_t q = 0, b = 0, o = 0, w = 0, s = 0;
    for (int k = 0; k < 2; k++) {
        __m256i bytes = _mm256_loadu_si256((const __m256i *)(block + 32 * k));
        // A byte with its top bit set looks up 0 by its low nibble (that is
        // how `vpshufb` treats such an index), so it is in no class.
        __m256i classes = _mm256_and_si256(
            _mm256_shuffle_epi8(lowTable, bytes),
            _mm256_shuffle_epi8(highTable, _mm256_and_si256(_mm256_srli_epi16(bytes, 4), nibble)));
        uint64_t backslashes = (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(bytes, backslash));
        int shift = 32 * k;
        q |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(bytes, quote)) << shift;
        b |= backslashes << shift;
        o |= (uint64_t)(uint32_t)~easybake_avx2_outside(
                 classes, EASYBAKE_CLASS_COMMA | EASYBAKE_CLASS_COLON | EASYBAKE_CLASS_BRACKET) << shift;
        w |= (uint64_t)(uint32_t)~easybake_avx2_outside(classes, EASYBAKE_CLASS_SPACE | EASYBAKE_CLASS_BLANK)
             << shift;
        // Control characters by the class's top bit, non-ASCII bytes by theirs.
        uint64_t special = (uint64_t)(uint32_t)(_mm256_movemask_epi8(classes) | _mm256_movemask_epi8(bytes));
        s |= (special | backslashes) << shift;
    }
    c->quotes = q; c->backslashes = b; c->operators = o; c->whitespace = w; c->specials = s;
}
#endif

#if defined(__ARM_NEON) && defined(__aarch64__)
/// One bit per byte of four comparison results (all ones or all zeros per
/// byte): each byte keeps its own bit of a byte-wide weight, and three
/// rounds of pairwise sums gather the bits of eight neighbours into a byte.
static inline uint64_t easybake_neon_bits64(uint8x16_t a, uint8x16_t b, uint8x16_t c, uint8x16_t d) {
    const uint8x16_t weights = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    uint8x16_t ab = vpaddq_u8(vandq_u8(a, weights), vandq_u8(b, weights));
    uint8x16_t cd = vpaddq_u8(vandq_u8(c, weights), vandq_u8(d, weights));
    uint8x16_t all = vpaddq_u8(ab, cd);
    all = vpaddq_u8(all, all);
    return vgetq_lane_u64(vreinterpretq_u64_u8(all), 0);
}

static void easybake_classify_neon(const uint8_t *block, easybake_block_classes *c) {
    uint8x16_t q[4], b[4], o[4], w[4], s[4];
    for (int k = 0; k < 4; k++) {
        uint8x16_t bytes = vld1q_u8(block + 16 * k);
        uint8x16_t folded = vorrq_u8(bytes, vdupq_n_u8(0x20));
        q[k] = vceqq_u8(bytes, vdupq_n_u8('"'));
        b[k] = vceqq_u8(bytes, vdupq_n_u8('\\'));
        uint8x16_t ops = vorrq_u8(vceqq_u8(folded, vdupq_n_u8('{')), vceqq_u8(folded, vdupq_n_u8('}')));
        o[k] = vorrq_u8(ops, vorrq_u8(vceqq_u8(bytes, vdupq_n_u8(':')), vceqq_u8(bytes, vdupq_n_u8(','))));
        uint8x16_t blank = vorrq_u8(vceqq_u8(bytes, vdupq_n_u8(' ')), vceqq_u8(bytes, vdupq_n_u8('\t')));
        w[k] = vorrq_u8(blank, vorrq_u8(vceqq_u8(bytes, vdupq_n_u8('\n')), vceqq_u8(bytes, vdupq_n_u8('\r'))));
        uint8x16_t special = vorrq_u8(vcltq_u8(bytes, vdupq_n_u8(0x20)), vcgeq_u8(bytes, vdupq_n_u8(0x80)));
        s[k] = vorrq_u8(special, b[k]);
    }
    c->quotes = easybake_neon_bits64(q[0], q[1], q[2], q[3]);
    c->backslashes = easybake_neon_bits64(b[0], b[1], b[2], b[3]);
    c->operators = easybake_neon_bits64(o[0], o[1], o[2], o[3]);
    c->whitespace = easybake_neon_bits64(w[0], w[1], w[2], w[3]);
    c->specials = easybake_neon_bits64(s[0], s[1], s[2], s[3]);
}
#endif

/// The best level the machine runs, and the level chosen for the process
/// (the first unless `EASYBAKE_SCALAR` forces 0); -1 before the first call.
static int easybake_machine_level = -1;
static int easybake_chosen_level = -1;

int easybake_json_machine_level(void) {
    int level = __atomic_load_n(&easybake_machine_level, __ATOMIC_RELAXED);
    if (level >= 0) return level;
    level = 0;
#if defined(__SSE2__) || (defined(__ARM_NEON) && defined(__aarch64__))
    level = 1;
#endif
#if defined(EASYBAKE_HAS_AVX2_PASS)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) level = 2;
#endif
    __atomic_store_n(&easybake_machine_level, level, __ATOMIC_RELAXED);
    return level;
}

int easybake_json_choose_level(int machine, const char *forced) {
    if (forced != NULL && forced[0] != 0 && !(forced[0] == '0' && forced[1] == 0)) return 0;
    return machine;
}

int easybake_json_structural_level(void) {
    int level = __atomic_load_n(&easybake_chosen_level, __ATOMIC_RELAXED);
    if (level >= 0) return level;
    level = easybake_json_choose_level(easybake_json_machine_level(), getenv("EASYBAKE_SCALAR"));
    __atomic_store_n(&easybake_chosen_level, level, __ATOMIC_RELAXED);
    return level;
}

/// Bits `k` and above (none for 64).
static inline uint64_t easybake_bits_from(int k) { return k >= 64 ? 0 : ~(uint64_t)0 << k; }

/// Bits below `k`.
static inline uint64_t easybake_bits_below(int k) { return k <= 0 ? 0 : ~(uint64_t)0 >> (64 - k); }

/// A level the machine runs: a level it lacks runs as the best it has.
static inline int easybake_runnable_level(int level) {
    if (level > 0) {
        int best = easybake_json_machine_level();
        if (level > best) level = best;
    }
    return level;
}

/// A pass's way of classing 64 bytes.
typedef void (*easybake_classifier)(const uint8_t *block, easybake_block_classes *c);

/// The classifier of the pass at `level`, chosen once per call of a pass
/// rather than once per block.
static inline easybake_classifier easybake_classifier_for(int level) {
    if (level == 0) return easybake_classify_scalar;
#if defined(EASYBAKE_HAS_AVX2_PASS)
    return level == 2 ? easybake_classify_avx2 : easybake_classify_sse2;
#elif defined(__SSE2__)
    return easybake_classify_sse2;
#elif defined(__ARM_NEON) && defined(__aarch64__)
    return easybake_classify_neon;
#else
    return easybake_classify_scalar;
#endif
}

/// What a block's structure is, one bit per byte, from its classes and the
/// state the block before left.
typedef struct {
    /// Operators outside strings, quotes that open or close strings, and
    /// the first byte of each run of scalar bytes.
    uint64_t tokens;
    /// The quotes that close strings.
    uint64_t closing;
    /// The closing quotes of strings with a special byte.
    uint64_t flagged;
    /// All ones when the block starts inside a string.
    uint64_t carried;
    /// The bytes of scalar runs (numbers, literals): neither in a string,
    /// nor whitespace, nor a quote, nor an operator.
    uint64_t scalars;
} easybake_block_structure;

/// The one place strings, escapes, scalar runs and special strings are
/// found from a block's classes; `valid` masks the bytes past the input's
/// end in its last block. Updates `state` for the next block.
__attribute__((always_inline)) static inline easybake_block_structure easybake_structure(const easybake_block_classes *c, uint64_t valid,
                                                          easybake_json_structural_state *state) {
    easybake_block_structure out;
    out.carried = state->in_string;
    uint64_t escaped = easybake_json_escaped(c->backslashes, &state->escape_carry);
    uint64_t quotes = c->quotes & ~escaped;
    // Opening quotes and the bytes after them, up to each closing quote.
    uint64_t inside = easybake_prefix_xor(quotes) ^ state->in_string;
    state->in_string = (uint64_t)((int64_t)inside >> 63);
    uint64_t operators = c->operators & ~inside;
    uint64_t scalars = ~(operators | (c->whitespace & ~inside) | inside | quotes);
    uint64_t scalarStarts = scalars & ~((scalars << 1) | state->scalar_carry);
    state->scalar_carry = scalars >> 63;
    out.scalars = scalars;
    out.tokens = (operators | quotes | scalarStarts) & valid;
    uint64_t specials = c->specials & inside & valid;
    // The closing quotes of strings with a special byte: each special
    // byte flags the first closing quote after it (a string open at the
    // block's start that had one flags the block's first closing quote).
    uint64_t closing = quotes & ~inside & valid;
    out.closing = closing;
    uint64_t flagged = 0;
    if (state->special_carry != 0) {
        flagged = closing & (0 - closing);
        state->special_carry = flagged == 0;
    }
    while (specials != 0) {
        int first = __builtin_ctzll(specials);
        uint64_t after = closing & easybake_bits_from(first);
        if (after == 0) {
            // The string is still open at the block's end.
            state->special_carry = 1;
            break;
        }
        uint64_t close = after & (0 - after);
        flagged |= close;
        specials &= ~(close - 1);
    }
    out.flagged = flagged;
    return out;
}

/// The 64 bytes from `i` (a copy padded with spaces when fewer are left,
/// in `tail`), and which of them are the input's.
static inline const uint8_t *easybake_block_at(const uint8_t *base, size_t i, size_t count, uint8_t *tail,
                                               uint64_t *valid) {
    *valid = ~(uint64_t)0;
    if (count - i >= 64) return base + i;
    // The padding is masked out by `valid`, whatever it is classed as.
    memset(tail, ' ', 64);
    memcpy(tail, base + i, count - i);
    *valid = easybake_bits_below((int)(count - i));
    return tail;
}

size_t easybake_json_structurals(const uint8_t *base, size_t start, size_t count, size_t blocks, int level,
                                 easybake_json_structural_state *state, uint32_t *out) {
    easybake_classifier classify = easybake_classifier_for(easybake_runnable_level(level));
    uint32_t *written = out;
    uint8_t tail[64];
    for (size_t n = 0; n < blocks; n++) {
        size_t i = start + 64 * n;
        if (i >= count) break;
        uint64_t valid;
        const uint8_t *block = easybake_block_at(base, i, count, tail, &valid);
        easybake_block_classes c;
        classify(block, &c);
        easybake_block_structure found = easybake_structure(&c, valid, state);
        uint64_t tokens = found.tokens;
        uint64_t flagged = found.flagged;
        uint32_t offset = (uint32_t)(i - start);
        // Eight at a time without a branch per position: the slots past the
        // last position are written and then overwritten or ignored.
        uint32_t *end = written + __builtin_popcountll(tokens);
        while (tokens != 0) {
            for (int k = 0; k < 8; k++) {
                int bit = __builtin_ctzll(tokens | ((uint64_t)1 << 63));
                written[k] = (offset + (uint32_t)bit) | ((uint32_t)((flagged >> bit) & 1) << 31);
                tokens &= tokens - 1;
            }
            written += 8;
        }
        written = end;
    }
    return (size_t)(written - out);
}

/// Whether `byte` may follow a scalar: whitespace, a structural
/// character or a quote.
static inline int easybake_ends_scalar_byte(uint8_t byte) {
    switch (byte) {
    case ' ': case '\t': case '\n': case '\r':
    case '{': case '}': case '[': case ']': case ':': case ',': case '"':
        return 1;
    default:
        return 0;
    }
}

/// Whether the byte after a literal ends it, as the byte walk's grammar
/// would have it: whitespace, an operator, a quote, or the input's end.
/// Any other byte would run on into the literal.
static inline int easybake_ends_scalar(const uint8_t *base, size_t at, size_t count) {
    return at >= count || easybake_ends_scalar_byte(base[at]);
}

/// How many digits begin at `p`, of at most `avail` bytes: eight at a
/// time, a byte being a digit when its high nibble is 3 both as it is and
/// with 6 added (which carries the low nibbles 10 to 15 out of it). A carry
/// out of a byte only reaches the bytes after it, past the run's end.
static inline size_t easybake_digit_run(const uint8_t *p, size_t avail) {
    size_t run = 0;
    while (avail - run >= 8) {
        uint64_t x;
        memcpy(&x, p + run, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        x = __builtin_bswap64(x);
#endif
        const uint64_t high = 0xF0F0F0F0F0F0F0F0u, threes = 0x3030303030303030u;
        uint64_t other = ((x & high) ^ threes) | (((x + 0x0606060606060606u) & high) ^ threes);
        if (other != 0) return run + (size_t)(__builtin_ctzll(other) >> 3);
        run += 8;
    }
    while (run < avail && (uint8_t)(p[run] - '0') < 10) run++;
    return run;
}

/// The length of the number at `at` when it has a plain shape — an
/// optional minus, an integer part without a leading zero, an optional
/// fraction, no exponent, at most 32 bytes — and ends where a scalar may
/// end; 0 for anything else, which the caller's grammar (`JSONNumberGrammar`,
/// the rule's one home) decides, with its errors. `*is_integer` says
/// whether it has no fraction. A subset of the grammar, so that what it
/// accepts the grammar accepts with the same length (a test holds the two
/// to that on every input).
///
/// `run`, when not 0, is the length of the scalar run at `at` as the
/// structural pass found it: the number ends where a scalar may end
/// exactly when it ends there, which spares looking at the byte after it.
static inline size_t easybake_plain_number(const uint8_t *base, size_t at, size_t count, size_t run, int *is_integer) {
    size_t i = at + (base[at] == '-');
    if (i >= count) return 0;
    size_t digits = easybake_digit_run(base + i, count - i);
    if (digits == 0 || (digits > 1 && base[i] == '0')) return 0;
    i += digits;
    *is_integer = 1;
    if (i < count && base[i] == '.') {
        size_t fraction = i + 1 < count ? easybake_digit_run(base + i + 1, count - i - 1) : 0;
        if (fraction == 0) return 0;
        i += 1 + fraction;
        *is_integer = 0;
    }
    if (i - at > 32) return 0;
    if (run != 0 ? i - at != run : !easybake_ends_scalar(base, i, count)) return 0;
    return i - at;
}

/// 0x80 in each byte of `x` that is not an ASCII digit, as
/// ``easybake_digit_run`` tells them. A carry out of a byte (from 0xFA up,
/// itself flagged) may misflag the bytes after it, which the callers
/// reject anyway, having found a byte that is neither a digit nor `.`.
static inline uint64_t easybake_nondigit_bytes(uint64_t x) {
    const uint64_t high = 0xF0F0F0F0F0F0F0F0u, threes = 0x3030303030303030u;
    uint64_t other = ((x & high) ^ threes) | (((x + 0x0606060606060606u) & high) ^ threes);
    // Each byte of `other` has only high-nibble bits: fold them into bit 7.
    return (other | other << 1 | other << 2 | other << 3) & 0x8080808080808080u;
}

/// A bit for each of the 32 bytes at `p` that is no ASCII digit: with
/// SSE2, two vector compares when `vector` (the pass's level is above the
/// scalar reference); else (the scalar level, and machines without SSE2,
/// NEON's included) four words as ``easybake_digit_run`` reads them.
__attribute__((always_inline)) static inline uint32_t easybake_nondigits32(const uint8_t *p, int vector) {
#if defined(__SSE2__)
    if (vector) {
        const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
        __m128i a = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)p), zero);
        __m128i b = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), zero);
        // A digit less '0' is at most 9, unsigned.
        uint32_t digits = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(a, nine), a)) |
                          (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(b, nine), b)) << 16;
        return ~digits;
    }
#else
    (void)vector;
#endif
    uint32_t flags = 0;
    for (int k = 0; k < 4; k++) {
        uint64_t word;
        memcpy(&word, p + 8 * k, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        word = __builtin_bswap64(word);
#endif
        // 0x80 in each byte that is no digit, gathered into a byte.
        uint64_t bytes = easybake_nondigit_bytes(word) >> 7;
        flags |= (uint32_t)((bytes * 0x0102040810204080u) >> 56) << (8 * k);
    }
    return flags;
}

/// ``easybake_plain_number`` for a number whose scalar run, read from the
/// structural pass's bitmap, is `length` bytes (1 to 32), with 32 bytes
/// readable at `p`: the run is plain or not as a whole, so its digits are
/// found with no byte loop, and its end is where a scalar may end by
/// construction. The same answer as ``easybake_plain_number`` (the index
/// tests compare the structural build with the byte walk at every level).
// Inlined: called, it and the crossing numbers' byte loops were a third of
// the time of indexing the numbers shape (perf), and the index alone on it
// ran 8% slower.
__attribute__((always_inline)) static inline size_t easybake_run_number(const uint8_t *p, size_t length, int vector,
                                                                      int *is_integer) {
    size_t start = p[0] == '-';
    // The run's bytes that are no digit, but for a leading minus.
    uint32_t flags = easybake_nondigits32(p, vector) & (~(uint32_t)0 >> (32 - length)) & ~(uint32_t)start;
    // Where the integer part ends: at the one `.`, or at the run's end.
    size_t integerEnd = length;
    *is_integer = flags == 0;
    if (flags != 0) {
        size_t dot = (size_t)__builtin_ctz(flags);
        if ((flags & (flags - 1)) != 0 || p[dot] != '.' || dot + 1 == length) return 0;
        integerEnd = dot;
    }
    if (integerEnd == start || (p[start] == '0' && integerEnd - start > 1)) return 0;
    return length;
}

/// ``easybake_plain_number`` for a number whose scalar run goes on past
/// its block, so that the bitmap does not give its length, with 32 bytes
/// readable at `p`: its end is the first byte that is no digit (after
/// one `.` and the fraction's digits, if any), which must end a scalar.
/// The same answer as ``easybake_plain_number``, but 0 for a number whose
/// end is not among the 32 bytes, which the caller's grammar completes
/// (it accepts the same numbers with the same lengths).
///
/// About a fourth of the numbers of a coordinate-heavy document cross a
/// block's end; the byte loops of ``easybake_plain_number`` took them
/// where this takes one vector compare.
// The shape's rules repeat ``easybake_run_number``'s rather than call it
// on the run found: that cost indexing the numbers shape 4.3% more
// instructions, and a helper shared by both 3.5% (callgrind), the build's
// loop compiling worse either way.
static inline size_t easybake_open_run_number(const uint8_t *p, int vector, int *is_integer) {
    size_t start = p[0] == '-';
    uint32_t flags = easybake_nondigits32(p, vector) & ~(uint32_t)start;
    if (flags == 0) return 0;
    size_t end = (size_t)__builtin_ctz(flags);
    if (end == start || (p[start] == '0' && end - start > 1)) return 0;
    *is_integer = 1;
    if (p[end] == '.') {
        uint32_t rest = flags & (flags - 1);
        if (rest == 0) return 0;
        size_t fraction = (size_t)__builtin_ctz(rest);
        if (fraction == end + 1) return 0;
        end = fraction;
        *is_integer = 0;
    }
    return easybake_ends_scalar_byte(p[end]) ? end : 0;
}

/// The four bytes `true`, `null` and `alse` (the rest of `false`) read as
/// a little-endian word.
enum {
    EASYBAKE_WORD_TRUE = 0x65757274u,
    EASYBAKE_WORD_NULL = 0x6C6C756Eu,
    EASYBAKE_WORD_ALSE = 0x65736C61u,
};

/// Whether the four bytes at `at` are `word`, the end of a literal, and
/// the literal is ended as it must be.
static inline int easybake_word_at(const uint8_t *base, size_t at, size_t count, uint32_t word) {
    if (count < 4 || at > count - 4) return 0;
    uint32_t found;
    memcpy(&found, base + at, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    found = __builtin_bswap32(found);
#endif
    if (found != word) return 0;
    return easybake_ends_scalar(base, at + 4, count);
}

/// Whether the literal `true`, `false` or `null` whose first byte `byte`
/// is at `at` stands there whole, ended as a literal must be.
static inline int easybake_literal_at(const uint8_t *base, size_t at, size_t count, uint8_t byte) {
    switch (byte) {
    case 't': return easybake_word_at(base, at, count, EASYBAKE_WORD_TRUE);
    case 'f': return easybake_word_at(base, at + 1, count, EASYBAKE_WORD_ALSE);
    case 'n': return easybake_word_at(base, at, count, EASYBAKE_WORD_NULL);
    default: return 0;
    }
}

/// ``easybake_plain_number`` for the number at `at`, the token at `bit`
/// of the block at `block`, whose scalar bytes are `scalars`: when its run
/// ends in the block, its length is known and its 32 bytes are read at
/// once from the block or the input (whichever has them), with vector
/// compares when `vector`; when it runs on into the next block, its end is
/// found in the 32 bytes from its start (``easybake_open_run_number``);
/// else byte by byte.
__attribute__((always_inline)) static inline size_t easybake_number_in_run(const uint8_t *block, int bit, uint64_t scalars,
                                                                           const uint8_t *base, size_t at, size_t count,
                                                                           int vector, int *is_integer) {
    uint64_t after = ~scalars >> bit;
    if (__builtin_expect(after == 0, 0)) {
        // The run goes on into the next block: past 32 bytes when it
        // began in the block's first half.
        return bit > 32 && count - at >= 32 ? easybake_open_run_number(base + at, vector, is_integer)
                                            : easybake_plain_number(base, at, count, 0, is_integer);
    }
    size_t run = (size_t)__builtin_ctzll(after);
    const uint8_t *p = bit <= 32 ? block + bit : count - at >= 32 ? base + at : NULL;
    return run <= 32 && p != NULL ? easybake_run_number(p, run, vector, is_integer)
                                  : easybake_plain_number(base, at, count, run, is_integer);
}

/// ``easybake_literal_at`` for the token at `bit` of the block at `block`,
/// whose scalar bytes are `scalars`: a literal is its whole scalar run,
/// four bytes (`false`, five), so when the run ends in the block its
/// length and one word say it.
__attribute__((always_inline)) static inline int easybake_literal_in_run(const uint8_t *block, int bit, uint64_t scalars,
                                                                         const uint8_t *base, size_t at, size_t count,
                                                                         uint8_t byte) {
    uint64_t after = ~scalars >> bit;
    if (after == 0 || bit > 59) return easybake_literal_at(base, at, count, byte);
    size_t run = (size_t)__builtin_ctzll(after);
    uint32_t word;
    memcpy(&word, block + bit + (byte == 'f'), 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    word = __builtin_bswap32(word);
#endif
    uint32_t expected = byte == 't'   ? EASYBAKE_WORD_TRUE
                        : byte == 'n' ? EASYBAKE_WORD_NULL
                        : byte == 'f' ? EASYBAKE_WORD_ALSE
                                      : 0;
    return expected != 0 && word == expected && run == 4 + (size_t)(byte == 'f');
}

/// Whether the scalar at `at`, the token at `bit` of the block at `block`
/// (whose scalar bytes are `scalars`) and whose first byte is `byte`, is
/// checked here: a literal, or a number of a plain shape (with
/// `plain_numbers`), ended as a scalar must be. Anything else is the
/// caller's to check.
__attribute__((always_inline)) static inline int easybake_scalar_checked(const uint8_t *block, int bit, uint64_t scalars,
                                                                         const uint8_t *base, size_t at, size_t count,
                                                                         uint8_t byte, int plain_numbers, int vector) {
    int isInteger;
    if (byte == 't' || byte == 'f' || byte == 'n')
        return easybake_literal_in_run(block, bit, scalars, base, at, count, byte);
    return plain_numbers && easybake_number_in_run(block, bit, scalars, base, at, count, vector, &isInteger) != 0;
}

/// The length of the UTF-8 sequence of more than one byte at `p`, which
/// must end before `end`, or 0 when it is no such sequence as the byte
/// walk's `validateUTF8Sequence` reads them (RFC 3629: no overlong forms,
/// no surrogates, nothing above U+10FFFF). The second byte's range depends
/// on the lead (that is where overlong forms, surrogates and the end of
/// Unicode are told apart); every later byte is any continuation byte.
static inline size_t easybake_utf8_sequence(const uint8_t *p, const uint8_t *end) {
    uint8_t lead = p[0];
    size_t length;
    uint8_t lower = 0x80, upper = 0xBF;
    if (lead < 0xC2) return 0;  // ASCII, a continuation byte, or an overlong C0/C1 lead
    if (lead <= 0xDF) {
        length = 2;
    } else if (lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0) lower = 0xA0;  // below: overlong
        if (lead == 0xED) upper = 0x9F;  // above: a surrogate
    } else if (lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0) lower = 0x90;  // below: overlong
        if (lead == 0xF4) upper = 0x8F;  // above: past U+10FFFF
    } else {
        return 0;
    }
    // A sequence cut short by the closing quote is invalid either way (a
    // quote is no continuation byte), so the string's end is as good a
    // bound as the input's.
    if ((size_t)(end - p) < length) return 0;
    if (p[1] < lower || p[1] > upper) return 0;
    for (size_t k = 2; k < length; k++)
        if ((p[k] & 0xC0) != 0x80) return 0;
    return length;
}

/// Whether the byte is a string's plain ASCII: printable or DEL, not a
/// backslash (a string has no unescaped quote before its end).
static inline int easybake_plain_ascii(uint8_t byte) { return byte >= 0x20 && byte < 0x80 && byte != '\\'; }

/// The reference for ``easybake_plain_string``: byte by byte.
static int easybake_plain_string_scalar(const uint8_t *p, const uint8_t *end) {
    while (p < end) {
        if (easybake_plain_ascii(*p)) {
            p++;
            continue;
        }
        if (*p < 0x80) return 0;
        size_t length = easybake_utf8_sequence(p, end);
        if (length == 0) return 0;
        p += length;
    }
    return 1;
}

/// 0x80 in each byte of `x` that is no string's plain ASCII: a control
/// character, a backslash or a non-ASCII byte. The lowest flag is exact
/// (plain bytes below it borrow nothing); a borrow out of a special byte
/// may flag bytes above it, which a caller that stops at the first flag
/// never looks at.
static inline uint64_t easybake_special_bytes(uint64_t x) {
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    uint64_t control = (x - 0x20 * ones) & ~x;
    uint64_t y = x ^ (0x5C * ones);
    uint64_t backslash = (y - ones) & ~y;
    return (control | backslash | x) & high;
}

/// The words' way (machines without SSE2, NEON's included, and the input's
/// last bytes): plain ASCII is skipped eight bytes at a time, anything else
/// read as the reference reads it.
static inline int easybake_plain_string_words(const uint8_t *p, const uint8_t *end) {
    while (p < end) {
        if (end - p >= 8) {
            uint64_t word;
            memcpy(&word, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
            word = __builtin_bswap64(word);
#endif
            uint64_t special = easybake_special_bytes(word);
            if (special == 0) {
                p += 8;
                continue;
            }
            p += __builtin_ctzll(special) >> 3;
        } else if (easybake_plain_ascii(*p)) {
            p++;
            continue;
        }
        if (*p < 0x80) return 0;
        size_t length = easybake_utf8_sequence(p, end);
        if (length == 0) return 0;
        p += length;
    }
    return 1;
}

#if defined(EASYBAKE_HAS_AVX2_PASS)
/// What two neighbouring bytes of UTF-8 may be wrong in, one bit each, for
/// ``easybake_plain_string_lookup``: a byte pair is in a kind when the
/// entries of the first byte's two nibbles and the second's high nibble
/// all have its bit. Each kind is a set of pairs that is such a product of
/// nibble sets and has a bit of its own, so the three entries' `and` holds
/// exactly the kinds the pair is in. (Leads from 0xF5 up, which would need
/// a ninth bit, are found by their value.)
enum {
    /// A lead (0xC0 up) before a byte that is no continuation byte.
    EASYBAKE_UTF8_TOO_SHORT = 0x01,
    /// A continuation byte after an ASCII byte.
    EASYBAKE_UTF8_TOO_LONG = 0x02,
    /// 0xE0 before 0x80-0x9F: a three-byte form of a two-byte character.
    EASYBAKE_UTF8_OVERLONG_3 = 0x04,
    /// 0xF4 before 0x90-0xBF: past U+10FFFF.
    EASYBAKE_UTF8_TOO_LARGE = 0x08,
    /// 0xED before 0xA0-0xBF: U+D800 to U+DFFF.
    EASYBAKE_UTF8_SURROGATE = 0x10,
    /// 0xC0 or 0xC1 before a continuation byte: a two-byte form of ASCII.
    EASYBAKE_UTF8_OVERLONG_2 = 0x20,
    /// 0xF0 before 0x80-0x8F: a four-byte form of a shorter character.
    EASYBAKE_UTF8_OVERLONG_4 = 0x40,
    /// Two continuation bytes: no fault when a three- or four-byte lead
    /// two or three bytes back calls for them, and only then. The top bit,
    /// so that it meets that lead's call bit for bit.
    EASYBAKE_UTF8_TWO_CONTINUATIONS = 0x80,
};

#define EASYBAKE_UTF8_CONTINUATION_PAIRS (EASYBAKE_UTF8_TOO_LONG | EASYBAKE_UTF8_TWO_CONTINUATIONS)

/// The kinds by the first byte's high nibble.
static const uint8_t easybake_utf8_first_high[16] = {
    // 0x00-0x7F: ASCII.
    EASYBAKE_UTF8_TOO_LONG, EASYBAKE_UTF8_TOO_LONG, EASYBAKE_UTF8_TOO_LONG, EASYBAKE_UTF8_TOO_LONG,
    EASYBAKE_UTF8_TOO_LONG, EASYBAKE_UTF8_TOO_LONG, EASYBAKE_UTF8_TOO_LONG, EASYBAKE_UTF8_TOO_LONG,
    // 0x80-0xBF: continuation bytes.
    EASYBAKE_UTF8_TWO_CONTINUATIONS, EASYBAKE_UTF8_TWO_CONTINUATIONS, EASYBAKE_UTF8_TWO_CONTINUATIONS,
    EASYBAKE_UTF8_TWO_CONTINUATIONS,
    // Leads.
    EASYBAKE_UTF8_TOO_SHORT | EASYBAKE_UTF8_OVERLONG_2,                              // 0xC_
    EASYBAKE_UTF8_TOO_SHORT,                                                         // 0xD_
    EASYBAKE_UTF8_TOO_SHORT | EASYBAKE_UTF8_OVERLONG_3 | EASYBAKE_UTF8_SURROGATE,   // 0xE_
    EASYBAKE_UTF8_TOO_SHORT | EASYBAKE_UTF8_TOO_LARGE | EASYBAKE_UTF8_OVERLONG_4,   // 0xF_
};

/// The kinds by the first byte's low nibble: the kinds of any byte, and the
/// leads that are wrong by their low nibble.
#define EASYBAKE_UTF8_ANY_LOW (EASYBAKE_UTF8_TOO_SHORT | EASYBAKE_UTF8_TOO_LONG | EASYBAKE_UTF8_TWO_CONTINUATIONS)
static const uint8_t easybake_utf8_first_low[16] = {
    EASYBAKE_UTF8_ANY_LOW | EASYBAKE_UTF8_OVERLONG_2 | EASYBAKE_UTF8_OVERLONG_3 | EASYBAKE_UTF8_OVERLONG_4,  // 0
    EASYBAKE_UTF8_ANY_LOW | EASYBAKE_UTF8_OVERLONG_2,                                                        // 1
    EASYBAKE_UTF8_ANY_LOW, EASYBAKE_UTF8_ANY_LOW,
    EASYBAKE_UTF8_ANY_LOW | EASYBAKE_UTF8_TOO_LARGE,                                                         // 4
    EASYBAKE_UTF8_ANY_LOW, EASYBAKE_UTF8_ANY_LOW, EASYBAKE_UTF8_ANY_LOW, EASYBAKE_UTF8_ANY_LOW,
    EASYBAKE_UTF8_ANY_LOW, EASYBAKE_UTF8_ANY_LOW, EASYBAKE_UTF8_ANY_LOW, EASYBAKE_UTF8_ANY_LOW,
    EASYBAKE_UTF8_ANY_LOW | EASYBAKE_UTF8_SURROGATE,                                                         // D
    EASYBAKE_UTF8_ANY_LOW, EASYBAKE_UTF8_ANY_LOW,
};
#undef EASYBAKE_UTF8_ANY_LOW

/// The kinds by the second byte's high nibble.
static const uint8_t easybake_utf8_second_high[16] = {
    // 0x00-0x7F: ASCII ends a sequence too soon.
    EASYBAKE_UTF8_TOO_SHORT, EASYBAKE_UTF8_TOO_SHORT, EASYBAKE_UTF8_TOO_SHORT, EASYBAKE_UTF8_TOO_SHORT,
    EASYBAKE_UTF8_TOO_SHORT, EASYBAKE_UTF8_TOO_SHORT, EASYBAKE_UTF8_TOO_SHORT, EASYBAKE_UTF8_TOO_SHORT,
    // Continuation bytes, each in the ranges a lead refuses.
    EASYBAKE_UTF8_CONTINUATION_PAIRS | EASYBAKE_UTF8_OVERLONG_2 | EASYBAKE_UTF8_OVERLONG_3 |
        EASYBAKE_UTF8_OVERLONG_4,                                                                   // 0x8_
    EASYBAKE_UTF8_CONTINUATION_PAIRS | EASYBAKE_UTF8_OVERLONG_2 | EASYBAKE_UTF8_OVERLONG_3 |
        EASYBAKE_UTF8_TOO_LARGE,                                                                    // 0x9_
    EASYBAKE_UTF8_CONTINUATION_PAIRS | EASYBAKE_UTF8_OVERLONG_2 | EASYBAKE_UTF8_SURROGATE |
        EASYBAKE_UTF8_TOO_LARGE,                                                                    // 0xA_
    EASYBAKE_UTF8_CONTINUATION_PAIRS | EASYBAKE_UTF8_OVERLONG_2 | EASYBAKE_UTF8_SURROGATE |
        EASYBAKE_UTF8_TOO_LARGE,                                                                    // 0xB_
    // A lead ends a sequence too soon.
    EASYBAKE_UTF8_TOO_SHORT, EASYBAKE_UTF8_TOO_SHORT, EASYBAKE_UTF8_TOO_SHORT, EASYBAKE_UTF8_TOO_SHORT,
};
#undef EASYBAKE_UTF8_CONTINUATION_PAIRS

/// ``easybake_plain_string`` at the AVX2 level, 16 bytes at a time with no
/// branch per sequence: each byte is looked up with the one before it (by
/// nibbles, `pshufb`), which finds every fault but a missing or extra third
/// or fourth byte; those are where two continuation bytes meet and no lead
/// two or three bytes back (0xE0 up, 0xF0 up) calls for them, or the other
/// way round. Leads from 0xF5 up, which no pair tells from a good one, are
/// found by their value. The closing quote is looked at as the byte after
/// the string, so that a sequence it cuts short is a fault; the bytes
/// before the string count as ASCII (its opening quote is). 16 bytes must
/// be readable from the quote.
__attribute__((target("avx2"))) static inline int easybake_plain_string_lookup(const uint8_t *p,
                                                                             const uint8_t *end) {
    const __m128i firstHigh = _mm_loadu_si128((const __m128i *)easybake_utf8_first_high);
    const __m128i firstLow = _mm_loadu_si128((const __m128i *)easybake_utf8_first_low);
    const __m128i secondHigh = _mm_loadu_si128((const __m128i *)easybake_utf8_second_high);
    const __m128i nibble = _mm_set1_epi8(0x0F);
    __m128i before = _mm_setzero_si128();
    for (;;) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)p);
        size_t left = (size_t)(end - p);
        // Control characters (unsigned at most 0x1F) and backslashes
        // before the quote settle a string with an escape at once.
        __m128i bad = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(bytes, _mm_set1_epi8(0x1F)), bytes),
                                   _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\')));
        uint32_t inside = left >= 16 ? 0xFFFFu : ((uint32_t)1 << left) - 1;
        if ((uint32_t)_mm_movemask_epi8(bad) & inside) return 0;
        __m128i prev1 = _mm_alignr_epi8(bytes, before, 15);
        __m128i kinds = _mm_and_si128(
            _mm_and_si128(_mm_shuffle_epi8(firstHigh, _mm_and_si128(_mm_srli_epi16(prev1, 4), nibble)),
                          _mm_shuffle_epi8(firstLow, _mm_and_si128(prev1, nibble))),
            _mm_shuffle_epi8(secondHigh, _mm_and_si128(_mm_srli_epi16(bytes, 4), nibble)));
        // The top bit where a three-byte lead is two back or a four-byte
        // lead three back (saturating subtractions leave it only there).
        __m128i called = _mm_or_si128(
            _mm_subs_epu8(_mm_alignr_epi8(bytes, before, 14), _mm_set1_epi8((char)(0xE0 - 0x80))),
            _mm_subs_epu8(_mm_alignr_epi8(bytes, before, 13), _mm_set1_epi8((char)(0xF0 - 0x80))));
        __m128i faults = _mm_xor_si128(kinds, _mm_and_si128(called, _mm_set1_epi8((char)0x80)));
        // Leads from 0xF5 up are left over after taking 0xF4 off.
        faults = _mm_or_si128(faults, _mm_subs_epu8(bytes, _mm_set1_epi8((char)0xF4)));
        if (left < 16) {
            // The last 16: faults up to the quote (bytes past it are
            // another token's).
            uint32_t clean = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(faults, _mm_setzero_si128()));
            return (~clean & (((uint32_t)2 << left) - 1)) == 0;
        }
        if (!_mm_testz_si128(faults, faults)) return 0;
        before = bytes;
        p += 16;
    }
}
#endif

/// ``easybake_plain_string`` with SSE2, 16 bytes at a time: any control
/// character or backslash among them settles it, and the non-ASCII bytes'
/// sequences are checked one by one from a bitmap of them; the bytes
/// within 16 of the input's end, and all without SSE2, go by words. Loads
/// may read past the closing quote, never past the input.
static int easybake_plain_string_sse2(const uint8_t *p, const uint8_t *end, const uint8_t *readable) {
#if defined(__SSE2__)
    const __m128i control = _mm_set1_epi8(0x1F);
    const __m128i backslash = _mm_set1_epi8('\\');
    while (p < end && readable - p >= 16) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)p);
        // Unsigned "at most 0x1F": the minimum with 0x1F is the byte itself.
        __m128i bad = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(bytes, control), bytes),
                                   _mm_cmpeq_epi8(bytes, backslash));
        uint32_t inside = end - p >= 16 ? 0xFFFFu : ((uint32_t)1 << (end - p)) - 1;
        if ((uint32_t)_mm_movemask_epi8(bad) & inside) return 0;
        // Non-ASCII bytes: each is a sequence's lead, or a continuation
        // byte of the sequence before it, taken off when that is checked.
        uint32_t high = (uint32_t)_mm_movemask_epi8(bytes) & inside;
        size_t next = 16;
        while (high != 0) {
            size_t at = (size_t)__builtin_ctz(high);
            size_t length = easybake_utf8_sequence(p + at, end);
            if (length == 0) return 0;
            next = at + length;
            // A sequence that runs into the next 16 bytes: go on after it.
            if (next >= 16) break;
            high &= ~(((uint32_t)1 << next) - 1);
            next = 16;
        }
        p += next;
    }
#else
    (void)readable;
#endif
    return easybake_plain_string_words(p, end);
}

/// Whether the string whose quotes are at `open` and `close` (in an input
/// of `count` bytes at `base`) is plain text, which the caller need not
/// check: no control character, no backslash, and valid UTF-8 exactly as
/// the byte walk has it (``easybake_utf8_sequence``). A string that is not
/// goes to the caller, whose byte walk decodes it or words its error.
///
/// `level` is the pass's (runnable) level: byte by byte at 0 (the
/// reference); at the AVX2 level by nibble lookups
/// (``easybake_plain_string_lookup``) unless the quote is within 16 bytes
/// of the input's end; else ``easybake_plain_string_sse2``. Inlined, so
/// that a string costs one call.
__attribute__((always_inline)) static inline int easybake_plain_string(const uint8_t *base, size_t open,
                                                                       size_t close, size_t count, int level) {
    const uint8_t *p = base + open + 1;
    const uint8_t *end = base + close;
#if defined(EASYBAKE_HAS_AVX2_PASS)
    if (__builtin_expect(level == 2, 1) && count - close >= 16) return easybake_plain_string_lookup(p, end);
#endif
    if (level == 0) return easybake_plain_string_scalar(p, end);
    return easybake_plain_string_sse2(p, end, base + count);
}

/// The value of the four hex digits at `p`, or -1 when they are not four.
static inline int32_t easybake_hex4(const uint8_t *p) {
    int32_t value = 0;
    for (int k = 0; k < 4; k++) {
        uint8_t byte = p[k];
        int32_t digit = byte >= '0' && byte <= '9'   ? byte - '0'
                        : byte >= 'a' && byte <= 'f' ? byte - 'a' + 10
                        : byte >= 'A' && byte <= 'F' ? byte - 'A' + 10
                                                     : -1;
        if (digit < 0) return -1;
        value = value << 4 | digit;
    }
    return value;
}

/// Whether the string whose quotes are at `open` and `close` (in an input
/// of `count` bytes at `base`) is text as the byte walk's `scanSlowString`
/// accepts it: valid UTF-8, no control character, and only the escapes
/// JSON has, a `\u` of a surrogate paired as it must be. Called for a
/// string that is not plain (``easybake_plain_string``), so it has an
/// escape when it is text. Any doubt (0) leaves the string to the byte
/// walk, which words the error.
///
/// Escapes are common in API payloads (`\/` in every URL, `\"`, `\u` for
/// emoji and accents): the byte walk took them at a seventh of the time
/// of indexing such a payload.
static inline int easybake_escaped_string(const uint8_t *base, size_t open, size_t close, size_t count,
                                          int level) {
    const uint8_t *p = base + open + 1;
    const uint8_t *end = base + close;
#if defined(__SSE2__)
    const uint8_t *readable = base + count;
    const __m128i control = _mm_set1_epi8(0x1F);
    const __m128i backslash = _mm_set1_epi8('\\');
#else
    (void)count;
    (void)level;
#endif
    while (p < end) {
#if defined(__SSE2__)
        if (level > 0 && readable - p >= 16) {
            // Plain ASCII 16 bytes at a time, up to the next byte that is
            // not (past the quote, that ends the string).
            __m128i bytes = _mm_loadu_si128((const __m128i *)p);
            __m128i special = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(bytes, control), bytes),
                                           _mm_cmpeq_epi8(bytes, backslash));
            uint32_t found = (uint32_t)_mm_movemask_epi8(special) | (uint32_t)_mm_movemask_epi8(bytes);
            p += found == 0 ? 16 : (size_t)__builtin_ctz(found);
            if (p >= end) break;
        }
#endif
        uint8_t byte = *p;
        if (byte == '\\') {
            if (end - p < 2) return 0;
            switch (p[1]) {
            case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
                p += 2;
                continue;
            case 'u': {
                if (end - p < 6) return 0;
                int32_t scalar = easybake_hex4(p + 2);
                if (scalar < 0 || (scalar >= 0xDC00 && scalar <= 0xDFFF)) return 0;
                p += 6;
                if (scalar >= 0xD800 && scalar <= 0xDBFF) {
                    // A high surrogate: an escaped low one must follow.
                    if (end - p < 6 || p[0] != '\\' || p[1] != 'u') return 0;
                    int32_t low = easybake_hex4(p + 2);
                    if (low < 0xDC00 || low > 0xDFFF) return 0;
                    p += 6;
                }
                continue;
            }
            default:
                return 0;
            }
        }
        if (byte < 0x20) return 0;
        if (byte < 0x80) {
            p++;
            continue;
        }
        size_t length = easybake_utf8_sequence(p, end);
        if (length == 0) return 0;
        p += length;
    }
    return 1;
}

/// Takes out of a skip's `written` check words the strings that are plain
/// text (each string is two words: its opening quote, flagged, and its
/// closing quote); returns how many words are left, in order. Done once a
/// call, after the blocks, rather than at each closing quote: a call there
/// costs the block loop more in registers than the check itself.
__attribute__((always_inline)) static inline size_t easybake_skip_drop_plain_at(const uint8_t *base, size_t count,
                                                                                int level, uint64_t *checks,
                                                                                size_t written) {
    size_t kept = 0;
    for (size_t k = 0; k < written; k++) {
        uint64_t check = checks[k];
        if (check & EASYBAKE_SKIP_CHECK_STRING) {
            uint64_t close = checks[++k];
            size_t open = (size_t)(check & ~EASYBAKE_SKIP_CHECK_STRING);
            if (easybake_plain_string(base, open, (size_t)close, count, level) ||
                easybake_escaped_string(base, open, (size_t)close, count, level))
                continue;
            checks[kept++] = check;
            check = close;
        }
        checks[kept++] = check;
    }
    return kept;
}

/// ``easybake_skip_drop_plain_at`` for an index build's `written` checks: a
/// string's closing quote is found from its entry's length (in the word,
/// or in its extra when the entry is wide), and a plain string's entry is
/// already what the caller would have left it.
__attribute__((always_inline)) static inline size_t easybake_index_drop_plain_at(
    const uint8_t *base, size_t count, int level, const uint64_t *entries, const easybake_index_extra *extras,
    uint8_t wide_flag, easybake_json_index_check *checks, size_t written) {
    const uint64_t lengthMask = ((uint64_t)1 << EASYBAKE_INDEX_START_SHIFT) - 1;
    const uint64_t payloadMask = ((uint64_t)1 << 56) - 1;
    size_t kept = 0;
    for (size_t k = 0; k < written; k++) {
        easybake_json_index_check check = checks[k];
        if (check.at & EASYBAKE_SKIP_CHECK_STRING) {
            size_t open = (size_t)(check.at & ~EASYBAKE_SKIP_CHECK_STRING);
            size_t close;
            if (check.entry & EASYBAKE_INDEX_CHECK_UNWRITTEN) {
                close = (size_t)(check.entry & ~EASYBAKE_INDEX_CHECK_UNWRITTEN);
            } else {
                uint64_t word = entries[check.entry];
                close = open + 1
                        + ((uint8_t)(word >> 56) & wide_flag ? (size_t)extras[word & payloadMask].low
                                                              : (size_t)(word & lengthMask));
            }
            if (easybake_plain_string(base, open, close, count, level)) continue;
            if (easybake_escaped_string(base, open, close, count, level)) {
                // A value left out needs no more; a kept one, its entry
                // marked as holding escapes.
                if (check.entry & EASYBAKE_INDEX_CHECK_UNWRITTEN) continue;
                check.at |= EASYBAKE_INDEX_CHECK_ESCAPED;
            }
        }
        checks[kept++] = check;
    }
    return kept;
}

#if defined(EASYBAKE_HAS_AVX2_PASS)
// The AVX2 level's own copies, so that the lookup is inlined into the loop
// and its tables are loaded once a call, not once a string.
__attribute__((target("avx2"))) static size_t easybake_skip_drop_plain_avx2(const uint8_t *base, size_t count,
                                                                           uint64_t *checks, size_t written) {
    return easybake_skip_drop_plain_at(base, count, 2, checks, written);
}

__attribute__((target("avx2"))) static size_t easybake_index_drop_plain_avx2(
    const uint8_t *base, size_t count, const uint64_t *entries, const easybake_index_extra *extras,
    uint8_t wide_flag, easybake_json_index_check *checks, size_t written) {
    return easybake_index_drop_plain_at(base, count, 2, entries, extras, wide_flag, checks, written);
}
#endif

/// ``easybake_skip_drop_plain_at`` at the pass's (runnable) `level`; not
/// inlined, which would cost the skip's block loop registers.
__attribute__((noinline)) static size_t easybake_skip_drop_plain(const uint8_t *base, size_t count, int level,
                                                                 uint64_t *checks, size_t written) {
#if defined(EASYBAKE_HAS_AVX2_PASS)
    if (level == 2) return easybake_skip_drop_plain_avx2(base, count, checks, written);
#endif
    return easybake_skip_drop_plain_at(base, count, level, checks, written);
}

/// ``easybake_index_drop_plain_at`` at the pass's (runnable) `level`; not
/// inlined, which would cost the build's token loop registers.
__attribute__((noinline)) static size_t easybake_index_drop_plain(const uint8_t *base, size_t count, int level,
                                                                  const uint64_t *entries,
                                                                  const easybake_index_extra *extras,
                                                                  uint8_t wide_flag, easybake_json_index_check *checks,
                                                                  size_t written) {
#if defined(EASYBAKE_HAS_AVX2_PASS)
    if (level == 2) return easybake_index_drop_plain_avx2(base, count, entries, extras, wide_flag, checks, written);
#endif
    return easybake_index_drop_plain_at(base, count, level, entries, extras, wide_flag, checks, written);
}

int easybake_json_plain_string(const uint8_t *base, size_t open, size_t close, size_t count, int level) {
    return easybake_plain_string(base, open, close, count, easybake_runnable_level(level));
}

// The skip's grammar: what may come next, by the container the skip is in
// (the top level, an array or an object). A table gives, for each of these
// states and each kind of token, the next state or what to do instead.
enum {
    EASYBAKE_G_TOP_VALUE = 0,     // the value the skip starts with: `{` or `[`
    EASYBAKE_G_ARRAY_FIRST = 1,   // after `[`: a value or `]`
    EASYBAKE_G_ARRAY_VALUE = 2,   // after `,` in an array: a value
    EASYBAKE_G_ARRAY_AFTER = 3,   // after a value in an array: `,` or `]`
    EASYBAKE_G_OBJECT_FIRST = 4,  // after `{`: a key or `}`
    EASYBAKE_G_OBJECT_KEY = 5,    // after `,` in an object: a key
    EASYBAKE_G_OBJECT_COLON = 6,  // after a key: `:`
    EASYBAKE_G_OBJECT_VALUE = 7,  // after `:`: a value
    EASYBAKE_G_OBJECT_AFTER = 8,  // after a value in an object: `,` or `}`
};

// Tokens by their first byte.
enum {
    EASYBAKE_T_OPEN_OBJECT = 0,
    EASYBAKE_T_OPEN_ARRAY = 1,
    EASYBAKE_T_CLOSE_OBJECT = 2,
    EASYBAKE_T_CLOSE_ARRAY = 3,
    EASYBAKE_T_COMMA = 4,
    EASYBAKE_T_COLON = 5,
    EASYBAKE_T_STRING = 6,
    EASYBAKE_T_SCALAR = 7,
};

// A table entry: a next state, with `EASYBAKE_A_CHECK` when the token is a
// scalar the caller checks, or one of the actions.
enum {
    EASYBAKE_A_CHECK = 0x10,
    EASYBAKE_A_PUSH_OBJECT = 0x20,
    EASYBAKE_A_PUSH_ARRAY = 0x21,
    EASYBAKE_A_POP = 0x22,
    EASYBAKE_A_DECLINE = 0x23,
};

#define D EASYBAKE_A_DECLINE
#define PO EASYBAKE_A_PUSH_OBJECT
#define PA EASYBAKE_A_PUSH_ARRAY
#define POP EASYBAKE_A_POP
#define CK EASYBAKE_A_CHECK
/// JSON's grammar between tokens, by kind of token. Columns: `{`, `[`,
/// `}`, `]`, `,`, `:`, a string, a scalar.
static const uint8_t easybake_grammar_by_kind[9][8] = {
    /* top value    */ {PO, PA, D, D, D, D, D, D},
    /* array first  */ {PO, PA, D, POP, D, D, EASYBAKE_G_ARRAY_AFTER, EASYBAKE_G_ARRAY_AFTER | CK},
    /* array value  */ {PO, PA, D, D, D, D, EASYBAKE_G_ARRAY_AFTER, EASYBAKE_G_ARRAY_AFTER | CK},
    /* array after  */ {D, D, D, POP, EASYBAKE_G_ARRAY_VALUE, D, D, D},
    /* object first */ {D, D, POP, D, D, D, EASYBAKE_G_OBJECT_COLON, D},
    /* object key   */ {D, D, D, D, D, D, EASYBAKE_G_OBJECT_COLON, D},
    /* object colon */ {D, D, D, D, D, EASYBAKE_G_OBJECT_VALUE, D, D},
    /* object value */ {PO, PA, D, D, D, D, EASYBAKE_G_OBJECT_AFTER, EASYBAKE_G_OBJECT_AFTER | CK},
    /* object after */ {D, D, POP, D, EASYBAKE_G_OBJECT_KEY, D, D, D},
};
#undef D
#undef PO
#undef PA
#undef POP
#undef CK

/// ``easybake_grammar_by_kind`` by the token's first byte, so that a token
/// costs one lookup (a scalar for any byte but the operators and the
/// quote), 256 entries a state: an entry is the next state's first entry
/// (`state << 8`), with `EASYBAKE_ROW_CHECK` for a scalar, or
/// `EASYBAKE_ROW_ACTION` with one of the actions.
static uint16_t easybake_grammar[9 * 256];

enum {
    EASYBAKE_ROW_CHECK = 0x1000,
    EASYBAKE_ROW_ACTION = 0x2000,
};

/// Filled when the library loads, before any thread can skip.
__attribute__((constructor)) static void easybake_fill_grammar(void) {
    for (int state = 0; state < 9; state++) {
        for (int byte = 0; byte < 256; byte++) {
            int kind = EASYBAKE_T_SCALAR;
            switch (byte) {
            case '{': kind = EASYBAKE_T_OPEN_OBJECT; break;
            case '[': kind = EASYBAKE_T_OPEN_ARRAY; break;
            case '}': kind = EASYBAKE_T_CLOSE_OBJECT; break;
            case ']': kind = EASYBAKE_T_CLOSE_ARRAY; break;
            case ',': kind = EASYBAKE_T_COMMA; break;
            case ':': kind = EASYBAKE_T_COLON; break;
            case '"': kind = EASYBAKE_T_STRING; break;
            default: break;
            }
            uint8_t entry = easybake_grammar_by_kind[state][kind];
            uint16_t row = (uint16_t)((entry & 0x0F) << 8);
            if (entry & EASYBAKE_A_CHECK) row |= EASYBAKE_ROW_CHECK;
            easybake_grammar[state * 256 + byte] = entry >= EASYBAKE_A_PUSH_OBJECT ? EASYBAKE_ROW_ACTION | entry : row;
        }
    }
}

int easybake_json_skip_grammar(int expect, int depth, int inObject) {
    if (depth == 0) return EASYBAKE_G_TOP_VALUE;
    switch (expect) {
    case EASYBAKE_SKIP_EXPECT_FIRST_VALUE_OR_END: return EASYBAKE_G_ARRAY_FIRST;
    case EASYBAKE_SKIP_EXPECT_FIRST_KEY_OR_END: return EASYBAKE_G_OBJECT_FIRST;
    case EASYBAKE_SKIP_EXPECT_KEY: return EASYBAKE_G_OBJECT_KEY;
    case EASYBAKE_SKIP_EXPECT_AFTER_VALUE: return inObject ? EASYBAKE_G_OBJECT_AFTER : EASYBAKE_G_ARRAY_AFTER;
    default: return inObject ? EASYBAKE_G_OBJECT_VALUE : EASYBAKE_G_ARRAY_VALUE;
    }
}

/// Where a skip's grammar stands, kept in registers through a call.
typedef struct {
    /// The grammar's state, as the first of its entries in ``easybake_grammar``.
    size_t row;
    int depth;
    int budget;
    uint64_t objects;
    /// The last token's offset: before a closing quote, its opening quote
    /// (nothing inside a string is a token).
    size_t last;
    size_t written;
    size_t end;
    int plain_numbers;
    /// Whether numbers are read with vector compares (the pass's level is
    /// above the scalar reference).
    int vector;
    /// Where the commas at `mark_depth` go, when the skip marks them
    /// (``easybake_json_skip_marking``), and how many were written.
    size_t *marks;
    size_t marked;
    int mark_depth;
} easybake_skip_walk;

/// Takes the token at `at`, the one at `bit` of the block at `block`
/// (whose scalar bytes are `scalars`): `EASYBAKE_SKIP_MORE` to go on, or
/// what ends the skip.
__attribute__((always_inline)) static inline int easybake_skip_token(easybake_skip_walk *walk, const uint8_t *base,
                                                                    size_t count, size_t at, const uint8_t *block,
                                                                    int bit, uint64_t scalars, uint64_t *checks,
                                                                    int marking, size_t mark_limit) {
    uint8_t byte = block[bit];
    unsigned next = easybake_grammar[walk->row + byte];
    walk->last = at;
    if (next < EASYBAKE_ROW_ACTION) {
        if (marking && byte == ',' && walk->depth == walk->mark_depth) {
            walk->marks[walk->marked++] = at;
            if (marking == 2 && walk->marked == mark_limit) {
                walk->end = at + 1;
                return EASYBAKE_SKIP_MARKED;
            }
        }
        if (next & EASYBAKE_ROW_CHECK) {
            if (!easybake_scalar_checked(block, bit, scalars, base, at, count, byte, walk->plain_numbers, walk->vector))
                checks[walk->written++] = (uint64_t)at;
            next ^= EASYBAKE_ROW_CHECK;
        }
        walk->row = next;
        return EASYBAKE_SKIP_MORE;
    }
    next &= 0xFF;
    switch (next) {
    case EASYBAKE_A_PUSH_OBJECT:
    case EASYBAKE_A_PUSH_ARRAY:
        if (walk->depth >= walk->budget) return EASYBAKE_SKIP_DECLINED;
        walk->depth += 1;
        if (next == EASYBAKE_A_PUSH_OBJECT) {
            walk->objects |= (uint64_t)1 << walk->depth;
            walk->row = EASYBAKE_G_OBJECT_FIRST << 8;
        } else {
            walk->objects &= ~((uint64_t)1 << walk->depth);
            walk->row = EASYBAKE_G_ARRAY_FIRST << 8;
        }
        return EASYBAKE_SKIP_MORE;
    case EASYBAKE_A_POP:
        walk->depth -= 1;
        if (walk->depth == 0) {
            walk->end = at + 1;
            return EASYBAKE_SKIP_ENDED;
        }
        walk->row = ((walk->objects >> walk->depth) & 1 ? EASYBAKE_G_OBJECT_AFTER : EASYBAKE_G_ARRAY_AFTER) << 8;
        return EASYBAKE_SKIP_MORE;
    default:
        return EASYBAKE_SKIP_DECLINED;
    }
}

/// ``easybake_json_skip`` but for the plain strings, which it takes out
/// of the checks afterwards; with `marking` (a constant in each of its
/// uses, so that a skip that does not mark pays nothing for it), the
/// commas at `mark_depth` are written to `marks`, while 64 more fit
/// `mark_room`, and with `marking` 2 the skip stops at the `mark_limit`-th.
__attribute__((always_inline)) static inline int easybake_json_skip_blocks_at(
    const uint8_t *base, size_t count, int level, easybake_json_skip_state *state, uint64_t *checks, size_t room,
    size_t *check_count, size_t *end, int marking, size_t *marks, size_t mark_room, size_t *mark_count,
    int mark_depth, size_t mark_limit) {
    easybake_classifier classify = easybake_classifier_for(easybake_runnable_level(level));
    easybake_skip_walk walk = {
        (size_t)state->grammar << 8, state->depth, state->budget, state->objects, state->open, 0, 0,
        state->plain_numbers, easybake_runnable_level(level) > 0, marks, 0, mark_depth};
    size_t maxString = state->max_string;
    // Strings shorter than a block fit any limit of a block or more: then
    // only a string that crosses into a block is measured, and only when
    // it may have reached the limit.
    int measureAll = maxString < 64;
    int result = EASYBAKE_SKIP_MORE;
    uint8_t tail[64];
    size_t i = state->next;
    // A block writes at most a check per byte, and two for a string open
    // when it starts.
    while (i < count && room - walk.written >= 66 && (!marking || mark_room - walk.marked >= 64)) {
        uint64_t valid;
        const uint8_t *block = easybake_block_at(base, i, count, tail, &valid);
        easybake_block_classes c;
        classify(block, &c);
        easybake_block_structure found = easybake_structure(&c, valid, &state->pass);
        uint64_t measured = found.closing;
        if (!measureAll) {
            int mayBeOver = found.carried != 0 && i + 64 - walk.last > maxString;
            measured = mayBeOver ? found.closing & (0 - found.closing) : 0;
        }
        // Closing quotes are tokens only when they need a look: a string
        // with a special byte, or one that may be over the limit.
        uint64_t closes = found.flagged | measured;
        uint64_t tokens = found.tokens & ~(found.closing & ~closes);
        if (closes == 0) {
            for (; tokens != 0; tokens &= tokens - 1) {
                int bit = __builtin_ctzll(tokens);
                result = easybake_skip_token(&walk, base, count, i + (size_t)bit, block, bit, found.scalars, checks,
                                             marking, mark_limit);
                if (result != EASYBAKE_SKIP_MORE) goto done;
            }
        } else {
            for (; tokens != 0; tokens &= tokens - 1) {
                int bit = __builtin_ctzll(tokens);
                size_t at = i + (size_t)bit;
                if ((closes >> bit) & 1) {
                    if (at - walk.last - 1 > maxString) {
                        result = EASYBAKE_SKIP_DECLINED;
                        goto done;
                    }
                    if ((found.flagged >> bit) & 1) {
                        checks[walk.written++] = (uint64_t)walk.last | EASYBAKE_SKIP_CHECK_STRING;
                        checks[walk.written++] = (uint64_t)at;
                    }
                    continue;
                }
                result =
                    easybake_skip_token(&walk, base, count, at, block, bit, found.scalars, checks, marking, mark_limit);
                if (result != EASYBAKE_SKIP_MORE) goto done;
            }
        }
        i += 64;
    }
done:
    state->next = i;
    state->grammar = (int)(walk.row >> 8);
    state->depth = walk.depth;
    state->objects = walk.objects;
    state->open = walk.last;
    *check_count = walk.written;
    *end = walk.end;
    if (marking) *mark_count = walk.marked;
    return result;
}

/// The skip's block loop as it is compiled without marks. Not inlined into
/// ``easybake_json_skip``, so that the loop is compiled as it is without the
/// plain strings' drop.
__attribute__((noinline)) static int easybake_json_skip_blocks(const uint8_t *base, size_t count, int level,
                                                              easybake_json_skip_state *state, uint64_t *checks,
                                                              size_t room, size_t *check_count, size_t *end) {
    return easybake_json_skip_blocks_at(base, count, level, state, checks, room, check_count, end, 0, NULL, 0, NULL,
                                        0, 0);
}

/// The skip's block loop with marks; and with a limit to them, compiled
/// apart (the two loops in one function cost the one without a limit 5%
/// more instructions).
__attribute__((noinline)) static int easybake_json_skip_marking_blocks(
    const uint8_t *base, size_t count, int level, easybake_json_skip_state *state, uint64_t *checks, size_t room,
    size_t *check_count, size_t *end, size_t *marks, size_t mark_room, size_t *mark_count, int mark_depth) {
    return easybake_json_skip_blocks_at(base, count, level, state, checks, room, check_count, end, 1, marks,
                                        mark_room, mark_count, mark_depth, 0);
}

__attribute__((noinline)) static int easybake_json_skip_limited_blocks(
    const uint8_t *base, size_t count, int level, easybake_json_skip_state *state, uint64_t *checks, size_t room,
    size_t *check_count, size_t *end, size_t *marks, size_t mark_room, size_t *mark_count, int mark_depth,
    size_t mark_limit) {
    return easybake_json_skip_blocks_at(base, count, level, state, checks, room, check_count, end, 2, marks,
                                        mark_room, mark_count, mark_depth, mark_limit);
}

int easybake_json_skip_marking(const uint8_t *base, size_t count, int level, easybake_json_skip_state *state,
                               uint64_t *checks, size_t room, size_t *check_count, size_t *end, size_t *marks,
                               size_t mark_room, size_t *mark_count, int mark_depth, size_t mark_limit) {
    int result = mark_limit > 0
                     ? easybake_json_skip_limited_blocks(base, count, level, state, checks, room, check_count, end,
                                                         marks, mark_room, mark_count, mark_depth, mark_limit)
                     : easybake_json_skip_marking_blocks(base, count, level, state, checks, room, check_count, end,
                                                         marks, mark_room, mark_count, mark_depth);
    if (result != EASYBAKE_SKIP_DECLINED)
        *check_count = easybake_skip_drop_plain(base, count, easybake_runnable_level(level), checks, *check_count);
    return result;
}

int easybake_json_skip(const uint8_t *base, size_t count, int level, easybake_json_skip_state *state,
                       uint64_t *checks, size_t room, size_t *check_count, size_t *end) {
    int result = easybake_json_skip_blocks(base, count, level, state, checks, room, check_count, end);
    // Special strings that are plain text (most often non-ASCII text
    // without escapes) need no look: what is left goes to the caller's
    // byte walk, which decodes it or words its error. (A declined skip's
    // checks are not read.)
    if (result != EASYBAKE_SKIP_DECLINED)
        *check_count = easybake_skip_drop_plain(base, count, easybake_runnable_level(level), checks, *check_count);
    return result;
}

/// Sets an extra's two 32-bit words at once.
__attribute__((always_inline)) static inline void easybake_store_counts(easybake_index_extra *extra, uint32_t low, uint32_t high) {
    uint64_t both = (uint64_t)high << 32 | low;
    memcpy(&extra->low, &both, sizeof both);
}

/// The entry of a string or number of `length` bytes at `offset`: both in
/// the word when they fit, else in an extra written at `*t` (a wide entry).
static inline uint64_t easybake_scalar_entry(easybake_index_extra *extras, size_t *t, uint8_t kind, uint8_t wide,
                                             size_t offset, size_t length) {
    if (offset < EASYBAKE_INDEX_START_LIMIT && length < ((size_t)1 << EASYBAKE_INDEX_START_SHIFT))
        return (uint64_t)kind << 56 | (uint64_t)offset << EASYBAKE_INDEX_START_SHIFT | (uint64_t)length;
    extras[*t].offset = offset;
    extras[*t].low = (uint32_t)length;
    extras[*t].high = 0;
    return (uint64_t)(kind | wide) << 56 | (uint64_t)(*t)++;
}

/// Writes the entry of the string whose quotes are at `open` and `close`
/// (`special` when the string needs the caller's check), or returns 0 when
/// it is longer than `max`. `fits` is the longest whose entry holds it,
/// when every offset of the input fits one (else 0).
__attribute__((always_inline)) static inline int easybake_index_string(uint64_t *entries, size_t *n, easybake_index_extra *extras, size_t *t,
                                        easybake_json_index_check *checks, size_t *written, size_t open, size_t close,
                                        uint64_t special, size_t max, size_t fits, easybake_index_kinds kinds) {
    size_t length = close - open - 1;
    // One test in the usual case: short, in an input whose offsets fit.
    if (__builtin_expect(length <= fits, 1)) {
        entries[*n] = (uint64_t)kinds.string << 56 | (uint64_t)open << EASYBAKE_INDEX_START_SHIFT | (uint64_t)length;
    } else {
        if (length > max) return 0;
        entries[*n] = easybake_scalar_entry(extras, t, kinds.string, kinds.wide_flag, open, length);
    }
    if (special) {
        checks[*written].at = (uint64_t)open | EASYBAKE_SKIP_CHECK_STRING;
        checks[*written].entry = *n;
        *written += 1;
    }
    *n += 1;
    return 1;
}

// The build's states, where it stops for room and goes on from: each is
// the point where the next token is fetched.
enum {
    EASYBAKE_I_TOP = 0,           // the value: `{` or `[`
    EASYBAKE_I_OBJECT_FIRST = 1,  // after `{`: a key or `}`
    EASYBAKE_I_KEY_CLOSE = 2,     // a key's closing quote
    EASYBAKE_I_COLON = 3,         // after a key: `:`
    EASYBAKE_I_VALUE = 4,         // after `:`, or `,` in an array: a value
    EASYBAKE_I_STRING_CLOSE = 5,  // a string value's closing quote
    EASYBAKE_I_OBJECT_AFTER = 6,  // after a member: `,` or `}`
    EASYBAKE_I_OBJECT_KEY = 7,    // after `,` in an object: a key
    EASYBAKE_I_ARRAY_FIRST = 8,   // after `[`: a value or `]`
    EASYBAKE_I_ARRAY_AFTER = 9,   // after an element: `,` or `]`
    EASYBAKE_I_LEFT_SKIP = 10,    // pruning: after the key of a member no path needs
};

/// A member no path needs (``easybake_pick_member_state``).
#define EASYBAKE_PICK_LEFT_OUT (-2)

/// The state the values of a container read in `state` are read in, as
/// `PathMatcher.Picking.state(ofContainerIn:isDictionary:)` says: -1 (kept
/// whole) below a state where a path ends.
static inline int32_t easybake_pick_container_state(const easybake_picking *picking, int32_t state, int is_object) {
    if (state < 0 || picking->states[state].terminal) return -1;
    return is_object ? picking->states[state].picking_state : state;
}

/// The state element `offset` of an array whose values are read in
/// `state` is read in (`state(ofElement:ofArrayIn:)`).
static inline int32_t easybake_pick_element_state(const easybake_picking *picking, int32_t state, uint32_t offset) {
    if (state < 0) return -1;
    const easybake_pick_state *info = &picking->states[state];
    for (int32_t k = info->elements_start, end = k + info->elements_count; k < end; k++)
        if ((int64_t)picking->elements[k].index == (int64_t)offset) return picking->elements[k].target;
    return info->other_elements;
}

/// The state the member keyed by the `length` bytes at `key` is read in,
/// in a dictionary whose members are picked in `state` (at least 0), or
/// ``EASYBAKE_PICK_LEFT_OUT`` (`state(ofMember:ofDictionaryIn:)`).
__attribute__((always_inline)) static inline int32_t easybake_pick_member_state(const easybake_picking *picking,
                                                                                int32_t state, const uint8_t *key,
                                                                                size_t length) {
    const easybake_pick_state *info = &picking->states[state];
    for (int32_t k = info->keys_start, end = k + info->keys_count; k < end; k++) {
        easybake_pick_key candidate = picking->keys[k];
        // Most keys differ in length or first byte from every wanted one.
        if ((size_t)candidate.length != length) continue;
        const uint8_t *bytes = picking->bytes + candidate.bytes_start;
        if (length == 0 || (bytes[0] == key[0] && memcmp(bytes, key, length) == 0)) return candidate.target;
    }
    return info->other_members >= 0 ? info->other_members : EASYBAKE_PICK_LEFT_OUT;
}

/// ``easybake_json_index`` but for the plain strings, which it takes out
/// of the checks afterwards; with `pruning` (a constant in each of its two
/// uses, so that a whole build pays nothing for it), as `state->picking`
/// says.
__attribute__((always_inline)) static inline int easybake_json_index_blocks_at(
    const uint8_t *base, size_t count, int level, easybake_json_index_state *state, uint64_t *entries,
    size_t entry_room, size_t *entry_count, easybake_index_extra *extras, size_t extra_room, size_t *extra_count,
    easybake_json_index_check *checks, size_t check_room, size_t *check_count, size_t *end, const int pruning) {
    easybake_classifier classify = easybake_classifier_for(easybake_runnable_level(level));
    const int vectorNumbers = easybake_runnable_level(level) > 0;
    // A string's length must fit its entry as well as the limit.
    const size_t maxString = state->max_string < UINT32_MAX ? state->max_string : UINT32_MAX;
    // Below 64 GiB every offset fits an entry, and a string of up to
    // `fits` bytes (and the limit) does.
    const int nearInput = count < EASYBAKE_INDEX_START_LIMIT;
    const size_t entryLength = ((size_t)1 << EASYBAKE_INDEX_START_SHIFT) - 1;
    const size_t fits = !nearInput ? 0 : maxString < entryLength ? maxString : entryLength;
    const size_t maxNodes = state->max_nodes;
    const int budget = state->budget;
    const int plainNumbers = state->plain_numbers;
    const easybake_index_kinds kinds = state->kinds;
    // A container's extra must fit below its span (else the caller's walk
    // makes it wide).
    const uint64_t ordinalLimit = (uint64_t)1 << EASYBAKE_INDEX_EXTRA_SHIFT;
    uint64_t *stack = state->stack;
    uint32_t *elements = state->elements;
    uint8_t *objects = state->objects;
    int depth = state->depth;
    size_t nodes = state->nodes;
    size_t open = state->open;
    const easybake_picking *picking = state->picking;
    int32_t *picks = state->picks;
    int32_t memberState = state->member_state;
    int skipDepth = state->skip_depth;
    unsigned skipRow = state->skip_row;
    uint64_t skipObjects = state->skip_objects;
    size_t n = *entry_count;
    size_t t = *extra_count;
    size_t written = 0;
    size_t i = state->next;
    int result = EASYBAKE_SKIP_MORE;
    // The block read last, from `i - 64`: its tokens not yet taken, and the
    // closing quotes of strings the caller checks.
    uint8_t tail[64];
    const uint8_t *block = tail;
    uint64_t tokens = 0;
    uint64_t flagged = 0;
    uint64_t closing = 0;
    uint64_t scalars = 0;
    size_t at = 0;
    int bit = 0;
    uint8_t byte = 0;

    // The state is the place in the code: the token each place expects is
    // predicted as branches are, where a table lookup per token would make
    // each wait for the one before. Tokens are taken from the block's
    // bitmap as they are needed (a batch of positions written first and
    // read back was slower); a block writes at most an entry and a check
    // per byte, so the build stops for room only between blocks.
#define EASYBAKE_NEXT(place)                                                          \
    while (tokens == 0) {                                                             \
        if (i >= count) goto decline;                                                 \
        if (entry_room - n < 64 || extra_room - t < 64 || check_room - written < 64) { \
            state->resume = (place);                                                  \
            goto done;                                                                \
        }                                                                             \
        /* A container's extra past 2^28 would not fit its entry. */                  \
        if (t > ordinalLimit - 64) goto decline;                                      \
        uint64_t valid;                                                               \
        block = easybake_block_at(base, i, count, tail, &valid);                      \
        easybake_block_classes c;                                                     \
        classify(block, &c);                                                          \
        easybake_block_structure found = easybake_structure(&c, valid, &state->pass); \
        tokens = found.tokens;                                                        \
        flagged = found.flagged;                                                      \
        closing = found.closing;                                                      \
        scalars = found.scalars;                                                      \
        i += 64;                                                                      \
    }                                                                                 \
    bit = __builtin_ctzll(tokens);                                                    \
    tokens &= tokens - 1;                                                             \
    at = i - 64 + (size_t)bit;                                                        \
    byte = block[bit];

    switch (state->resume) {
    case EASYBAKE_I_TOP: goto top;
    case EASYBAKE_I_OBJECT_FIRST: goto object_first;
    case EASYBAKE_I_KEY_CLOSE: goto key_close;
    case EASYBAKE_I_COLON: goto colon;
    case EASYBAKE_I_VALUE: goto value;
    case EASYBAKE_I_STRING_CLOSE: goto string_close;
    case EASYBAKE_I_OBJECT_AFTER: goto object_after;
    case EASYBAKE_I_OBJECT_KEY: goto object_key;
    case EASYBAKE_I_ARRAY_FIRST: goto array_first;
    case EASYBAKE_I_ARRAY_AFTER: goto array_after;
    // Only a pruned build stops there: the whole one compiles no skip.
    case EASYBAKE_I_LEFT_SKIP:
        if (pruning) goto left_skip;
        goto decline;
    default: goto decline;
    }

top:
    EASYBAKE_NEXT(EASYBAKE_I_TOP)
    if (byte == '{') goto open_object;
    if (byte == '[') goto open_array;
    goto decline;

    // Opens the container at `at`: written once for both kinds, expanded
    // in each (a shared label and a branch on the kind cost 2% more
    // instructions on a streamed selective read).
#define EASYBAKE_OPEN(kind, isObject)                                           \
    if (depth >= budget || ++nodes > maxNodes) goto decline;                    \
    if (pruning) {                                                              \
        int32_t valueState = depth == 0           ? state->root_state            \
                             : objects[depth - 1] ? memberState                  \
                                                  : easybake_pick_element_state( \
                                                        picking, picks[depth - 1], elements[depth - 1]); \
        picks[depth] = easybake_pick_container_state(picking, valueState, (isObject)); \
    }                                                                           \
    if (depth > 0) elements[depth - 1]++;                                       \
    extras[t].offset = at;                                                      \
    entries[n] = (uint64_t)(kind) << 56 | (uint64_t)t << EASYBAKE_INDEX_EXTRA_SHIFT; \
    t++;                                                                        \
    stack[depth] = n;                                                           \
    elements[depth] = 0;                                                        \
    objects[depth] = (isObject);                                                \
    depth++;                                                                    \
    n++;

open_object:
    EASYBAKE_OPEN(kinds.dictionary, 1)
object_first:
    EASYBAKE_NEXT(EASYBAKE_I_OBJECT_FIRST)
    if (byte == '"') goto key;
    if (byte == '}') goto close;
    goto decline;

key:
    open = at;
key_close:
    EASYBAKE_NEXT(EASYBAKE_I_KEY_CLOSE)
    {
        // Nothing inside a string is a position: this is its closing quote.
        size_t keyEntry = n, keyExtra = t, keyCheck = written;
        int special = (flagged >> bit) & 1;
        if (!easybake_index_string(entries, &n, extras, &t, checks, &written, open, at, special, maxString, fits,
                                   kinds))
            goto decline;
        if (pruning) {
            int32_t dictionaryState = picks[depth - 1];
            memberState = -1;
            if (dictionaryState >= 0) {
                // The key is matched as its bytes are: an escape is the byte walk's to decode.
                if (special && !easybake_json_plain_string(base, open, at, count, level)) goto decline;
                memberState = easybake_pick_member_state(picking, dictionaryState, base + open + 1, at - open - 1);
                if (memberState == EASYBAKE_PICK_LEFT_OUT) {
                    // Taken back: the key's entry, extra and check.
                    n = keyEntry;
                    t = keyExtra;
                    written = keyCheck;
                    skipDepth = 0;
                    skipRow = EASYBAKE_G_OBJECT_COLON << 8;
                    goto left_skip;
                }
            }
        }
    }
colon:
    EASYBAKE_NEXT(EASYBAKE_I_COLON)
    if (byte != ':') goto decline;
value:
    EASYBAKE_NEXT(EASYBAKE_I_VALUE)
value_token:
    // Tests rather than a jump table, most frequent first: each is a
    // branch predicted on its own history.
    if (byte == '"') {
        if (++nodes > maxNodes) goto decline;
        elements[depth - 1]++;
        open = at;
        goto string_close;
    }
    if ((byte >= '0' && byte <= '9') || byte == '-') {
        if (++nodes > maxNodes) goto decline;
        elements[depth - 1]++;
        int isInteger = 1;
        size_t length =
            plainNumbers ? easybake_number_in_run(block, bit, scalars, base, at, count, vectorNumbers, &isInteger) : 0;
        uint8_t kind = isInteger ? kinds.integer : kinds.float_value;
        // A number is at most 32 bytes here (0 when the caller completes it).
        entries[n] = __builtin_expect(nearInput, 1)
                         ? (uint64_t)kind << 56 | (uint64_t)at << EASYBAKE_INDEX_START_SHIFT | (uint64_t)length
                         : easybake_scalar_entry(extras, &t, kind, kinds.wide_flag, at, length);
        if (length == 0) {
            // Any other number's grammar, length and kind are the caller's.
            checks[written].at = (uint64_t)at;
            checks[written].entry = n;
            written++;
        }
        n++;
        goto after_value;
    }
    if (byte == '{') goto open_object;
    if (byte == '[') goto open_array;
    {
        if (!easybake_literal_in_run(block, bit, scalars, base, at, count, byte)) goto decline;
        uint8_t kind = byte == 't' ? kinds.true_value : byte == 'f' ? kinds.false_value : kinds.null_value;
        if (++nodes > maxNodes) goto decline;
        elements[depth - 1]++;
        entries[n] = (uint64_t)kind << 56 | (uint64_t)at;
        n++;
        goto after_value;
    }

string_close:
    EASYBAKE_NEXT(EASYBAKE_I_STRING_CLOSE)
    if (!easybake_index_string(entries, &n, extras, &t, checks, &written, open, at, (flagged >> bit) & 1, maxString,
                               fits, kinds))
        goto decline;
after_value:
    if (!objects[depth - 1]) goto array_after;
object_after:
    EASYBAKE_NEXT(EASYBAKE_I_OBJECT_AFTER)
    if (byte == ',') goto object_key;
    if (byte == '}') goto close;
    goto decline;
object_key:
    EASYBAKE_NEXT(EASYBAKE_I_OBJECT_KEY)
    if (byte == '"') goto key;
    goto decline;

open_array:
    EASYBAKE_OPEN(kinds.array, 0)
array_first:
    EASYBAKE_NEXT(EASYBAKE_I_ARRAY_FIRST)
    if (byte == ']') goto close;
    goto value_token;
array_after:
    EASYBAKE_NEXT(EASYBAKE_I_ARRAY_AFTER)
    if (byte == ',') goto value;
    if (byte == ']') goto close;
    goto decline;

    // A member no path needs: from its colon to the end of its value, it
    // is followed as the skip follows one (`easybake_json_skip`), by the
    // same grammar table, and writes no entry; what C does not check goes
    // to the caller unwritten. Its dictionary does not count it, nor does
    // the node limit. `skipDepth` 0 is the member's own level: a scalar, a
    // string's closing quote or a container's end there ends the value.
left_skip:
    EASYBAKE_NEXT(EASYBAKE_I_LEFT_SKIP)
    if ((closing >> bit) & 1) {
        if (at - open - 1 > maxString) goto decline;
        if ((flagged >> bit) & 1) {
            checks[written].at = (uint64_t)open | EASYBAKE_SKIP_CHECK_STRING;
            checks[written].entry = EASYBAKE_INDEX_CHECK_UNWRITTEN | (uint64_t)at;
            written++;
        }
        if (skipDepth == 0) goto object_after;
        goto left_skip;
    }
    {
        unsigned next = easybake_grammar[skipRow + byte];
        if (byte == '"') open = at;
        if (next < EASYBAKE_ROW_ACTION) {
            skipRow = next & ~(unsigned)EASYBAKE_ROW_CHECK;
            if (next & EASYBAKE_ROW_CHECK) {
                if (!easybake_scalar_checked(block, bit, scalars, base, at, count, byte, plainNumbers, vectorNumbers)) {
                    checks[written].at = (uint64_t)at;
                    checks[written].entry = EASYBAKE_INDEX_CHECK_UNWRITTEN;
                    written++;
                }
                if (skipDepth == 0) goto object_after;
            }
            goto left_skip;
        }
        next &= 0xFF;
        if (next == EASYBAKE_A_PUSH_OBJECT || next == EASYBAKE_A_PUSH_ARRAY) {
            // As deep as the byte walk's quick skip goes (62 levels, within
            // the depth limit); deeper, it keeps the member whole.
            if (skipDepth >= 62 || depth + skipDepth >= budget) goto decline;
            skipDepth++;
            if (next == EASYBAKE_A_PUSH_OBJECT) {
                skipObjects |= (uint64_t)1 << skipDepth;
                skipRow = EASYBAKE_G_OBJECT_FIRST << 8;
            } else {
                skipObjects &= ~((uint64_t)1 << skipDepth);
                skipRow = EASYBAKE_G_ARRAY_FIRST << 8;
            }
            goto left_skip;
        }
        if (next == EASYBAKE_A_POP) {
            skipDepth--;
            if (skipDepth == 0) goto object_after;
            skipRow = ((skipObjects >> skipDepth) & 1 ? EASYBAKE_G_OBJECT_AFTER : EASYBAKE_G_ARRAY_AFTER) << 8;
            goto left_skip;
        }
        goto decline;
    }

close: {
    // `}` closes only an object and `]` only an array: each state that
    // goes here has checked it.
    depth--;
    uint64_t position = stack[depth];
    uint64_t span = n - position - 1;
    if (span > UINT32_MAX) goto decline;
    uint64_t word = entries[position];
    uint64_t ordinal = word >> EASYBAKE_INDEX_EXTRA_SHIFT & (ordinalLimit - 1);
    // One entry per element: compact, with no extra (given back when it is
    // the last), as `IngredientIndex.Storage.compacted(_:firstElement:span:)` makes it.
    if (span != 0 && span == ((uint64_t)elements[depth] << objects[depth]) && span < ordinalLimit) {
        // The first element begins at the first byte after the bracket that
        // is not white space: its offset, as its entry holds it, less the
        // bracket's is the distance (1, unless the input is indented).
        uint64_t bracket = extras[ordinal].offset;
        uint64_t first = bracket + 1;
        if (pruning && objects[depth]) {
            // The first member kept may come after members left out: its
            // key's opening quote, as its entry holds it.
            uint64_t key = entries[position + 1];
            first = (uint8_t)(key >> 56) & kinds.wide_flag ? extras[key & (((uint64_t)1 << 56) - 1)].offset
                                                           : key >> EASYBAKE_INDEX_START_SHIFT & (EASYBAKE_INDEX_START_LIMIT - 1);
        } else {
            while (base[first] == ' ' || base[first] == '\n' || base[first] == '\r' || base[first] == '\t') first++;
        }
        uint64_t gap = first - bracket;
        if (gap < ordinalLimit) {
            entries[position] = (word & ~(((uint64_t)1 << 56) - 1)) | (uint64_t)kinds.compact_flag << 56
                                | gap << EASYBAKE_INDEX_EXTRA_SHIFT | span;
            if (t == ordinal + 1) t = ordinal;
            goto closed;
        }
    }
    // The element count and the span, in one store.
    easybake_store_counts(&extras[ordinal], elements[depth], (uint32_t)span);
    if (__builtin_expect(span < ordinalLimit, 1)) {
        entries[position] = word | span;
    } else {
        entries[position] = (word & ~(((uint64_t)1 << 56) - 1)) | (uint64_t)kinds.wide_flag << 56 | ordinal;
    }
closed:
    if (depth == 0) {
        *end = at + 1;
        result = EASYBAKE_SKIP_ENDED;
        goto done;
    }
    goto after_value;
}
#undef EASYBAKE_NEXT
#undef EASYBAKE_OPEN

decline:
    result = EASYBAKE_SKIP_DECLINED;
done:
    state->next = i;
    state->depth = depth;
    state->nodes = nodes;
    state->open = open;
    if (pruning) {
        state->member_state = memberState;
        state->skip_depth = skipDepth;
        state->skip_row = skipRow;
        state->skip_objects = skipObjects;
    }
    *entry_count = n;
    *extra_count = t;
    *check_count = written;
    return result;
}

/// The build's token loop as it is compiled for a whole value, and for a
/// pruned one. Not inlined into ``easybake_json_index``, so that the loop
/// is compiled as it is without the plain strings' drop.
__attribute__((noinline)) static int easybake_json_index_blocks(
    const uint8_t *base, size_t count, int level, easybake_json_index_state *state, uint64_t *entries,
    size_t entry_room, size_t *entry_count, easybake_index_extra *extras, size_t extra_room, size_t *extra_count,
    easybake_json_index_check *checks, size_t check_room, size_t *check_count, size_t *end) {
    return easybake_json_index_blocks_at(base, count, level, state, entries, entry_room, entry_count, extras,
                                         extra_room, extra_count, checks, check_room, check_count, end, 0);
}

__attribute__((noinline)) static int easybake_json_index_pruned_blocks(
    const uint8_t *base, size_t count, int level, easybake_json_index_state *state, uint64_t *entries,
    size_t entry_room, size_t *entry_count, easybake_index_extra *extras, size_t extra_room, size_t *extra_count,
    easybake_json_index_check *checks, size_t check_room, size_t *check_count, size_t *end) {
    return easybake_json_index_blocks_at(base, count, level, state, entries, entry_room, entry_count, extras,
                                         extra_room, extra_count, checks, check_room, check_count, end, 1);
}

int easybake_json_index(const uint8_t *base, size_t count, int level, easybake_json_index_state *state,
                        uint64_t *entries, size_t entry_room, size_t *entry_count, easybake_index_extra *extras,
                        size_t extra_room, size_t *extra_count, easybake_json_index_check *checks,
                        size_t check_room, size_t *check_count, size_t *end) {
    int result = state->picking != NULL
                     ? easybake_json_index_pruned_blocks(base, count, level, state, entries, entry_room, entry_count,
                                                         extras, extra_room, extra_count, checks, check_room,
                                                         check_count, end)
                     : easybake_json_index_blocks(base, count, level, state, entries, entry_room, entry_count, extras,
                                                  extra_room, extra_count, checks, check_room, check_count, end);
    // As in ``easybake_json_skip``: a plain special string's entry is
    // already what the caller would leave it.
    if (result != EASYBAKE_SKIP_DECLINED)
        *check_count = easybake_index_drop_plain(base, count, easybake_runnable_level(level), entries, extras,
                                                 state->kinds.wide_flag, checks, *check_count);
    return result;
}
