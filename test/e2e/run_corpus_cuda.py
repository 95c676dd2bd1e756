#!/usr/bin/python3
"""run_corpus_cuda.py - every data case of the shared corpus compiled for
the GPU with tsir-compile --device cuda.

    run_corpus_cuda.py TSIR_COMPILE TSIR_RUN_MODEL PTXAS CORPUS_DIR

For each case with data:
  - `--emit ptx`: the PTX of every kernel module, each assembled by
    `ptxas -arch=sm_90` (which must accept it);
  - the library: `model.so` with its kernels as a fatbin (MLIR runs ptxas
    and fatbinary for it);
  - the run: `tsir-run-model model.so` on the case's inputs. Where there is
    no GPU it must stop with "CUDA is not available" (counted as skipped,
    with that message); on a GPU the outputs must match PyTorch's.
Exits non-zero if any case fails.
"""

import glob
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import tsir_run  # noqa: E402


def main():
    compile_tool, run_tool, ptxas, corpus = sys.argv[1:5]
    work = tempfile.mkdtemp(prefix="tsir-cuda-")
    failures = compiled = ran = skipped = modules = 0
    skip_reason = ""
    for case in tsir_run.corpus_cases(corpus):
        name = case.name
        outdir = os.path.join(work, name)
        os.makedirs(outdir)
        base = case.compile_args(compile_tool, "--device", "cuda")

        ptx = os.path.join(outdir, "kernels.ptx")
        done = subprocess.run(base + ["--emit", "ptx", "-o", ptx],
                              capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            failures += 1
            print(f"FAIL {name}: --emit ptx: {done.stdout}{done.stderr}")
            continue
        problem = None
        files = sorted(glob.glob(os.path.join(outdir, "*.ptx")))
        for path in files:
            assembled = subprocess.run(
                [ptxas, "-arch=sm_90", path, "-o", path + ".cubin"],
                capture_output=True, text=True, timeout=600)
            if assembled.returncode != 0:
                problem = f"ptxas rejects {os.path.basename(path)}: {assembled.stderr}"
                break
        if problem or not files:
            failures += 1
            print(f"FAIL {name}: {problem or 'no PTX written'}")
            continue
        modules += len(files)

        model = os.path.join(outdir, "model.so")
        done = subprocess.run(base + ["-o", model], capture_output=True,
                              text=True, timeout=600)
        if done.returncode != 0:
            failures += 1
            print(f"FAIL {name}: the library: {done.stdout}{done.stderr}")
            continue
        compiled += 1

        # No host threads on the GPU path: one run is enough.
        code, output = tsir_run.run(run_tool, model, case.inputs(), outdir,
                                    threads=None)
        if code != 0 and "CUDA is not available" in output:
            skipped += 1
            skip_reason = output.strip().splitlines()[-1]
            print(f"PASS {name}: {len(files)} kernel modules, ptxas accepts all")
            continue
        ran += 1
        if code != 0:
            failures += 1
            print(f"FAIL {name}: the model exited with {code}:\n{output}")
            continue
        problem = case.compare(outdir, threads=None)
        if problem:
            failures += 1
            print(f"FAIL {name}: on the GPU: {problem}")
        else:
            print(f"PASS {name}: matches PyTorch on the GPU")
    print(f"cuda corpus: {compiled} cases compiled ({modules} kernel modules "
          f"accepted by ptxas), {ran} run on a GPU, {skipped} not run, "
          f"{failures} failures")
    if skipped:
        print(f"not run: {skip_reason}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
