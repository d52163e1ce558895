#!/usr/bin/env bash
# Thumbnails of 12 MP JPEGs: `imagepipe bench thumbnail` next to pyvips `thumbnail` and Pillow
# `thumbnail` on the same files, two workers each, in alternating rounds of the same run.
#
#   Benchmarks/thumbnail.sh [--sizes "256 1024"] [--rounds 5] [--repeat 10] [--workers 2]
#   Benchmarks/thumbnail.sh --resize [--rounds 5] [--repeat 20]    # runs Benchmarks/resize.sh
#
# Every tool does the same work per file: read it, decode it (shrink on load: libjpeg DCT
# scaling; Pillow's thumbnail takes draft mode) and resize it with Lanczos-3 to fit N×N into a
# pixel buffer in memory. Nobody encodes the result. libvips is lazy, so its thumbnail is
# written to memory to make it run. pyvips and Pillow get two worker processes
# (multiprocessing; VIPS_CONCURRENCY=1 in each), imagepipe `--threads 2`.
#
# The corpus comes from $IMAGEPIPELINE_CORPUS or ../shared/corpus beside the repository.
# Needs libvips (Debian libvips42), pyvips and Pillow: installed when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

sizes="256"
rounds=5
repeat=""
workers=2
resize=no
while [ $# -gt 0 ]; do
    case "$1" in
        --sizes) sizes="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --repeat) repeat="$2"; shift 2 ;;
        --workers) workers="$2"; shift 2 ;;
        --resize) resize=yes; shift ;;
        *) echo "usage: $0 [--sizes \"256 1024\"] [--rounds N] [--repeat N] [--workers N] [--resize]" >&2; exit 2 ;;
    esac
done

if [ "$resize" = yes ]; then
    # One core, decoded 4000x3000 → 1000x750 Lanczos-3 against pyvips reduce: resize.sh does it.
    exec Benchmarks/resize.sh "${repeat:-20}" "$rounds"
fi
repeat="${repeat:-10}"

corpus="${IMAGEPIPELINE_CORPUS:-$(cd .. && pwd)/shared/corpus}"
images="$corpus/bench/jpeg-4000x3000-q90"
[ -d "$images" ] || { echo "no $images (set IMAGEPIPELINE_CORPUS)" >&2; exit 1; }

# Peers, installed only when missing.
if ! python3 -c 'import pyvips' 2>/dev/null; then
    dpkg-query -W -f='${Status}' libvips42 2>/dev/null | grep -q 'install ok installed' \
        || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libvips42 >&2
    python3 -m pip install --quiet --disable-pip-version-check pyvips >&2
fi
python3 -c 'import PIL' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check pillow >&2

swift build -c release --product imagepipe >&2
binary="$(swift build -c release --show-bin-path)/imagepipe"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cat > "$work/peer.py" <<'PY'
"""One measurement of a peer: `peer.py pyvips|pillow DIR SIZE REPEAT WORKERS` prints images/s."""
import json, os, sys, time
from multiprocessing import Pool

library, directory, size, repeat, workers = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
files = sorted(os.path.join(directory, name) for name in os.listdir(directory) if name.lower().endswith((".jpg", ".jpeg")))

def start_worker():
    global thumbnail
    if library == "pyvips":
        os.environ["VIPS_CONCURRENCY"] = "1"      # one thread per worker process
        import pyvips
        pyvips.cache_set_max(0)                   # no operation cache: every file is really decoded
        def thumbnail(path):
            image = pyvips.Image.thumbnail(path, size)
            image.write_to_memory()                # runs the lazy pipeline into a memory buffer
            return image.width * image.height
    else:
        from PIL import Image
        def thumbnail(path):
            with Image.open(path) as image:
                image.thumbnail((size, size), Image.Resampling.LANCZOS)   # draft mode + reduce + Lanczos
                return image.width * image.height

def work(path):
    return thumbnail(path)

if __name__ == "__main__":
    with Pool(workers, initializer=start_worker) as pool:
        list(pool.imap_unordered(work, files, chunksize=1))             # warm-up
        jobs = files * repeat
        start = time.perf_counter()
        list(pool.imap_unordered(work, jobs, chunksize=1))
        seconds = time.perf_counter() - start
    print(json.dumps({"imagesPerSecond": len(jobs) / seconds, "images": len(jobs), "seconds": seconds}))
PY

loadavg() { cut -d' ' -f1 /proc/loadavg; }
images_per_second() { python3 -c 'import json,sys; print("%.1f" % json.load(sys.stdin)["imagesPerSecond"])'; }

echo "$(ls "$images" | wc -l) files in $images; $workers workers; $repeat passes per measurement; $rounds rounds; $(nproc) cores" >&2
results="$work/results.tsv"
for round in $(seq 1 "$rounds"); do
    for size in $sizes; do
        # Rotate the order each round so no tool always runs right after the same other one.
        tools=(imagepipe pyvips pillow)
        shift_by=$(( (round - 1) % 3 ))
        tools=("${tools[@]:$shift_by}" "${tools[@]:0:$shift_by}")
        for tool in "${tools[@]}"; do
            load="$(loadavg)"
            case "$tool" in
                imagepipe) rate="$("$binary" bench thumbnail "$images" --size "$size" --repeat "$repeat" \
                                       --threads "$workers" --json | images_per_second)" ;;
                *) rate="$(python3 "$work/peer.py" "$tool" "$images" "$size" "$repeat" "$workers" | images_per_second)" ;;
            esac
            printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$size" "$tool" "$rate" "$load" >> "$results"
            printf 'round %d  %4d px  %-9s %7s images/s  (load average %s)\n' "$round" "$size" "$tool" "$rate" "$load"
        done
    done
done

python3 - "$results" <<'PY'
import statistics, sys
import PIL, pyvips
rows = [line.split("\t") for line in open(sys.argv[1]).read().splitlines()]
print()
print("libvips %s (pyvips), Pillow %s" % (".".join(str(pyvips.version(i)) for i in range(3)), PIL.__version__))
for size in sorted({int(r[1]) for r in rows}):
    print("%d px, images/s:       best   median   (load average min–max)" % size)
    summary = {}
    for tool in ("imagepipe", "pyvips", "pillow"):
        rates = [float(r[3]) for r in rows if int(r[1]) == size and r[2] == tool]
        loads = [float(r[4]) for r in rows if int(r[1]) == size and r[2] == tool]
        summary[tool] = (max(rates), statistics.median(rates))
        print("  %-18s %7.1f  %7.1f   (%.2f–%.2f)" % (tool, max(rates), statistics.median(rates), min(loads), max(loads)))
    for peer in ("pyvips", "pillow"):
        print("  imagepipe / %-6s  %7.2f  %7.2f" % (peer, summary["imagepipe"][0] / summary[peer][0],
                                                   summary["imagepipe"][1] / summary[peer][1]))
    best_peer = max(("pyvips", "pillow"), key=lambda tool: summary[tool][1])
    print("  imagepipe / best peer (%s, by median): %.2f (goal ≥ 1.2)" % (best_peer, summary["imagepipe"][1] / summary[best_peer][1]))
PY
