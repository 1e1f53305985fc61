// Atomic flags for the core, which Swift reaches without the Synchronization
// module (whose `Atomic` needs macOS 15 and its peers; the package supports
// older systems).
//
// A tree read by a format fills each container's nodes from its index on
// first access (`Index/IngredientIndex+Tree.swift`), once, whichever thread
// asks first. Each container has one bit in a shared bit set: the filling
// thread sets it with release ordering once the nodes are in place, and a
// reader that sees it set with acquire ordering sees those nodes. The
// functions live in a C file, not inline in this header, so that the thread
// sanitizer instruments them as the atomics they are.

#ifndef C_EASYBAKE_ATOMICS_H
#define C_EASYBAKE_ATOMICS_H

#include <stdint.h>

/// Whether bit `bit` of the bit set at `bits` is set (acquire ordering).
int easybake_bit_is_set(const uint64_t *bits, intptr_t bit);

/// Sets bit `bit` of the bit set at `bits` (release ordering); other bits of
/// the same word may be set by other threads meanwhile.
void easybake_set_bit(uint64_t *bits, intptr_t bit);

#endif
