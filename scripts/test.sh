#!/usr/bin/env bash
# test.sh - builds schedfuzz and runs every test (unit and integration).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/build.sh"
cd "$top/build"
ctest --output-on-failure -j"$(nproc)"
