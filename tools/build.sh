#!/usr/bin/env bash
# tools/build.sh - configure (once) and build tsir into build/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TSIR_BUILD_DIR:-$root/build}"
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
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
ninja -C "$build" "$@"
