#!/usr/bin/env bash
# Builds and runs EasyBake's libFuzzer targets for a bounded time.
#
#   Fuzz/run.sh TARGET [SECONDS]     TARGET: json, xml, yaml, recipe or all
#
# Each target starts from a corpus of the fixtures under Fixtures/ (and
# Fixtures/regressions/), plus the hand-made seeds in Fuzz/Seeds/<target>/.
# The corpus grows in Fuzz/corpus/<target>/ and is kept between runs;
# crashes, timeouts and out-of-memory inputs land in Fuzz/artifacts/<target>/,
# the log in Fuzz/logs/<target>.log. A run exits non-zero when it found one.
#
# Environment: SANITIZE=address builds with AddressSanitizer too (its own
# build folder, .build-asan) and replays the corpus once instead of fuzzing:
# on Swift 6.3.1 the fuzzer+address binary gets no coverage feedback, so it
# cannot fuzz, but it finds memory errors on every input the plain fuzzer
# collected. MAX_LEN, RSS_MB and TIMEOUT override
# the input size, memory and per-input time limits that make blowups and
# hangs findings. Runs under `nice -n 19`: the fuzzers use a whole core each.
set -euo pipefail
cd "$(dirname "$0")"
FUZZ="$PWD"
ROOT="$(cd .. && pwd)"

target="${1:?usage: Fuzz/run.sh json|xml|yaml|recipe|all [SECONDS]}"
seconds="${2:-600}"
max_len="${MAX_LEN:-65536}"
rss_mb="${RSS_MB:-2048}"
timeout="${TIMEOUT:-10}"

if [ "$target" = all ]; then
    status=0
    for each in json xml yaml recipe; do "$0" "$each" "$seconds" || status=1; done
    exit $status
fi

case "$target" in
    json) product=FuzzJSON ;;
    xml) product=FuzzXML ;;
    yaml) product=FuzzYAML ;;
    recipe) product=FuzzRecipe ;;
    *) echo "unknown target $target (json, xml, yaml, recipe, all)" >&2; exit 2 ;;
esac

# `--sanitize=fuzzer` makes SwiftPM link the toolchain's libFuzzer (which
# supplies main) and add -parse-as-library. `-Xswiftc -sanitize=fuzzer`
# would build a binary that never fuzzes.
build_args=(--sanitize=fuzzer --product "$product")
scratch=.build
if [ "${SANITIZE:-}" = address ]; then
    build_args+=(--sanitize=address)
    scratch=.build-asan
fi
nice -n 19 swift build --scratch-path "$scratch" "${build_args[@]}" >&2
binary="$(swift build --scratch-path "$scratch" "${build_args[@]}" --show-bin-path)/$product"

corpus="$FUZZ/corpus/$target"
seeds="$FUZZ/corpus/.seeds-$target"
artifacts="$FUZZ/artifacts/$target"
mkdir -p "$corpus" "$artifacts" "$FUZZ/logs"
rm -rf "$seeds" && mkdir -p "$seeds"
cp "$FUZZ/Seeds/$target/"* "$seeds/"
case "$target" in
    json|xml|yaml)
        for dir in "$ROOT/Fixtures/$target" "$ROOT/Fixtures/regressions/$target"; do
            [ -d "$dir" ] && find "$dir" -type f -exec cp {} "$seeds/" \;
        done
        if [ "$target" = yaml ]; then
            [ -d "$ROOT/Fixtures/yml" ] && find "$ROOT/Fixtures/yml" -type f -exec cp {} "$seeds/" \;
        fi ;;
    recipe)
        # The first byte picks the mode: 0 a path, 1 a JSON recipe file, 2 a YAML one.
        for file in "$ROOT"/Fixtures/recipes/* "$ROOT"/Fixtures/regressions/recipe/*; do
            [ -f "$file" ] || continue
            case "$file" in
                *.json) { printf 1; cat "$file"; } > "$seeds/$(basename "$file")" ;;
                *.yaml|*.yml) { printf 2; cat "$file"; } > "$seeds/$(basename "$file")" ;;
                *) cp "$file" "$seeds/" ;;
            esac
        done ;;
esac

set +e
mode=(-max_total_time="$seconds")
log="$FUZZ/logs/$target.log"
if [ "${SANITIZE:-}" = address ]; then mode=(-runs=0); log="$FUZZ/logs/$target-asan.log"; fi
echo "fuzzing $target (${mode[*]}; log: ${log#"$ROOT"/})" >&2
SWIFT_BACKTRACE=enable=no nice -n 19 "$binary" "$corpus" "$seeds" "${mode[@]}" \
    -max_len="$max_len" -rss_limit_mb="$rss_mb" -malloc_limit_mb="$rss_mb" \
    -timeout="$timeout" -artifact_prefix="$artifacts/" -print_final_stats=1 \
    > "$log" 2>&1
status=$?
set -e
grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|^==[0-9]+==|^SUMMARY' \
    "$log" | tail -8 >&2
ls "$artifacts" | sed 's/^/finding: /' >&2
exit $status
