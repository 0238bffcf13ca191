#!/usr/bin/env bash
# bench.sh is `make bench`: the Go benchmarks of the hot paths, then a
# `selah serve` on a free loopback port against the local database, loaded
# by `selah bench`. The load table is printed and written to bin/bench.md.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=bin/selah
OUT=bin/bench.md

$BIN migrate >/dev/null
$BIN ingest

echo "== Go benchmarks"
go test -run '^$' -bench 'AuthChain' -benchtime 2s ./web | grep -E '^Benchmark'
go test -run '^$' -bench 'Search(Hybrid|Vector|FullText)|EmbedQueryLocal' -benchtime 2s ./pipeline | grep -E '^Benchmark'

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
log=$(mktemp)
PORT=$port LOG_LEVEL=warn $BIN serve >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 1 100); do
	curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
	sleep 0.1
done
curl -fs "http://127.0.0.1:$port/readyz" >/dev/null || { cat "$log"; echo "bench: server did not become ready" >&2; exit 1; }

echo
echo "== selah bench (CPUs: $(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs))"
$BIN bench --api-url "http://127.0.0.1:$port" --concurrency 1,16 --requests "${BENCH_REQUESTS:-400}" \
	--duration "${BENCH_DURATION:-20s}" --markdown "$OUT"
echo
echo "markdown table: $OUT"
