// The scanning functions are static inline in the header; this file gives
// the target something to compile.
#include "CEasyBakeScanning.h"
