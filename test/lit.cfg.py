# lit.cfg.py - configuration of the tsir lit suite.
#
# Substitutions: the tsir tools and LLVM's FileCheck/not from the build,
# %python (Debian's python with torch), %corpus (../shared/corpus) and
# %tsir_src (the source tree, for the test scripts in test/).

import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "TSIR"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".txt", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tsir_obj_root, "test")
# Inputs that tests read, not tests themselves.
config.excludes = ["Inputs", "roundtrip.py", "torch_oracle.py", "cases.py", "optimize_oracle.py", "run_corpus.py", "run_corpus_aot.py", "run_corpus_cuda.py", "scalar_semantics.py", "run_model.c", "run_op_cases.py", "run_models.py", "op_cases", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(
    ("%corpus", os.path.normpath(os.path.join(config.tsir_src_root, "..",
                                              "shared", "corpus"))))
config.substitutions.append(("%tsir_src", config.tsir_src_root))
config.substitutions.append(("%tsir_obj", config.tsir_obj_root))
# Configures a CMake project the way this tree was configured (the install
# test builds examples/embedding against an installed tsir).
config.substitutions.append(
    ("%cmake_configure",
     f"{config.cmake_command} -G Ninja -DCMAKE_BUILD_TYPE=Release "
     f"-DCMAKE_C_COMPILER={config.c_compiler} "
     f"-DCMAKE_CXX_COMPILER={config.cxx_compiler} "
     f"'-DCMAKE_EXE_LINKER_FLAGS={config.exe_linker_flags}' "
     f"'-DCMAKE_CXX_FLAGS={config.sanitizer_flags}' "
     f"-DMLIR_DIR={config.mlir_dir}"))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(
    ("%tsir_run", os.path.join(config.tsir_tools_dir, "tsir-run")))
config.substitutions.append(
    ("%tsir_compile", os.path.join(config.tsir_tools_dir, "tsir-compile")))
config.substitutions.append(
    ("%tsir_model_runner", os.path.join(config.tsir_tools_dir, "tsir-run-model")))
config.substitutions.append(("%cc", config.c_compiler))
config.substitutions.append(
    ("%magic_ops", os.path.join(config.tsir_obj_root, "lib",
                                "libtsir-test-magic-ops.so")))
config.substitutions.append(
    ("%torchvision_ops", os.path.join(config.tsir_obj_root, "lib",
                                      "libtsir_torchvision_ops.so")))

# tsir-run's persistent plan cache (docs/plan-cache.md): a fresh one for
# each run of the suite, so tests compile as on a first run and tests that
# repeat a graph load it from the cache; never the user's own cache.
plan_cache = os.path.join(config.test_exec_root, "plan-cache")
shutil.rmtree(plan_cache, ignore_errors=True)
config.environment["TSIR_CACHE_DIR"] = plan_cache
config.substitutions.append(("%plan_cache", plan_cache))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tool_dirs = [config.tsir_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["tsir-opt", "tsir-translate", "tsir-run", "tsir-unittests", "tsir-runtime-unittests", "tsir-lsp-server"],
                                   tool_dirs)

# The leak check needs valgrind (tools/setup.sh installs it).
import shutil
if shutil.which("valgrind"):
    config.available_features.add("valgrind")

# The GPU lowering's tests need no GPU: ptxas (CUDA's PTX assembler) checks
# the PTX that tsir-lower-to-nvvm{format=isa} generates, and the CUDA
# toolkit's libdevice resolves the kernels' math functions.
cuda_root = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH") or \
    "/usr/local/cuda"
# A machine with an NVIDIA driver loaded runs what the GPU-less checks skip.
if os.path.exists("/dev/nvidiactl"):
    config.available_features.add("cuda-device")
ptxas = os.path.join(cuda_root, "bin", "ptxas")
if os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
if os.path.exists(os.path.join(cuda_root, "nvvm", "libdevice",
                               "libdevice.10.bc")):
    config.available_features.add("libdevice")
config.substitutions.append(
    ("%extract_ptx", f"{config.python_executable} " + os.path.join(
        config.tsir_src_root, "test", "Conversion", "GPU", "Inputs",
        "ptx.py")))

# The sanitizer build (tools/build.sh with TSIR_SANITIZE=1) runs this same
# suite. An error report aborts (abort_on_error), so `not` cannot mistake
# it for an expected failure. allow_user_poisoning=0: LLVM's bump allocator
# poisons memory it hands out again, and libMLIR.so is not instrumented, so
# ASan would see MLIR's own writes to it as use-after-poison
# (docs/hardening.md). Leak checking stays on.
python_with_tsir = config.python_executable
if config.sanitizers:
    config.available_features.add("asan")
    asan_options = "allow_user_poisoning=0:abort_on_error=1"
    config.environment["ASAN_OPTIONS"] = asan_options + ":detect_leaks=1"
    config.environment["UBSAN_OPTIONS"] = (
        "print_stacktrace=1:halt_on_error=1:abort_on_error=1")
    # Python loading the instrumented extension needs ASan's runtime first.
    # Python itself leaks by design at exit, so no leak check there.
    import subprocess
    asan_runtime = subprocess.check_output(
        [config.c_compiler, "-print-file-name=libclang_rt.asan-x86_64.so"],
        text=True).strip()
    python_with_tsir = (
        f"env LD_PRELOAD={asan_runtime} "
        f"ASAN_OPTIONS={asan_options}:detect_leaks=0 "
        f"{config.python_executable}")
# Python that imports the tsir extension module.
config.substitutions.append(("%tsir_python", python_with_tsir))
