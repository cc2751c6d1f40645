#!/usr/bin/env bash
# setup.sh - installs the Debian packages schedfuzz needs, only those
# missing; safe to run again and again. With --builder, only what building
# schedfuzz needs where a clang is already there (OSS-Fuzz's base-builder
# image, whose clang builds the fuzzers): make, xxHash, and cmake if none is
# on the PATH.
set -euo pipefail
# chromium and python3: the HTML timeline test draws the page and reads the
# screenshot; python3 and gnuplot also make the benchmark's tables and plots.
# gdb: `schedfuzz debug` runs it, and its tests do.
packages=(clang-14 llvm-14 libclang-rt-14-dev afl++ libxxhash-dev libcmocka-dev cmake make gcc chromium python3 gnuplot-nox gdb)
# libomp-14-dev: LLVM's OpenMP runtime, for schedfuzz-cc -fopenmp.
packages+=(libomp-14-dev)
if [ "${1:-}" = --builder ]; then
	packages=(make libxxhash-dev)
	command -v cmake >/dev/null || packages+=(cmake)
fi
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "setup: all dependencies present"
	exit 0
fi
echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install ${missing[*]}" >&2; exit 1; }
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
