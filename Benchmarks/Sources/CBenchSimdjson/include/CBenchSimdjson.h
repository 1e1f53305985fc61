#ifndef EASYBAKE_BENCH_SIMDJSON_H
#define EASYBAKE_BENCH_SIMDJSON_H

// simdjson, the structural JSON parser issue 30 names as the class to reach,
// behind a C interface Swift imports without C++ interoperability. Each call
// maps the file, parses it and reports what the benchmark checks; it returns
// 0, or -1 with a message in `error`.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Called once per record with its `id`.
typedef void (*easybake_bench_id_callback)(void *context, int64_t id);

/// Called once per record with its `id`, `email` and `address.city`; the
/// strings are UTF-8, not terminated, and live only during the call.
typedef void (*easybake_bench_pick_callback)(
    void *context, int64_t id, const char *email, size_t email_length, const char *city, size_t city_length);

/// The name of the kernel simdjson chose for this processor at run time
/// (`icelake`, `haswell`, `westmere`, `fallback`, ...).
const char *easybake_bench_simdjson_implementation(void);

/// Parses the file into simdjson's DOM (its tape, the whole document) and
/// reads each record's `id` under `users` from it.
int easybake_bench_simdjson_dom_ids(
    const char *path, void *context, easybake_bench_id_callback each, char *error, size_t error_capacity);

/// Reads `id`, `email` and `address.city` of each record under `users` with
/// simdjson's On-Demand API: its structural index, then only the values
/// asked for, skipping the rest.
int easybake_bench_simdjson_ondemand_picks(
    const char *path, void *context, easybake_bench_pick_callback each, char *error, size_t error_capacity);

#ifdef __cplusplus
}
#endif

#endif
