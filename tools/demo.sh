#!/usr/bin/env bash
# tools/demo.sh - set up, build, and run the main job on a real graph.
#
# Imports examples/lstm_cell.txt (a TorchScript dump of an LSTM cell, as
# PyTorch printed it), verifies it, optimizes it with TorchScript's passes
# (tsir-opt --tsir-optimize: DCE, CSE, constant propagation and pooling,
# peephole, tuple lowering, remove-mutation, loop unrolling, fusion groups),
# prints the MLIR, and exports it back to TorchScript text with its own value
# names.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
graph="${1:-$root/examples/lstm_cell.txt}"
"$root/tools/setup.sh"
"$root/tools/build.sh" tsir-opt tsir-translate
bin="$root/build/bin"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

count_ops() { grep -cE '^\s+(%[^=]+= )?[a-z_]+\.[A-Za-z_]' "$1" || true; }

echo "== 1. import $graph"
# Value names and source comments live in locations; keep them in the file.
"$bin/tsir-translate" --import-torchscript "$graph" --mlir-print-debuginfo -o "$work/imported.mlir"
"$bin/tsir-opt" "$work/imported.mlir" -o "$work/imported.plain.mlir"
echo "   imported and verified: $(count_ops "$work/imported.plain.mlir") ops"

echo "== 2. tsir-opt --tsir-optimize"
"$bin/tsir-opt" "$work/imported.mlir" --tsir-optimize --mlir-print-debuginfo -o "$work/optimized.mlir"
"$bin/tsir-opt" "$work/optimized.mlir" | tee "$work/optimized.plain.mlir"
groups=$(grep -c 'prim.FusionGroup' "$work/optimized.plain.mlir" || true)
echo "   after tsir-optimize: $(count_ops "$work/optimized.plain.mlir") ops, $groups fusion group(s)"

echo "== 3. export back to TorchScript"
"$bin/tsir-translate" --export-torchscript "$work/optimized.mlir"
