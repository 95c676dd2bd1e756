#!/usr/bin/env bash
# tools/test.sh - set up, build and run every tsir test (the README's test
# command): the lit and GoogleTest suite in the normal build, the same
# suite again in the sanitizer build (ASan + UBSan, LeakSanitizer on), and
# a short run of every fuzz harness from its seeds.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/tools/setup.sh"
"$root/tools/build.sh"
"$root/tools/build.sh" check-tsir
TSIR_SANITIZE=1 "$root/tools/build.sh" check-tsir
"$root/tools/fuzz.sh" "${TSIR_FUZZ_SMOKE:-30s}"
