#!/usr/bin/env bash
# tools/demo.sh - set up, build, and run the main job on a real graph.
#
# Takes a case in the shared corpus's format (graph.txt as PyTorch printed
# it, in*.npy, PyTorch's out*.npy; default: the LSTM cell in
# ../shared/corpus/lstm_cell) and shows every stage: import to prim/aten,
# TorchScript's optimizations (tsir-optimize), specialization to the inputs
# and lowering through linalg to LLVM (tsir-lower-to-llvm), then compiles
# and runs it with tsir-run and checks the outputs against PyTorch's, with
# PyTorch's own time for the same graph beside tsir's.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
case_dir="${1:-$root/../shared/corpus/lstm_cell}"
case_dir="$(cd "$case_dir" && pwd)"
graph="$case_dir/graph.txt"
"$root/tools/setup.sh"
# Every tool the steps below run, and nothing more: a fresh clone has no
# build folder, so a tool missing from this list fails the demo there.
"$root/tools/build.sh" tsir-opt tsir-translate tsir-run tsir-compile tsir-run-model
bin="$root/build/bin"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

count_ops() { grep -cE '^\s+(%[^=]+= )?[a-z_]+\.[A-Za-z_]' "$1" || true; }
inputs=()
for f in $(ls "$case_dir"/in*.npy 2>/dev/null | sort -V); do inputs+=(--input "$f"); done
weights=()
[ -f "$case_dir/weights.safetensors" ] && weights=(--weights "$case_dir/weights.safetensors")

echo "== 1. import $graph"
"$bin/tsir-translate" --import-torchscript "$graph" --mlir-print-debuginfo -o "$work/imported.mlir"
"$bin/tsir-opt" "$work/imported.mlir" -o "$work/imported.plain.mlir"
echo "   imported and verified: $(count_ops "$work/imported.plain.mlir") prim/aten ops"

echo "== 2. tsir-optimize (TorchScript's passes as MLIR rewrites)"
"$bin/tsir-opt" "$work/imported.mlir" --tsir-optimize="fuse=false" -o "$work/optimized.mlir"
echo "   after tsir-optimize: $(count_ops "$work/optimized.mlir") ops"

echo "== 3. compile and run with tsir-run (specialize to the inputs, lower to linalg and LLVM, JIT)"
"$bin/tsir-run" "$graph" "${weights[@]}" "${inputs[@]}" --output-dir "$work/out" \
  --print-ir-after-all 2> "$work/stages.log" > "$work/run.log"
for stage in tsir-refine-types convert-aten-to-linalg tsir-finalize-lowering one-shot-bufferize convert-to-llvm; do
  n=$(grep -c "IR Dump After.*($stage)" "$work/stages.log" || true)
  [ "$n" -gt 0 ] && echo "   ran $stage"
done
echo "   linalg ops after conversion: $(awk '/IR Dump After TsirFinalizeLoweringPass/{p=1;next} /IR Dump After/{p=0} p' "$work/stages.log" \
  | grep -oE '= linalg\.[a-z_]+' | sort | uniq -c | awk '{printf "%s %s, ", $1, substr($3, 8)}' | sed 's/, $//')"
echo "   after elementwise fusion: $(awk '/IR Dump After TsirFuseElementwisePass/{p=1;next} /IR Dump After/{p=0} p' "$work/stages.log" \
  | grep -oE '= linalg\.[a-z_]+' | sort | uniq -c | awk '{printf "%s %s, ", $1, substr($3, 8)}' | sed 's/, $//')"
cat "$work/run.log" | sed 's/^/   /'
bench=$("$bin/tsir-run" "$graph" "${weights[@]}" "${inputs[@]}" --output-dir "$work/out" --bench 200 | grep '^bench:')
echo "   $bench"

echo "== 4. compare with PyTorch"
median=$(echo "$bench" | sed -E 's/.*median ([0-9.]+) ms.*/\1/')
/usr/bin/python3 "$root/tools/compare_with_torch.py" "$case_dir" "$work/out" "$median"

echo "== 5. ahead of time: tsir-compile to model.so, run by the runtime alone (no MLIR)"
"$bin/tsir-compile" "$graph" "${weights[@]}" "${inputs[@]}" -o "$work/model.so" | sed 's/^/   /'
"$bin/tsir-run-model" "$work/model.so" "${inputs[@]}" --output-dir "$work/aot" --bench 200 \
  | grep -E '^(load|bench):' | sed 's/^/   model /'
/usr/bin/python3 "$root/tools/compare_with_torch.py" "$case_dir" "$work/aot" | grep -E 'max|matches|differ' | sed 's/^   //; s/^/   model /'
