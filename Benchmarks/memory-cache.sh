#!/usr/bin/env bash
# MemoryCache get/set throughput next to a Mutex-guarded Dictionary (the limit), same run.
# Builds imagepipe in release and runs `imagepipe bench cache`; extra arguments are passed on
# (e.g. --keys 100000 --operations 2000000).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product imagepipe >&2
exec "$(swift build -c release --show-bin-path)/imagepipe" bench cache "$@"
