#!/usr/bin/env bash
# Lanczos-3 resize of a decoded 4000x3000 RGBA image to 1000x750, one core:
# ImagePipeline's Resize next to libvips (pyvips `resize` and `reduce`) in the same run.
#
# Needs: python3 with Pillow and pyvips (pip install pillow pyvips) and libvips
# (Debian: apt-get install -y libvips42). Usage: Benchmarks/resize.sh [REPEAT] [ROUNDS]
# ROUNDS (default 3) alternate imagepipe and libvips; the summary gives best and median with
# the load average (the machine may be shared).
set -euo pipefail
cd "$(dirname "$0")/.."
repeat="${1:-20}"
rounds="${2:-3}"
corpus="${IMAGEPIPELINE_CORPUS:-$(cd .. && pwd)/shared/corpus}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

swift build -c release --product imagepipe >&2
binary="$(swift build -c release --show-bin-path)/imagepipe"

# Input: kodim01 enlarged with Lanczos to 4500x3000 and centre-cropped to 4000x3000 (as the corpus' 12 MP JPEGs).
python3 - "$corpus/kodak/kodim01.png" "$work/input.rgba" <<'PY'
import sys
from PIL import Image
image = Image.open(sys.argv[1]).convert("RGBA").resize((4500, 3000), Image.Resampling.LANCZOS).crop((250, 0, 4250, 3000))
open(sys.argv[2], "wb").write(image.tobytes())
PY

results="$work/results.tsv"
for round in $(seq 1 "$rounds"); do
    load="$(cut -d' ' -f1 /proc/loadavg)"
    ours_ms="$(taskset -c 0 "$binary" bench resize "$work/input.rgba" --source-size 4000x3000 \
        --width 1000 --height 750 --mode exact --filter lanczos3 --repeat "$repeat" --json \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["msPerOp"])')"
    printf '%s\t%s\t%s\t%s\n' "$round" "imagepipe Resize lanczos3" "$ours_ms" "$load" >> "$results"
    printf 'round %d  %-36s %7.2f ms  (load average %s)\n' "$round" "imagepipe Resize lanczos3" "$ours_ms" "$load"
    VIPS_CONCURRENCY=1 taskset -c 0 python3 - "$work/input.rgba" "$repeat" "$round" "$results" <<'PY'
import os, sys, time
import pyvips
pyvips.cache_set_max(0)          # no operation cache: every run really resizes
data = open(sys.argv[1], "rb").read()
repeat, round_number, results = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
source = pyvips.Image.new_from_memory(data, 4000, 3000, 4, "uchar")

def bench(label, make):
    load = open("/proc/loadavg").read().split()[0]
    make().write_to_memory()      # warm-up; libvips is lazy, writing to memory runs the pipeline
    start = time.perf_counter()
    for _ in range(repeat):
        make().write_to_memory()
    ms = (time.perf_counter() - start) * 1000 / repeat
    print("round %d  %-36s %7.2f ms  (load average %s)" % (round_number, label, ms, load))
    with open(results, "a") as out:
        out.write("%d\t%s\t%f\t%s\n" % (round_number, label, ms, load))

bench("pyvips resize(0.25, lanczos3)", lambda: source.resize(0.25, kernel="lanczos3"))
bench("pyvips reduce(4, 4, lanczos3)", lambda: source.reduce(4, 4, kernel="lanczos3"))
# Our own approach spelled in libvips: integer box shrink by 2, then Lanczos-3 by 2.
bench("pyvips shrink(2)+reduce(2, lanczos3)", lambda: source.shrink(2, 2).reduce(2, 2, kernel="lanczos3"))
PY
done

python3 - "$results" <<'PY'
import statistics, sys
import pyvips
rows = [line.split("\t") for line in open(sys.argv[1]).read().splitlines()]
labels = list(dict.fromkeys(row[1] for row in rows))
summary = {}
print("\nlibvips %s, one core (VIPS_CONCURRENCY=1, taskset -c 0); 4000x3000 -> 1000x750" %
      ".".join(str(pyvips.version(i)) for i in range(3)))
print("%-36s %8s %8s   load average" % ("", "best ms", "median"))
for label in labels:
    times = [float(row[2]) for row in rows if row[1] == label]
    loads = [float(row[3]) for row in rows if row[1] == label]
    summary[label] = (min(times), statistics.median(times))
    print("%-36s %8.2f %8.2f   %.2f-%.2f" % (label, min(times), statistics.median(times), min(loads), max(loads)))
ours = summary["imagepipe Resize lanczos3"]
for label in labels[1:]:
    print("ratio imagepipe / %-26s best %.2f, median %.2f" % (label.replace("pyvips ", ""), ours[0] / summary[label][0],
                                                              ours[1] / summary[label][1]))
fastest = min(summary[label][0] for label in labels[1:] if "lanczos3" in label)
print("goal: imagepipe <= fastest libvips Lanczos3 (%.2f ms): %s" % (fastest, "met" if ours[0] <= fastest else "not met"))
PY
