#!/usr/bin/env bash
# tools/demo.sh - set up, build, and run the main job on a real graph.
#
# Imports examples/lstm_cell.txt (a TorchScript dump of an LSTM cell),
# verifies it, runs it through tsir-opt, prints the MLIR, and exports it
# back to TorchScript text.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
graph="${1:-$root/examples/lstm_cell.txt}"
"$root/tools/setup.sh"
"$root/tools/build.sh" tsir-opt tsir-translate
bin="$root/build/bin"

echo "== 1. import $graph"
"$bin/tsir-translate" --import-torchscript "$graph" -o /tmp/tsir-demo.mlir
echo "== 2. tsir-opt (verify, canonicalize, cse) -> MLIR"
"$bin/tsir-opt" /tmp/tsir-demo.mlir --canonicalize --cse | tee /tmp/tsir-demo.opt.mlir
echo "== 3. export back to TorchScript"
"$bin/tsir-translate" --export-torchscript /tmp/tsir-demo.opt.mlir
