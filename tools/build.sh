#!/usr/bin/env bash
# tools/build.sh - configure (once) and build tsir into build/.
#
# TSIR_SANITIZE=1 builds the sanitizer configuration into build-sanitize/
# instead: every tsir library, tool and test instrumented with ASan + UBSan
# (-fno-sanitize-recover) and libFuzzer's coverage, plus the fuzz
# harnesses, at -O1. One instrumented build serves both the sanitized test
# suite and tools/fuzz.sh (docs/hardening.md says why).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
config=()
if [ -n "${TSIR_SANITIZE:-}" ]; then
  build="${TSIR_BUILD_DIR:-$root/build-sanitize}"
  config=(-DLLVM_USE_SANITIZER="Address;Undefined"
          -DLLVM_USE_SANITIZE_COVERAGE=ON
          -DTSIR_BUILD_FUZZERS=ON
          "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG"
          "-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG")
else
  build="${TSIR_BUILD_DIR:-$root/build}"
fi
# One build at a time per build folder: concurrent ninja runs on the same
# folder corrupt its state.
exec 9>"$build.lock"
flock 9
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld-22 \
    -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    "${config[@]}"
fi
ninja -C "$build" "$@"
