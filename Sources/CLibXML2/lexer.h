#ifndef EASYBAKE_XML_LEXER_H
#define EASYBAKE_XML_LEXER_H
/* Where XML elements begin and end, without parsing them: the markup that
   opens and closes elements, told apart from comments, CDATA sections,
   processing instructions and quoted attribute values, which may hold '<'
   and '>'. The lexer checks nothing — libxml2 does, on every byte, wherever
   it reads them — so it is used only inside a document's root element,
   whose content libxml2 has begun to read and found no DTD for (no entity
   can hold markup there).

   It reads any stretch of bytes and can stop at any byte: its state holds
   what a construct split between two stretches needs. How several jobs read
   one XML stream (XMLParserDriver+Deferring.swift) uses it twice: to end
   what libxml2 is fed right after the start tag of a record, and to find
   where the record ends. */

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The first of `a`, `b` or `c` in `[q, e)`, or `e`: sixteen bytes at a time
   where the machine has SSE2 (x86-64's baseline). */
static inline const uint8_t *easybake_xml_find(const uint8_t *q, const uint8_t *e, uint8_t a, uint8_t b, uint8_t c) {
#if defined(__SSE2__)
    const __m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b), vc = _mm_set1_epi8((char)c);
    while (e - q >= 16) {
        __m128i block = _mm_loadu_si128((const __m128i *)q);
        __m128i hits = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(block, va), _mm_cmpeq_epi8(block, vb)), _mm_cmpeq_epi8(block, vc));
        unsigned mask = (unsigned)_mm_movemask_epi8(hits);
        if (mask) return q + __builtin_ctz(mask);
        q += 16;
    }
#endif
    while (q < e && *q != a && *q != b && *q != c) q++;
    return q;
}

enum {
    EASYBAKE_XML_TEXT = 0,      /* character data */
    EASYBAKE_XML_OPEN,          /* just after '<' */
    EASYBAKE_XML_START_TAG,     /* a start tag's name and attributes */
    EASYBAKE_XML_QUOTED,        /* a quoted attribute value */
    EASYBAKE_XML_END_TAG,       /* an end tag */
    EASYBAKE_XML_BANG,          /* after "<!": a comment, CDATA, or a declaration */
    EASYBAKE_XML_COMMENT,
    EASYBAKE_XML_CDATA,
    EASYBAKE_XML_INSTRUCTION,   /* a processing instruction */
    EASYBAKE_XML_DECLARATION    /* "<!" anything else: no markup a document's content may hold */
};

typedef struct {
    /* How many elements are open. */
    int32_t depth;
    uint8_t state;
    /* EASYBAKE_XML_QUOTED: the quote that ends the value. */
    uint8_t quote;
    /* Whether the last byte of a start tag outside quotes was '/'. */
    uint8_t slash;
    /* EASYBAKE_XML_BANG: how many bytes of "--" or "[CDATA[" matched;
       COMMENT: trailing '-'s; CDATA: trailing ']'s; INSTRUCTION: a '?'. */
    uint8_t run;
    /* Whether the next start tag one level below a cut element is to be a
       cut too (easybake_xml_lex_cut). */
    uint8_t child_pending;
    /* Whether the last call stopped at a cut or a close (not at `end`). */
    uint8_t stopped;
    /* The offset of the '<' of the last start tag begun, in the caller's
       buffer (the caller moves it when it moves the buffer). */
    int64_t tag_start;
    /* The depth the last cut start tag opened, and its '<'. */
    int32_t cut_depth;
    int64_t cut_tag_start;
} easybake_xml_lexer;

/* Reads `base[p..<end]`. With `cut_depth` >= 0: stops just after the '>' of
   a start tag that opens an element at depth `cut_depth`, or of the first
   start tag inside such an element; with `close_depth` >= 0: just after the
   '>' of an end tag that leaves `close_depth` elements open. Returns where
   it stopped, `end` when it read everything. */
static inline size_t easybake_xml_lex(
    easybake_xml_lexer *lx, const uint8_t *base, size_t p, size_t end, int32_t cut_depth, int32_t close_depth) {
    lx->stopped = 0;
    while (p < end) {
        switch (lx->state) {
        case EASYBAKE_XML_TEXT: {
            /* Text between tags is short in most documents: a plain loop
               costs less than a call to memchr. */
            const uint8_t *q = easybake_xml_find(base + p, base + end, '<', '<', '<');
            if (q == base + end) return end;
            p = (size_t)(q - base);
            lx->tag_start = (int64_t)p;
            lx->state = EASYBAKE_XML_OPEN;
            p += 1;
            break;
        }
        case EASYBAKE_XML_OPEN: {
            uint8_t c = base[p];
            if (c == '/') {
                lx->state = EASYBAKE_XML_END_TAG;
                p += 1;
            } else if (c == '!') {
                lx->state = EASYBAKE_XML_BANG;
                lx->run = 0;
                p += 1;
            } else if (c == '?') {
                lx->state = EASYBAKE_XML_INSTRUCTION;
                lx->run = 0;
                p += 1;
            } else {
                lx->state = EASYBAKE_XML_START_TAG;
                lx->slash = 0;
            }
            break;
        }
        case EASYBAKE_XML_START_TAG: {
            const uint8_t *e = base + end;
            const uint8_t *q = easybake_xml_find(base + p, e, '>', '"', '\'');
            if (q == e) {
                /* The tag goes on: whether it ended with '/' so far. */
                if (e > base + p) lx->slash = e[-1] == '/';
                return end;
            }
            uint8_t c = *q;
            int slash = q > base + p ? q[-1] == '/' : lx->slash;
            p = (size_t)(q - base) + 1;
            lx->slash = 0;
            if (c != '>') {
                lx->state = EASYBAKE_XML_QUOTED;
                lx->quote = c;
                break;
            }
            lx->state = EASYBAKE_XML_TEXT;
            if (slash) break;
            lx->depth += 1;
            if (cut_depth >= 0) {
                if (lx->depth == cut_depth) {
                    lx->child_pending = 1;
                    lx->cut_depth = lx->depth;
                    lx->cut_tag_start = lx->tag_start;
                    lx->stopped = 1;
                    return p;
                }
                if (lx->child_pending && lx->depth == cut_depth + 1) {
                    lx->child_pending = 0;
                    lx->stopped = 1;
                    return p;
                }
            }
            break;
        }
        case EASYBAKE_XML_QUOTED: {
            const uint8_t *q = easybake_xml_find(base + p, base + end, lx->quote, lx->quote, lx->quote);
            if (q == base + end) return end;
            p = (size_t)(q - base) + 1;
            lx->state = EASYBAKE_XML_START_TAG;
            break;
        }
        case EASYBAKE_XML_END_TAG: {
            const uint8_t *q = easybake_xml_find(base + p, base + end, '>', '>', '>');
            if (q == base + end) return end;
            p = (size_t)(q - base) + 1;
            lx->state = EASYBAKE_XML_TEXT;
            lx->depth -= 1;
            if (close_depth >= 0 && lx->depth == close_depth) {
                lx->stopped = 1;
                return p;
            }
            break;
        }
        case EASYBAKE_XML_BANG: {
            static const char comment[] = "--";
            static const char cdata[] = "[CDATA[";
            uint8_t c = base[p++];
            /* run counts matched bytes; 0x80 marks the CDATA prefix. */
            if (lx->run < 0x80 && lx->run < 2 && c == (uint8_t)comment[lx->run]) {
                lx->run += 1;
                if (lx->run == 2) {
                    lx->state = EASYBAKE_XML_COMMENT;
                    lx->run = 0;
                }
            } else if ((lx->run == 0 || lx->run >= 0x80) && c == (uint8_t)cdata[lx->run & 0x7F]) {
                lx->run = (uint8_t)(((lx->run & 0x7F) + 1) | 0x80);
                if ((lx->run & 0x7F) == 7) {
                    lx->state = EASYBAKE_XML_CDATA;
                    lx->run = 0;
                }
            } else {
                lx->state = EASYBAKE_XML_DECLARATION;
                if (c == '>') lx->state = EASYBAKE_XML_TEXT;
            }
            break;
        }
        case EASYBAKE_XML_COMMENT:
        case EASYBAKE_XML_CDATA: {
            /* Both end with a doubled byte and '>': "-->", "]]>". */
            uint8_t twice = lx->state == EASYBAKE_XML_COMMENT ? '-' : ']';
            uint8_t c = base[p++];
            if (c == twice) {
                if (lx->run < 2) lx->run += 1;
            } else if (c == '>' && lx->run >= 2) {
                lx->state = EASYBAKE_XML_TEXT;
            } else {
                lx->run = 0;
            }
            break;
        }
        case EASYBAKE_XML_INSTRUCTION: {
            uint8_t c = base[p++];
            if (c == '>' && lx->run) {
                lx->state = EASYBAKE_XML_TEXT;
            } else {
                lx->run = (c == '?');
            }
            break;
        }
        default: { /* EASYBAKE_XML_DECLARATION */
            const void *found = memchr(base + p, '>', end - p);
            if (!found) return end;
            p = (size_t)((const uint8_t *)found - base) + 1;
            lx->state = EASYBAKE_XML_TEXT;
            break;
        }
        }
    }
    return end;
}

/* How many line feeds `base[p..<end]` holds; `*last` is the offset of the
   last one, or -1. */
static inline size_t easybake_xml_line_feeds(const uint8_t *base, size_t p, size_t end, int64_t *last) {
    size_t count = 0;
    *last = -1;
    while (p < end) {
        const uint8_t *found = (const uint8_t *)memchr(base + p, '\n', end - p);
        if (!found) break;
        count += 1;
        p = (size_t)(found - base);
        *last = (int64_t)p;
        p += 1;
    }
    return count;
}

/* The offset of the last line feed before `end`, or -1. */
static inline int64_t easybake_xml_last_line_feed(const uint8_t *base, size_t end) {
    while (end > 0) {
        end -= 1;
        if (base[end] == '\n') return (int64_t)end;
    }
    return -1;
}

/* How many UTF-8 characters `base[p..<end]` holds (bytes that do not
   continue a character), as libxml2 counts columns. */
static inline size_t easybake_xml_characters(const uint8_t *base, size_t p, size_t end) {
    size_t count = end - p;
    /* A byte continues a character when its top bits are 10: sixteen
       bytes at a time where there is SSE2, then eight. */
#if defined(__SSE2__)
    const __m128i top = _mm_set1_epi8((char)0xC0), continuing = _mm_set1_epi8((char)0x80);
    for (; p + 16 <= end; p += 16) {
        __m128i block = _mm_and_si128(_mm_loadu_si128((const __m128i *)(base + p)), top);
        count -= (size_t)__builtin_popcount((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(block, continuing)));
    }
#endif
    for (; p + 8 <= end; p += 8) {
        uint64_t word;
        memcpy(&word, base + p, 8);
        uint64_t continuing = word & ~(word << 1) & 0x8080808080808080ULL;
        count -= (size_t)__builtin_popcountll(continuing);
    }
    for (; p < end; p++) count -= (base[p] & 0xC0) == 0x80;
    return count;
}

#endif
