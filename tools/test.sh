#!/usr/bin/env bash
# tools/test.sh - set up, build and run every tsir test (the README's test command).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/tools/setup.sh"
"$root/tools/build.sh"
"$root/tools/build.sh" check-tsir
