#!/usr/bin/env bash
# JPEG decode throughput of ImagePipeline next to libjpeg-turbo's own tjbench, same files, same run.
#
#   Benchmarks/jpeg-decode.sh [REPEATS] [ROUNDS]
#
# Corpus: $IMAGEPIPELINE_CORPUS, else ../shared/corpus beside the repository.
# Both sides decode single-threaded to 4-byte pixels (tjbench -rgbx, ours RGBA) with the default
# accurate IDCT and fancy upsampling, into a reused buffer, without writing output files. The two
# tools alternate file by file and round by round, and each keeps its best round, so that load
# from other processes (the build machines are shared) hits both alike.
# Prints Mpx/s per file for both, our/tjbench ratio (goal: >= 0.95) and our 1/8-scale decode time.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${IMAGEPIPELINE_CORPUS:-$repo/../shared/corpus}"
folder="$corpus/bench/jpeg-4000x3000-q90"
repeats="${1:-10}"
rounds="${2:-3}"
command -v tjbench >/dev/null || { echo "tjbench missing: apt-get install libjpeg-turbo-progs" >&2; exit 1; }
[ -d "$folder" ] || { echo "no corpus folder $folder" >&2; exit 1; }

cd "$repo"
swift build -c release --product imagepipe >&2
imagepipe="$(swift build -c release --show-bin-path)/imagepipe"

# Pulls "Mpx/s scaled-ms" out of `imagepipe bench decode --json` for one file.
read_ours() {
  python3 -c 'import json, sys
entry = json.load(sys.stdin)["files"][0]
print("%.1f %.2f" % (entry["fullMegapixelsPerSecond"], entry.get("scaledMilliseconds", 0)))'
}

printf '%-26s %11s %11s %7s %14s\n' file "ours Mpx/s" "tjbench" ratio "ours 1/8 (ms)"
ratios=()
for file in "$folder"/*.jpg; do
  ours=0; theirs=0; scaled=0
  for _ in $(seq "$rounds"); do
    read -r mpx ms < <("$imagepipe" bench decode "$file" --repeat "$repeats" --scale 1/8 --json | read_ours)
    # tjbench prints "Throughput: N Megapixels/sec" for the decompression of a JPEG input.
    peer="$(tjbench "$file" -rgbx -nowrite -benchtime 1 -warmup 0.5 | awk '/Throughput:/ {print $2; exit}')"
    ours="$(awk -v a="$ours" -v b="$mpx" 'BEGIN { print (b > a ? b : a) }')"
    theirs="$(awk -v a="$theirs" -v b="$peer" 'BEGIN { print (b > a ? b : a) }')"
    scaled="$(awk -v a="$scaled" -v b="$ms" 'BEGIN { print (a == 0 || b < a ? b : a) }')"
  done
  ratio="$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.3f", a / b }')"
  ratios+=("$ratio")
  printf '%-26s %11.1f %11.1f %7s %14.2f\n' "$(basename "$file")" "$ours" "$theirs" "$ratio" "$scaled"
done
printf '%s\n' "${ratios[@]}" | awk '{ sum += $1; n++ } END { printf "mean ratio ours/tjbench: %.3f (goal >= 0.95)\n", sum / n }'
