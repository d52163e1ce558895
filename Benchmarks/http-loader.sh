#!/usr/bin/env bash
# HTTP loader benchmark: `imagepipe bench http` (CurlDataLoader) against `curl --parallel`,
# both fetching the same 1,000 URLs from nginx on loopback, in the same run.
#
#   Benchmarks/http-loader.sh [requests] [concurrency]
#
# The corpus comes from $IMAGEPIPELINE_CORPUS or ../shared/corpus beside the repository.
set -euo pipefail

REQUESTS=${1:-1000}
CONCURRENCY=${2:-6}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=${IMAGEPIPELINE_CORPUS:-$ROOT/../shared/corpus}
FILES_DIR=$(cd "$CORPUS/bench/http-50k" && pwd)

if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
    echo "installing nginx" >&2
    apt-get install -y nginx >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
cat > "$WORK/nginx.conf" <<CONF
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000;
    client_body_temp_path $WORK/body;
    proxy_temp_path $WORK/proxy;
    fastcgi_temp_path $WORK/fastcgi;
    uwsgi_temp_path $WORK/uwsgi;
    scgi_temp_path $WORK/scgi;
    server {
        listen 127.0.0.1:$PORT;
        root $FILES_DIR;
    }
}
CONF
"$NGINX" -c "$WORK/nginx.conf" -e "$WORK/error.log"
cleanup() {
    "$NGINX" -c "$WORK/nginx.conf" -e "$WORK/error.log" -s stop 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

mapfile -t NAMES < <(ls "$FILES_DIR" | sort)
for ((i = 0; i < REQUESTS; i++)); do
    echo "http://127.0.0.1:$PORT/${NAMES[i % ${#NAMES[@]}]}"
done > "$WORK/urls.txt"
curl -sf -o /dev/null "http://127.0.0.1:$PORT/${NAMES[0]}"   # nginx is up

echo "building release" >&2
(cd "$ROOT" && swift build -c release --product imagepipe >&2)
IMAGEPIPE=$(cd "$ROOT" && swift build -c release --show-bin-path)/imagepipe

# Both tools are timed the same way, from outside, as whole processes: wall-clock for the full
# list (t_N) and for its first URL alone (t_1, the same process doing its start-up and one
# transfer). Two figures per tool:
#   wall rate      N / t_N            (includes process start-up: ~5 ms for curl, ~30-40 ms for
#                                      imagepipe, which loads Foundation and the Swift runtime)
#   transfer rate  (N - 1) / (t_N - median t_1)   (start-up cancels out: the loader's throughput;
#                                      the median over all rounds, since one t_1 under load is noisy)
# Both discard the bodies: curl writes them to /dev/null, imagepipe counts each chunk and checks
# it against Content-Length. imagepipe's own in-process figure is printed as well.
head -n 1 "$WORK/urls.txt" > "$WORK/url1.txt"
to_cfg() { sed 's/^/url = /; s/$/\noutput = \/dev\/null/' "$1"; }
to_cfg "$WORK/urls.txt" > "$WORK/curl.cfg"
to_cfg "$WORK/url1.txt" > "$WORK/curl1.cfg"

now() { date +%s.%N; }
run_curl() { curl -s --no-progress-meter --parallel --parallel-max "$CONCURRENCY" --config "$1"; }
# The JSON goes to a file and is checked after the clock stops (a python3 in the pipe would be
# timed too: tens of milliseconds on a loaded machine).
run_ours() { "$IMAGEPIPE" bench http --urls-file "$1" --concurrency "$CONCURRENCY" --json > "$2"; }
check_ours() {
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["failures"]==0, d; print(d["requestsPerSecond"])' "$1"
}
# Prints "<t_1> <t_N> [in-process rate]" for one tool.
time_curl() {
    local a b c
    a=$(now); run_curl "$WORK/curl1.cfg"; b=$(now); run_curl "$WORK/curl.cfg"; c=$(now)
    python3 -c "print($b - $a, $c - $b)"
}
time_ours() {
    local a b c inner
    a=$(now); run_ours "$WORK/url1.txt" "$WORK/ours1.json"; b=$(now); run_ours "$WORK/urls.txt" "$WORK/ours.json"; c=$(now)
    check_ours "$WORK/ours1.json" >/dev/null
    inner=$(check_ours "$WORK/ours.json")
    python3 -c "print($b - $a, $c - $b, $inner)"
}

ROUNDS=${ROUNDS:-7}
# Warm up both (page cache, nginx, dynamic loader), then alternate rounds, swapping which goes first.
time_curl >/dev/null; time_ours >/dev/null
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
: > "$WORK/results.txt"
for ((round = 1; round <= ROUNDS; round++)); do
    if ((round % 2)); then c=$(time_curl); o=$(time_ours); else o=$(time_ours); c=$(time_curl); fi
    echo "$c $o" >> "$WORK/results.txt"
    python3 - "$REQUESTS" $c $o <<'PY'
import sys
n = int(sys.argv[1]); c1, cn, o1, on, inner = map(float, sys.argv[2:7])
print(f"round: curl wall {n/cn:6.0f} req/s (start-up {c1*1000:4.0f} ms) | "
      f"imagepipe wall {n/on:6.0f} req/s (start-up {o1*1000:4.0f} ms), in-process {inner:6.0f} req/s")
PY
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
echo "requests: $REQUESTS over ${#NAMES[@]} files, concurrency $CONCURRENCY, $ROUNDS rounds"
python3 - "$REQUESTS" "$WORK/results.txt" <<'PY'
import statistics, sys
n = int(sys.argv[1])
rows = [list(map(float, line.split())) for line in open(sys.argv[2]) if line.strip()]
curl_start = statistics.median(r[0] for r in rows)
ours_start = statistics.median(r[2] for r in rows)
series = {
    "curl --parallel       wall":     [n / r[1] for r in rows],
    "curl --parallel       transfer": [(n - 1) / max(1e-6, r[1] - curl_start) for r in rows],
    "imagepipe bench http  wall":     [n / r[3] for r in rows],
    "imagepipe bench http  transfer": [(n - 1) / max(1e-6, r[3] - ours_start) for r in rows],
    "imagepipe in-process":           [r[4] for r in rows],
}
for name, values in series.items():
    print(f"{name}: best {max(values):7.0f}  median {statistics.median(values):7.0f} req/s")
for kind in ("wall", "transfer"):
    ours = series[f"imagepipe bench http  {kind}"]; theirs = series[f"curl --parallel       {kind}"]
    print(f"ratio imagepipe/curl ({kind}): best {max(ours)/max(theirs):.2f}  "
          f"median {statistics.median(ours)/statistics.median(theirs):.2f}")
PY
