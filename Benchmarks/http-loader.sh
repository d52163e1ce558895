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

# curl: same list, same parallelism; one config file so the process starts once.
sed 's/^/url = /; s/$/\noutput = \/dev\/null/' "$WORK/urls.txt" > "$WORK/curl.cfg"
curl_rate() {
    local start end
    start=$(date +%s.%N)
    curl -s --no-progress-meter --parallel --parallel-max "$CONCURRENCY" --config "$WORK/curl.cfg"
    end=$(date +%s.%N)
    python3 -c "print(f'{$REQUESTS / ($end - $start):.1f}')"
}
ours_rate() {
    "$IMAGEPIPE" bench http --urls-file "$WORK/urls.txt" --concurrency "$CONCURRENCY" --json |
        python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["failures"]==0, d; print(d["requestsPerSecond"])'
}

# Warm up both (page cache, nginx), then alternate three rounds each and keep the best.
curl_rate >/dev/null; ours_rate >/dev/null
best_curl=0; best_ours=0
for round in 1 2 3; do
    c=$(curl_rate); o=$(ours_rate)
    echo "round $round: imagepipe $o req/s, curl $c req/s"
    best_curl=$(python3 -c "print(max($best_curl, $c))")
    best_ours=$(python3 -c "print(max($best_ours, $o))")
done
echo "requests: $REQUESTS over ${#NAMES[@]} files, concurrency $CONCURRENCY"
echo "imagepipe bench http: $best_ours requests/s (best of 3)"
echo "curl --parallel:      $best_curl requests/s (best of 3)"
python3 -c "print(f'ratio imagepipe/curl: {$best_ours / $best_curl:.2f}')"
