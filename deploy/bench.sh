#!/usr/bin/env bash
# bench.sh is `make bench`: the Go benchmarks of the hot paths, then a
# `selah serve` on a free loopback port against the local database, loaded
# by `selah bench` with the floors of the same run (pgbench SELECT 1 and
# redis-benchmark on the limit script), then the scale-out run (2 web and
# 1, then 2, worker processes, `selah bench --scale-out`). The tables are
# printed and written to bin/bench.md, with the load average before and
# after.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=bin/selah
OUT=bin/bench.md

$BIN migrate >/dev/null
$BIN ingest

echo "== Go benchmarks"
go test -run '^$' -bench 'AuthChain' -benchtime 2s ./web | grep -E '^Benchmark'
go test -run '^$' -bench '^Benchmark(Search|SIFSearch|Answer|Respell)$' -benchtime 2s ./pipeline | grep -E '^Benchmark'

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
log=$(mktemp)
PORT=$port LOG_LEVEL=warn $BIN serve >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 100); do
	curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
	sleep 0.1
done
curl -fs "http://127.0.0.1:$port/readyz" >/dev/null || { cat "$log"; echo "bench: server did not become ready" >&2; exit 1; }

machine="CPUs: $(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo
echo "== selah bench ($machine; load average $load_before)"
$BIN bench --api-url "http://127.0.0.1:$port" --server-pid $pid --concurrency 1,16,32,64 --requests "${BENCH_REQUESTS:-20000}" \
	--duration "${BENCH_DURATION:-8s}" --floors --markdown "$OUT"
kill $pid 2>/dev/null; wait $pid 2>/dev/null || true

echo
echo "== selah bench --scale-out"
$BIN bench --scale-out --concurrency 16,64 --requests "${BENCH_REQUESTS:-20000}" --duration "${BENCH_DURATION:-8s}" \
	--markdown "$OUT"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
printf '\nMachine: %s. Load average before: %s; after: %s.\n' "$machine" "$load_before" "$load_after" | tee -a "$OUT"
echo
echo "markdown tables: $OUT"
