// Most scanning functions are static inline in the header. This file holds
// the JSON structural pass, which is called once per run of blocks rather
// than once per token, so a call costs nothing worth inlining, and which
// picks its vector instructions when it runs (AVX2 needs a per-function
// target attribute, which an inline header function would spread to its
// callers).
#include "CEasyBakeScanning.h"

#include <stdlib.h>

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
__attribute__((target("avx2"))) static void easybake_classify_avx2(const uint8_t *block,
                                                                   easybake_block_classes *c) {
    const __m256i quote = _mm256_set1_epi8('"');
    const __m256i backslash = _mm256_set1_epi8('\\');
    const __m256i fold = _mm256_set1_epi8(0x20);
    const __m256i open = _mm256_set1_epi8('{');
    const __m256i close = _mm256_set1_epi8('}');
    const __m256i colon = _mm256_set1_epi8(':');
    const __m256i comma = _mm256_set1_epi8(',');
    const __m256i space = _mm256_set1_epi8(' ');
    const __m256i tab = _mm256_set1_epi8('\t');
    const __m256i newline = _mm256_set1_epi8('\n');
    const __m256i carriage = _mm256_set1_epi8('\r');
    const __m256i control = _mm256_set1_epi8(0x1F);
    uint64_t q = 0, b = 0, o = 0, w = 0, s = 0;
    for (int k = 0; k < 2; k++) {
        __m256i bytes = _mm256_loadu_si256((const __m256i *)(block + 32 * k));
        __m256i folded = _mm256_or_si256(bytes, fold);
        __m256i isBackslash = _mm256_cmpeq_epi8(bytes, backslash);
        __m256i ops = _mm256_or_si256(_mm256_cmpeq_epi8(folded, open), _mm256_cmpeq_epi8(folded, close));
        ops = _mm256_or_si256(ops, _mm256_or_si256(_mm256_cmpeq_epi8(bytes, colon), _mm256_cmpeq_epi8(bytes, comma)));
        __m256i blank = _mm256_or_si256(_mm256_cmpeq_epi8(bytes, space), _mm256_cmpeq_epi8(bytes, tab));
        blank = _mm256_or_si256(
            blank, _mm256_or_si256(_mm256_cmpeq_epi8(bytes, newline), _mm256_cmpeq_epi8(bytes, carriage)));
        __m256i special =
            _mm256_or_si256(_mm256_cmpeq_epi8(_mm256_min_epu8(bytes, control), bytes), isBackslash);
        int shift = 32 * k;
        q |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(bytes, quote)) << shift;
        b |= (uint64_t)(uint32_t)_mm256_movemask_epi8(isBackslash) << shift;
        o |= (uint64_t)(uint32_t)_mm256_movemask_epi8(ops) << shift;
        w |= (uint64_t)(uint32_t)_mm256_movemask_epi8(blank) << shift;
        s |= (uint64_t)(uint32_t)(_mm256_movemask_epi8(special) | _mm256_movemask_epi8(bytes)) << shift;
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

size_t easybake_json_structurals(const uint8_t *base, size_t start, size_t count, size_t blocks, int level,
                                 easybake_json_structural_state *state, uint32_t *out) {
    // A level the machine lacks runs as the best one it has.
    if (level > 0) {
        int best = easybake_json_machine_level();
        if (level > best) level = best;
    }
    uint32_t *written = out;
    uint8_t tail[64];
    for (size_t n = 0; n < blocks; n++) {
        size_t i = start + 64 * n;
        if (i >= count) break;
        const uint8_t *block = base + i;
        uint64_t valid = ~(uint64_t)0;
        if (count - i < 64) {
            // The padding is masked out below, whatever it is classed as.
            memset(tail, ' ', sizeof tail);
            memcpy(tail, base + i, count - i);
            block = tail;
            valid = easybake_bits_below((int)(count - i));
        }
        easybake_block_classes c;
        if (level == 0) {
            easybake_classify_scalar(block, &c);
        } else {
#if defined(EASYBAKE_HAS_AVX2_PASS)
            if (level == 2) easybake_classify_avx2(block, &c);
            else easybake_classify_sse2(block, &c);
#elif defined(__SSE2__)
            easybake_classify_sse2(block, &c);
#elif defined(__ARM_NEON) && defined(__aarch64__)
            easybake_classify_neon(block, &c);
#else
            easybake_classify_scalar(block, &c);
#endif
        }
        uint64_t escaped = easybake_json_escaped(c.backslashes, &state->escape_carry);
        uint64_t quotes = c.quotes & ~escaped;
        // Opening quotes and the bytes after them, up to each closing quote.
        uint64_t inside = easybake_prefix_xor(quotes) ^ state->in_string;
        state->in_string = (uint64_t)((int64_t)inside >> 63);
        uint64_t operators = c.operators & ~inside;
        uint64_t scalars = ~(operators | (c.whitespace & ~inside) | inside | quotes);
        uint64_t scalarStarts = scalars & ~((scalars << 1) | state->scalar_carry);
        state->scalar_carry = scalars >> 63;
        uint64_t tokens = (operators | quotes | scalarStarts) & valid;
        uint64_t specials = c.specials & inside & valid;
        // The closing quotes of strings with a special byte: each special
        // byte flags the first closing quote after it (a string open at the
        // block's start that had one flags the block's first closing quote).
        uint64_t closing = quotes & ~inside & valid;
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
        uint32_t offset = (uint32_t)(i - start);
        // Eight at a time without a branch per position: the slots past the
        // last position are written and then overwritten or ignored.
        size_t found = (size_t)__builtin_popcountll(tokens);
        uint32_t *end = written + found;
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

int easybake_json_skip_positions(const uint8_t *base, size_t origin, const uint32_t *positions, size_t count,
                                 easybake_json_skip_state *state, uint64_t *checks, size_t *check_count,
                                 size_t *end) {
    int expect = state->expect;
    int depth = state->depth;
    uint64_t objects = state->objects;
    size_t written = 0;
    int result = EASYBAKE_SKIP_MORE;
    for (size_t k = 0; k < count; k++) {
        uint32_t raw = positions[k];
        size_t at = origin + (raw & ~EASYBAKE_JSON_STRING_SPECIAL);
        uint8_t byte = base[at];
        switch (expect) {
        case EASYBAKE_SKIP_EXPECT_STRING_VALUE_END:
        case EASYBAKE_SKIP_EXPECT_STRING_KEY_END:
            // The position after an opening quote is its closing quote.
            if (raw & EASYBAKE_JSON_STRING_SPECIAL) {
                checks[written++] = (uint64_t)state->open | EASYBAKE_SKIP_CHECK_STRING;
                checks[written++] = (uint64_t)at;
            } else if (at - state->open - 1 > state->max_string) {
                result = EASYBAKE_SKIP_DECLINED;
                goto done;
            }
            expect = expect == EASYBAKE_SKIP_EXPECT_STRING_KEY_END ? EASYBAKE_SKIP_EXPECT_COLON
                                                                    : EASYBAKE_SKIP_EXPECT_AFTER_VALUE;
            break;
        case EASYBAKE_SKIP_EXPECT_FIRST_VALUE_OR_END:
            if (byte == ']') {
                depth -= 1;
                expect = EASYBAKE_SKIP_EXPECT_AFTER_VALUE;
                break;
            }
            __attribute__((fallthrough));
        case EASYBAKE_SKIP_EXPECT_VALUE:
            switch (byte) {
            case '{':
            case '[':
                if (depth >= state->budget) {
                    result = EASYBAKE_SKIP_DECLINED;
                    goto done;
                }
                depth += 1;
                if (byte == '{') {
                    objects |= (uint64_t)1 << depth;
                    expect = EASYBAKE_SKIP_EXPECT_FIRST_KEY_OR_END;
                } else {
                    objects &= ~((uint64_t)1 << depth);
                    expect = EASYBAKE_SKIP_EXPECT_FIRST_VALUE_OR_END;
                }
                break;
            case '"':
                state->open = at;
                expect = EASYBAKE_SKIP_EXPECT_STRING_VALUE_END;
                break;
            case ']': case '}': case ',': case ':':
                result = EASYBAKE_SKIP_DECLINED;
                goto done;
            default:
                // A number, a literal or stray bytes: the caller reads it.
                checks[written++] = (uint64_t)at;
                expect = EASYBAKE_SKIP_EXPECT_AFTER_VALUE;
                break;
            }
            break;
        case EASYBAKE_SKIP_EXPECT_FIRST_KEY_OR_END:
            if (byte == '}') {
                depth -= 1;
                expect = EASYBAKE_SKIP_EXPECT_AFTER_VALUE;
                break;
            }
            __attribute__((fallthrough));
        case EASYBAKE_SKIP_EXPECT_KEY:
            if (byte != '"') {
                result = EASYBAKE_SKIP_DECLINED;
                goto done;
            }
            state->open = at;
            expect = EASYBAKE_SKIP_EXPECT_STRING_KEY_END;
            break;
        case EASYBAKE_SKIP_EXPECT_COLON:
            if (byte != ':') {
                result = EASYBAKE_SKIP_DECLINED;
                goto done;
            }
            expect = EASYBAKE_SKIP_EXPECT_VALUE;
            break;
        default: {
            // After a value: a comma, or the end of the innermost container.
            int isObject = (int)((objects >> depth) & 1);
            if (byte == ',') {
                expect = isObject ? EASYBAKE_SKIP_EXPECT_KEY : EASYBAKE_SKIP_EXPECT_VALUE;
            } else if (byte == (isObject ? '}' : ']')) {
                depth -= 1;
                if (depth == 0) {
                    *end = at + 1;
                    result = EASYBAKE_SKIP_ENDED;
                    goto done;
                }
            } else {
                result = EASYBAKE_SKIP_DECLINED;
                goto done;
            }
            break;
        }
        }
    }
done:
    state->expect = expect;
    state->depth = depth;
    state->objects = objects;
    *check_count = written;
    return result;
}
