#!/bin/sh
# Runs every benchmark behind docs/PERFORMANCE.md, one after the other (the
# machine has two cores: never two at once), and prints the raw lines with
# the machine's description and load. Usage, from the module root:
#   internal/perf/bench.sh > /tmp/perf.txt 2>&1
# The namespace benchmarks make their own namespace (netlab.Enter); nothing
# here needs /work/shared/netns-run.
set -u
echo "# $(date -u +%FT%TZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(go version)"
echo "# load: $(cat /proc/loadavg)"
run() {
	echo "## go test $*  (load $(cut -d' ' -f1-3 /proc/loadavg))"
	go test -run '^$' -timeout 20m "$@" 2>&1 | grep -v '^\s*$'
}
run ./engine -bench '^BenchmarkPlayout$' -benchtime 2s -count 3
run ./internal/arena -bench '^BenchmarkGames$' -benchtime 1s
run ./internal/perf -bench '^BenchmarkBotPlies$' -benchtime 1s
run ./internal/perf -bench '^BenchmarkDiceRoll$' -benchtime 3x
run ./internal/perf -bench '^BenchmarkLogAppend$' -benchtime 200x
run ./internal/perf -bench '^BenchmarkTurnLatency$' -benchtime 2x
run ./internal/perf -bench '^BenchmarkTurnLatencyDriver$' -benchtime 2x
run ./internal/perf -bench '^BenchmarkDiscovery$' -benchtime 1x
run ./internal/perf -bench '^BenchmarkStartup$' -benchtime 20x
run ./internal/perf -bench '^BenchmarkPeerMemory$' -benchtime 1x
run ./internal/perf -bench '^BenchmarkBinarySize$' -benchtime 1x
echo "# load: $(cat /proc/loadavg)"
