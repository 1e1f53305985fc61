// The structural stage (see CEasyBakeStructural.h).
#include "CEasyBakeStructural.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(_M_X64)
#include <cpuid.h>
#include <immintrin.h>
#define EASYBAKE_X86 1
#elif defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#define EASYBAKE_ARM 1
#endif

/// What a kernel finds in 64 bytes, before any string state is applied.
typedef struct {
    uint64_t quote, backslash, structural, whitespace, special;
} raw_masks;

// MARK: Kernels

/// Byte classes for the scalar kernel, one bit per mask.
enum { C_QUOTE = 1, C_BACKSLASH = 2, C_STRUCTURAL = 4, C_WHITESPACE = 8, C_SPECIAL = 16 };

static uint8_t classes[256];

static void fill_classes(void) {
    for (int b = 0; b < 256; b++) {
        uint8_t c = 0;
        if (b == '"') c |= C_QUOTE;
        if (b == '\\') c |= C_BACKSLASH | C_SPECIAL;
        if (b == '{' || b == '}' || b == '[' || b == ']' || b == ':' || b == ',') c |= C_STRUCTURAL;
        if (b == ' ' || b == '\t' || b == '\n' || b == '\r') c |= C_WHITESPACE;
        if (b < 0x20 || b >= 0x80) c |= C_SPECIAL;
        classes[b] = c;
    }
}

static raw_masks classify_scalar(const uint8_t *p) {
    raw_masks m = {0, 0, 0, 0, 0};
    for (int i = 0; i < 64; i++) {
        uint64_t bit = (uint64_t)1 << i;
        uint8_t c = classes[p[i]];
        if (c & C_QUOTE) m.quote |= bit;
        if (c & C_BACKSLASH) m.backslash |= bit;
        if (c & C_STRUCTURAL) m.structural |= bit;
        if (c & C_WHITESPACE) m.whitespace |= bit;
        if (c & C_SPECIAL) m.special |= bit;
    }
    return m;
}

#if EASYBAKE_X86
// Brackets and braces differ from each other by 0x20 at most in the ways
// that matter here: `[` | 0x20 is `{`, `]` | 0x20 is `}`, and no other
// byte maps onto either, so two comparisons find all four.
static inline __attribute__((always_inline)) raw_masks classify_sse2(const uint8_t *p) {
    raw_masks m = {0, 0, 0, 0, 0};
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    const __m128i lower = _mm_set1_epi8(0x20), open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
    const __m128i colon = _mm_set1_epi8(':'), comma = _mm_set1_epi8(',');
    const __m128i tab = _mm_set1_epi8('\t'), newline = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
    const __m128i control = _mm_set1_epi8(0x1F);
    for (int k = 0; k < 4; k++) {
        __m128i b = _mm_loadu_si128((const __m128i *)(p + 16 * k));
        __m128i folded = _mm_or_si128(b, lower);
        __m128i q = _mm_cmpeq_epi8(b, quote), bs = _mm_cmpeq_epi8(b, backslash);
        __m128i s = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(folded, open), _mm_cmpeq_epi8(folded, close)),
                                 _mm_or_si128(_mm_cmpeq_epi8(b, colon), _mm_cmpeq_epi8(b, comma)));
        __m128i w = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(b, lower), _mm_cmpeq_epi8(b, tab)),
                                 _mm_or_si128(_mm_cmpeq_epi8(b, newline), _mm_cmpeq_epi8(b, cr)));
        // Unsigned "at most 0x1F": the minimum with 0x1F is the byte itself;
        // movemask of the bytes themselves finds those above 0x7F.
        __m128i c = _mm_or_si128(bs, _mm_cmpeq_epi8(_mm_min_epu8(b, control), b));
        int shift = 16 * k;
        m.quote |= (uint64_t)(uint16_t)_mm_movemask_epi8(q) << shift;
        m.backslash |= (uint64_t)(uint16_t)_mm_movemask_epi8(bs) << shift;
        m.structural |= (uint64_t)(uint16_t)_mm_movemask_epi8(s) << shift;
        m.whitespace |= (uint64_t)(uint16_t)_mm_movemask_epi8(w) << shift;
        m.special |= (uint64_t)(uint16_t)(_mm_movemask_epi8(c) | _mm_movemask_epi8(b)) << shift;
    }
    return m;
}

__attribute__((target("avx2"), always_inline))
static inline raw_masks classify_avx2(const uint8_t *p) {
    raw_masks m = {0, 0, 0, 0, 0};
    const __m256i quote = _mm256_set1_epi8('"'), backslash = _mm256_set1_epi8('\\');
    const __m256i lower = _mm256_set1_epi8(0x20), open = _mm256_set1_epi8('{'), close = _mm256_set1_epi8('}');
    const __m256i colon = _mm256_set1_epi8(':'), comma = _mm256_set1_epi8(',');
    const __m256i tab = _mm256_set1_epi8('\t'), newline = _mm256_set1_epi8('\n'), cr = _mm256_set1_epi8('\r');
    const __m256i control = _mm256_set1_epi8(0x1F);
    for (int k = 0; k < 2; k++) {
        __m256i b = _mm256_loadu_si256((const __m256i *)(p + 32 * k));
        __m256i folded = _mm256_or_si256(b, lower);
        __m256i q = _mm256_cmpeq_epi8(b, quote), bs = _mm256_cmpeq_epi8(b, backslash);
        __m256i s = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(folded, open), _mm256_cmpeq_epi8(folded, close)),
                                    _mm256_or_si256(_mm256_cmpeq_epi8(b, colon), _mm256_cmpeq_epi8(b, comma)));
        __m256i w = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(b, lower), _mm256_cmpeq_epi8(b, tab)),
                                    _mm256_or_si256(_mm256_cmpeq_epi8(b, newline), _mm256_cmpeq_epi8(b, cr)));
        __m256i c = _mm256_or_si256(bs, _mm256_cmpeq_epi8(_mm256_min_epu8(b, control), b));
        int shift = 32 * k;
        m.quote |= (uint64_t)(uint32_t)_mm256_movemask_epi8(q) << shift;
        m.backslash |= (uint64_t)(uint32_t)_mm256_movemask_epi8(bs) << shift;
        m.structural |= (uint64_t)(uint32_t)_mm256_movemask_epi8(s) << shift;
        m.whitespace |= (uint64_t)(uint32_t)_mm256_movemask_epi8(w) << shift;
        m.special |= (uint64_t)(uint32_t)(_mm256_movemask_epi8(c) | _mm256_movemask_epi8(b)) << shift;
    }
    return m;
}

static int has_avx2(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    // The OS must save the YMM registers (OSXSAVE, and XCR0 bits 1 and 2).
    if (!(c & (1u << 27))) return 0;
    unsigned lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & (1u << 5)) != 0;
}
#endif

#if EASYBAKE_ARM
/// One bit per byte of a NEON comparison result, sixteen bytes at a time.
static uint64_t neon_bits(uint8x16_t matches) {
    static const uint8_t weights[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    uint8x16_t weighted = vandq_u8(matches, vld1q_u8(weights));
    uint8_t low = vaddv_u8(vget_low_u8(weighted)), high = vaddv_u8(vget_high_u8(weighted));
    return (uint64_t)low | (uint64_t)high << 8;
}

static inline raw_masks classify_neon(const uint8_t *p) {
    raw_masks m = {0, 0, 0, 0, 0};
    for (int k = 0; k < 4; k++) {
        uint8x16_t b = vld1q_u8(p + 16 * k);
        uint8x16_t folded = vorrq_u8(b, vdupq_n_u8(0x20));
        uint8x16_t q = vceqq_u8(b, vdupq_n_u8('"')), bs = vceqq_u8(b, vdupq_n_u8('\\'));
        uint8x16_t s = vorrq_u8(vorrq_u8(vceqq_u8(folded, vdupq_n_u8('{')), vceqq_u8(folded, vdupq_n_u8('}'))),
                                vorrq_u8(vceqq_u8(b, vdupq_n_u8(':')), vceqq_u8(b, vdupq_n_u8(','))));
        uint8x16_t w = vorrq_u8(vorrq_u8(vceqq_u8(b, vdupq_n_u8(' ')), vceqq_u8(b, vdupq_n_u8('\t'))),
                                vorrq_u8(vceqq_u8(b, vdupq_n_u8('\n')), vceqq_u8(b, vdupq_n_u8('\r'))));
        uint8x16_t c = vorrq_u8(bs, vorrq_u8(vcltq_u8(b, vdupq_n_u8(0x20)), vcgeq_u8(b, vdupq_n_u8(0x80))));
        int shift = 16 * k;
        m.quote |= neon_bits(q) << shift;
        m.backslash |= neon_bits(bs) << shift;
        m.structural |= neon_bits(s) << shift;
        m.whitespace |= neon_bits(w) << shift;
        m.special |= neon_bits(c) << shift;
    }
    return m;
}
#endif

// MARK: Choosing a kernel

static int best_kernel = -1;

int easybake_structural_kernel(int force_scalar) {
    if (best_kernel < 0) {
        // Benign race: every thread computes the same values.
        fill_classes();
        int kernel = EASYBAKE_KERNEL_SCALAR;
#if EASYBAKE_X86
        kernel = has_avx2() ? EASYBAKE_KERNEL_AVX2 : EASYBAKE_KERNEL_SSE2;
#elif EASYBAKE_ARM
        kernel = EASYBAKE_KERNEL_NEON;
#endif
        const char *forced = getenv("EASYBAKE_SCALAR");
        if (forced != NULL && forced[0] != '\0' && strcmp(forced, "0") != 0) kernel = EASYBAKE_KERNEL_SCALAR;
        __atomic_store_n(&best_kernel, kernel, __ATOMIC_RELEASE);
    }
    return force_scalar ? EASYBAKE_KERNEL_SCALAR : __atomic_load_n(&best_kernel, __ATOMIC_ACQUIRE);
}

// MARK: String state

/// The bytes escaped by a backslash. A backslash escapes the byte after it
/// unless it is escaped itself; runs of backslashes are rare, so walking
/// the unescaped ones is cheaper than a branch-free formula.
static uint64_t escaped_bytes(uint64_t backslash, uint64_t *carry) {
    uint64_t escaped = *carry;
    uint64_t escapers = backslash & ~escaped;
    *carry = 0;
    while (escapers != 0) {
        int i = __builtin_ctzll(escapers);
        if (i == 63) {
            *carry = 1;
            break;
        }
        escaped |= (uint64_t)1 << (i + 1);
        // The escaped byte cannot escape anything: drop it and all below.
        escapers &= ~(((uint64_t)2 << (i + 1)) - 1);
    }
    return escaped;
}

/// Bit i is the parity of the quotes at bits 0 through i: set from each
/// opening quote up to (not including) its closing one.
static uint64_t prefix_xor(uint64_t bits) {
    bits ^= bits << 1;
    bits ^= bits << 2;
    bits ^= bits << 4;
    bits ^= bits << 8;
    bits ^= bits << 16;
    bits ^= bits << 32;
    return bits;
}

/// The string state and the bitmaps, from a kernel's masks.
static inline __attribute__((always_inline)) void finish(raw_masks m, uint64_t valid, easybake_structural_state *state,
                                                         easybake_structural_block *out) {
    uint64_t escaped = m.backslash == 0 && state->escape_carry == 0 ? 0 : escaped_bytes(m.backslash, &state->escape_carry);
    uint64_t quotes = m.quote & ~escaped;
    uint64_t in_string = prefix_xor(quotes) ^ state->in_string;
    // The sign bit says whether the block ends inside a string.
    state->in_string = (uint64_t)((int64_t)in_string >> 63);
    uint64_t outside = ~in_string & ~quotes;
    uint64_t structural = m.structural & outside;
    uint64_t whitespace = m.whitespace & outside;
    uint64_t scalar = outside & ~m.structural & ~m.whitespace & valid;
    uint64_t scalar_starts = scalar & ~(scalar << 1 | state->scalar_carry);
    state->scalar_carry = scalar >> 63;
    out->quotes = quotes;
    out->in_string = in_string;
    out->escaped = escaped;
    out->structural = structural;
    out->whitespace = whitespace | ~valid;
    out->scalar_starts = scalar_starts;
    out->tokens = structural | (quotes & in_string) | scalar_starts;
    out->string_special = m.special & in_string & ~quotes;
}

// One function per kernel, so that the classification and the bit logic
// compile into one body (a kernel built for AVX2 cannot be inlined into a
// function that is not).
static void scan_scalar(const uint8_t *p, uint64_t valid, easybake_structural_state *state, easybake_structural_block *out) {
    if (classes['"'] == 0) fill_classes();
    finish(classify_scalar(p), valid, state, out);
}

#if EASYBAKE_X86
static void scan_sse2(const uint8_t *p, uint64_t valid, easybake_structural_state *state, easybake_structural_block *out) {
    finish(classify_sse2(p), valid, state, out);
}

__attribute__((target("avx2")))
static void scan_avx2(const uint8_t *p, uint64_t valid, easybake_structural_state *state, easybake_structural_block *out) {
    finish(classify_avx2(p), valid, state, out);
}
#elif EASYBAKE_ARM
static void scan_neon(const uint8_t *p, uint64_t valid, easybake_structural_state *state, easybake_structural_block *out) {
    finish(classify_neon(p), valid, state, out);
}
#endif

void easybake_structural_scan(const uint8_t *base, size_t start, size_t count, int kernel,
                              easybake_structural_state *state, easybake_structural_block *out) {
    const uint8_t *p = base + start;
    uint8_t padded[64];
    uint64_t valid = ~(uint64_t)0;
    if (start + 64 > count) {
        size_t n = start < count ? count - start : 0;
        memset(padded, ' ', sizeof padded);
        if (n > 0) memcpy(padded, p, n);
        p = padded;
        valid = n == 0 ? 0 : (((uint64_t)1 << n) - 1);
    }
    switch (kernel) {
#if EASYBAKE_X86
    case EASYBAKE_KERNEL_AVX2: scan_avx2(p, valid, state, out); break;
    case EASYBAKE_KERNEL_SSE2: scan_sse2(p, valid, state, out); break;
#elif EASYBAKE_ARM
    case EASYBAKE_KERNEL_NEON: scan_neon(p, valid, state, out); break;
#endif
    default: scan_scalar(p, valid, state, out); break;
    }
}

// MARK: Skipping

void easybake_skip_begin(easybake_skip_context *context, const uint8_t *base, size_t count, int kernel,
                         size_t position, int grammar, int depth, int depth_budget, uint64_t objects,
                         size_t maximum_string_bytes) {
    context->base = base;
    context->count = count;
    context->kernel = kernel;
    context->position = position;
    context->grammar = grammar;
    context->depth = depth;
    context->depth_budget = depth_budget;
    context->objects = objects;
    context->maximum_string_bytes = maximum_string_bytes;
    context->block_start = position;
    memset(&context->state, 0, sizeof context->state);
    easybake_structural_scan(base, position, count, kernel, &context->state, &context->block);
}

/// The skip's working copy, kept in registers while it runs: the
/// context is written back only when the caller is needed.
typedef struct {
    size_t block_start;
    uint64_t tokens, quotes, special;
} block_view;

static inline void load_view(const easybake_skip_context *c, block_view *v) {
    v->block_start = c->block_start;
    v->tokens = c->block.tokens;
    v->quotes = c->block.quotes;
    v->special = c->block.string_special;
}

/// The first token at or after `offset` (at or after the current block's
/// start), or `count`.
static inline size_t next_token(easybake_skip_context *c, block_view *v, size_t offset) {
    for (;;) {
        if (offset < v->block_start + 64) {
            uint64_t tokens = v->tokens;
            if (offset > v->block_start) tokens &= ~(uint64_t)0 << (offset - v->block_start);
            if (tokens != 0) return v->block_start + (size_t)__builtin_ctzll(tokens);
        }
        if (v->block_start + 64 >= c->count) return c->count;
        c->block_start = v->block_start + 64;
        easybake_structural_scan(c->base, c->block_start, c->count, c->kernel, &c->state, &c->block);
        load_view(c, v);
    }
}

/// For the opening quote at `open`, a token of the current block: one past
/// its closing quote when the string lies in the block, holds nothing that
/// needs checking and is within the length limit; 0 otherwise.
static inline size_t plain_string_end(const block_view *v, size_t open, size_t maximum) {
    size_t relative = open - v->block_start;
    if (relative >= 63) return 0;
    uint64_t after = v->quotes & (~(uint64_t)1 << relative);
    if (after == 0) return 0;
    size_t close = (size_t)__builtin_ctzll(after);
    uint64_t between = ((uint64_t)1 << close) - ((uint64_t)2 << relative);
    if ((v->special & between) != 0) return 0;
    if (close - relative - 1 > maximum) return 0;
    return v->block_start + close + 1;
}

int easybake_skip_run(easybake_skip_context *c) {
    const uint8_t *base = c->base;
    const size_t count = c->count, maximum = c->maximum_string_bytes;
    const int budget = c->depth_budget;
    size_t position = c->position;
    int grammar = c->grammar, depth = c->depth;
    uint64_t objects = c->objects;
    block_view v;
    load_view(c, &v);
    int result;
    for (;;) {
        if (grammar == EASYBAKE_SKIP_AFTER_VALUE && depth == 0) {
            result = EASYBAKE_SKIP_DONE;
            break;
        }
        size_t p = next_token(c, &v, position);
        position = p;
        if (p >= count) {
            result = EASYBAKE_SKIP_DECLINED;
            break;
        }
        uint8_t byte = base[p];
        if (grammar == EASYBAKE_SKIP_AFTER_VALUE) {
            int is_object = (int)((objects >> depth) & 1);
            if (byte == ',') {
                position = p + 1;
                grammar = is_object ? EASYBAKE_SKIP_KEY : EASYBAKE_SKIP_VALUE;
                continue;
            }
            if (byte == (is_object ? '}' : ']')) {
                position = p + 1;
                depth -= 1;
                continue;
            }
            result = EASYBAKE_SKIP_DECLINED;
            break;
        }
        if (grammar == EASYBAKE_SKIP_FIRST_KEY_OR_END || grammar == EASYBAKE_SKIP_KEY) {
            if (grammar == EASYBAKE_SKIP_FIRST_KEY_OR_END && byte == '}') {
                position = p + 1;
                depth -= 1;
                grammar = EASYBAKE_SKIP_AFTER_VALUE;
                continue;
            }
            if (byte != '"') {
                result = EASYBAKE_SKIP_DECLINED;
                break;
            }
            size_t end = plain_string_end(&v, p, maximum);
            if (end == 0) {
                result = EASYBAKE_SKIP_NEEDS_KEY;
                break;
            }
            // Only whitespace may sit between the key and its colon, and
            // the next token is the first byte that is not whitespace.
            size_t colon = next_token(c, &v, end);
            if (colon >= count || base[colon] != ':') {
                result = EASYBAKE_SKIP_DECLINED;
                break;
            }
            position = colon + 1;
            grammar = EASYBAKE_SKIP_VALUE;
            continue;
        }
        // A value, or in an array just opened, its end.
        if (grammar == EASYBAKE_SKIP_FIRST_VALUE_OR_END && byte == ']') {
            position = p + 1;
            depth -= 1;
            grammar = EASYBAKE_SKIP_AFTER_VALUE;
            continue;
        }
        if (byte == '"') {
            size_t end = plain_string_end(&v, p, maximum);
            if (end == 0) {
                result = EASYBAKE_SKIP_NEEDS_STRING;
                break;
            }
            position = end;
            grammar = EASYBAKE_SKIP_AFTER_VALUE;
            continue;
        }
        if (byte == '{' || byte == '[') {
            if (depth >= budget) {
                result = EASYBAKE_SKIP_DECLINED;
                break;
            }
            depth += 1;
            position = p + 1;
            uint64_t bit = (uint64_t)1 << depth;
            if (byte == '{') {
                objects |= bit;
                grammar = EASYBAKE_SKIP_FIRST_KEY_OR_END;
            } else {
                objects &= ~bit;
                grammar = EASYBAKE_SKIP_FIRST_VALUE_OR_END;
            }
            continue;
        }
        result = byte == '-' || (byte >= '0' && byte <= '9') || byte == 't' || byte == 'f' || byte == 'n'
            ? EASYBAKE_SKIP_NEEDS_SCALAR : EASYBAKE_SKIP_DECLINED;
        break;
    }
    c->position = position;
    c->grammar = grammar;
    c->depth = depth;
    c->objects = objects;
    return result;
}
