#!/usr/bin/env bash
# tools/fuzz.sh [minutes|Ns] [harness ...] - build the libFuzzer harnesses
# in build-sanitize/ (tools/build.sh with TSIR_SANITIZE=1: every tsir
# library instrumented, ASan + UBSan) and run each for `minutes` (default
# 1; "30s" is thirty seconds) on a seed corpus made from ../shared/corpus
# and the project's own tests. Crashes, leaks and sanitizer reports stop a
# harness and leave the input in build-sanitize/fuzz/<harness>/; the exit code
# is non-zero if any harness found one. Harnesses run side by side, one per
# core.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TSIR_BUILD_DIR:-$root/build-sanitize}"
# "10" is ten minutes, "30s" thirty seconds.
case "${1:-1}" in
  *s) seconds="${1%s}" ;;
  *) seconds=$(( ${1:-1} * 60 )) ;;
esac
shift || true
harnesses=("$@")
((${#harnesses[@]})) || harnesses=(import-fuzzer optimize-fuzzer safetensors-fuzzer npy-fuzzer executor-fuzzer)

TSIR_SANITIZE=1 TSIR_BUILD_DIR="$build" "$root/tools/build.sh" "${harnesses[@]}"

# Seeds: graph texts (the corpus and the importer's tests), weights and
# .npy files of the corpus.
corpus="$root/../shared/corpus"
seeds="$build/fuzz/seeds"
rm -rf "$seeds"
mkdir -p "$seeds/graphs" "$seeds/safetensors" "$seeds/npy" "$seeds/executor"
i=0
for f in "$corpus"/*/graph.txt "$corpus"/formats/*.txt "$root"/test/Importer/*.txt \
         "$root"/test/Importer/errors/*.txt "$root"/examples/*.txt; do
  [ -f "$f" ] && cp "$f" "$seeds/graphs/$((i++)).txt"
done
for f in "$corpus"/*/weights.safetensors; do
  [ -f "$f" ] && head -c 65536 "$f" > "$seeds/safetensors/$((i++)).safetensors"
done
for f in "$corpus"/*/in*.npy "$corpus"/*/out*.npy; do
  [ -f "$f" ] && cp "$f" "$seeds/npy/$((i++)).npy"
done

# Inputs that once crashed a harness (tools/fuzz/regressions/<harness>/)
# run first, every time.
for dir in "$root"/tools/fuzz/regressions/*/; do
  h="$(basename "$dir")"
  case "$h" in
    import-fuzzer|optimize-fuzzer) to="$seeds/graphs" ;;
    safetensors-fuzzer) to="$seeds/safetensors" ;;
    npy-fuzzer) to="$seeds/npy" ;;
    executor-fuzzer) to="$seeds/executor" ;;
  esac
  cp "$dir"* "$to/"
done

# LLVM's bump allocator poisons memory it hands out again (MLIR's parser
# uses it); libMLIR.so is not instrumented, so ASan sees those writes as
# use-after-poison. Leak checking stays on.
export ASAN_OPTIONS="allow_user_poisoning=0:detect_leaks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# One harness per core at a time: each is one process on one thread.
# What each shows is printed when it ends, so reports do not interleave.
fuzz_one() {
  local h="$1" seed dict work
  case "$h" in
    import-fuzzer|optimize-fuzzer) seed="$seeds/graphs"; dict=(-dict="$root/tools/fuzz/torchscript.dict") ;;
    safetensors-fuzzer) seed="$seeds/safetensors"; dict=() ;;
    npy-fuzzer) seed="$seeds/npy"; dict=() ;;
    # Its inputs are decoded calls, not files: its seeds are only the
    # regressions.
    executor-fuzzer) seed="$seeds/executor"; dict=() ;;
  esac
  work="$build/fuzz/$h"
  mkdir -p "$work/corpus"
  # The whole log stays in $work/fuzz.log; shown are the coverage at start
  # and end, the final stats and any report (not the progress lines and the
  # recommended dictionary).
  local code=0
  (cd "$work" && "$build/bin/$h" "${dict[@]}" -max_total_time="$seconds" \
     -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
     "$work/corpus" "$seed" > "$work/fuzz.log" 2>&1) || code=$?
  echo "== $h: $seconds s"
  grep -v -E '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse|RELOAD)|^[[:space:]]+NEW_FUNC|^"|^###### |^[[:space:]]*$' "$work/fuzz.log" || true
  return $code
}
cores=$(nproc)
pids=()
status=0
for h in "${harnesses[@]}"; do
  # At most one running harness per core.
  while (( $(jobs -rp | wc -l) >= cores )); do wait -n || status=1; done
  fuzz_one "$h" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
