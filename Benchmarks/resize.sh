#!/usr/bin/env bash
# Lanczos-3 resize of a decoded 4000x3000 RGBA image to 1000x750, one core:
# ImagePipeline's Resize next to libvips (pyvips `resize` and `reduce`) in the same run.
#
# Needs: python3 with Pillow and pyvips (pip install pillow pyvips) and libvips
# (Debian: apt-get install -y libvips42). Usage: Benchmarks/resize.sh [REPEAT]
set -euo pipefail
cd "$(dirname "$0")/.."
repeat="${1:-20}"
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

ours_json="$(taskset -c 0 "$binary" bench resize "$work/input.rgba" --source-size 4000x3000 \
    --width 1000 --height 750 --mode exact --filter lanczos3 --repeat "$repeat" --json)"
echo "imagepipe: $ours_json"

VIPS_CONCURRENCY=1 OURS_JSON="$ours_json" taskset -c 0 python3 - "$work/input.rgba" "$repeat" <<'PY'
import json, os, sys, time
import pyvips
pyvips.cache_set_max(0)          # no operation cache: every run really resizes
data = open(sys.argv[1], "rb").read()
repeat = int(sys.argv[2])
source = pyvips.Image.new_from_memory(data, 4000, 3000, 4, "uchar")

def bench(label, make):
    make().write_to_memory()      # warm-up; libvips is lazy, writing to memory runs the pipeline
    start = time.perf_counter()
    for _ in range(repeat):
        out = make().write_to_memory()
    ms = (time.perf_counter() - start) * 1000 / repeat
    print("%-34s %7.2f ms" % (label, ms))
    return ms

ours = json.loads(os.environ["OURS_JSON"])["msPerOp"]
print("%-34s %7.2f ms" % ("imagepipe Resize lanczos3", ours))
vips_resize = bench("pyvips resize(0.25, lanczos3)", lambda: source.resize(0.25, kernel="lanczos3"))
vips_reduce = bench("pyvips reduce(4, 4, lanczos3)", lambda: source.reduce(4, 4, kernel="lanczos3"))
# Our own approach spelled in libvips: integer box shrink by 2, then Lanczos-3 by 2.
vips_two_step = bench("pyvips shrink(2)+reduce(2, lanczos3)",
                      lambda: source.shrink(2, 2).reduce(2, 2, kernel="lanczos3"))
print("libvips %s, one core (VIPS_CONCURRENCY=1, taskset -c 0)" % ".".join(str(pyvips.version(i)) for i in range(3)))
print("ratio imagepipe / vips resize: %.2f" % (ours / vips_resize))
print("ratio imagepipe / vips reduce: %.2f" % (ours / vips_reduce))
print("ratio imagepipe / vips shrink+reduce: %.2f" % (ours / vips_two_step))
PY
