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
// caller scans that rest itself.

#ifndef C_EASYBAKE_SCANNING_H
#define C_EASYBAKE_SCANNING_H

#include <stddef.h>
#include <stdint.h>

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

#endif
