#include "CEasyBakeAtomics.h"

int easybake_bit_is_set(const uint64_t *bits, intptr_t bit) {
    uint64_t word = __atomic_load_n(bits + (bit >> 6), __ATOMIC_ACQUIRE);
    return (word >> (bit & 63)) & 1;
}

void easybake_set_bit(uint64_t *bits, intptr_t bit) {
    __atomic_fetch_or(bits + (bit >> 6), (uint64_t)1 << (bit & 63), __ATOMIC_RELEASE);
}
