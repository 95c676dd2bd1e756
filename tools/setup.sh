#!/usr/bin/env bash
# tools/setup.sh - install what tsir needs on a fresh Debian 12 machine.
#
# Safe to re-run: apt is only touched when a package is missing.
set -euo pipefail

packages=(
  cmake ninja-build
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22
  libgtest-dev python3-numpy python3-torch python3-torchvision valgrind
  liblapack3 pybind11-dev python3-pytest libclang-rt-22-dev
  # LLVM's OpenMP runtime: compiled code runs its large loops on threads.
  libomp-22-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi
