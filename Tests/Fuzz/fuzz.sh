#!/usr/bin/env bash
# Runs the fuzz targets under libFuzzer, built with AddressSanitizer in .build-fuzz (the normal
# build is left alone). `make fuzz-smoke` (part of `make test`) and `make fuzz` call it; settings:
#   FUZZ_SECONDS  per target (default 600)     FUZZ_SEED    libFuzzer's -seed (0: a random one)
#   FUZZ_TARGETS  (default: all three)          FUZZ_CORPUS  fresh: start from the committed inputs alone
# Each target reads its committed inputs (Tests/Fuzz/<target>/seeds and regressions) and writes
# only to .build-fuzz: what it adds to .build-fuzz/corpus/<target>, what fails to
# .build-fuzz/artifacts/<target>/. Exits 1 when any target found a failing input.
set -uo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift} B=.build-fuzz
seconds=${FUZZ_SECONDS:-600} seed=${FUZZ_SEED:-0} targets=${FUZZ_TARGETS:-predicate record pagewalk}
mkdir -p $B
if ! $SWIFT build --scratch-path $B --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -DSTOREBENCH_FUZZ \
    --product storebench-fuzz > $B/build.log 2>&1; then
  grep -E "error:" $B/build.log | head -20
  echo "fuzz: the fuzz build failed (log: $B/build.log)"
  exit 1
fi
status=0
for t in $targets; do
  corpus=$B/corpus/$t
  [ "${FUZZ_CORPUS:-}" = fresh ] && corpus=$B/corpus-fresh/$t && rm -rf "$corpus"
  mkdir -p "$corpus" $B/artifacts/$t
  max_len=4096; [ "$t" = pagewalk ] && max_len=65536
  # SWIFT_BACKTRACE: Swift's own crash handler stays out of AddressSanitizer's way.
  if SWIFT_BACKTRACE=enable=no STOREBENCH_FUZZ_TARGET=$t $B/debug/storebench-fuzz -seed="$seed" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -max_len=$max_len -detect_leaks=0 -artifact_prefix=$B/artifacts/$t/ \
      "$corpus" Tests/Fuzz/$t/seeds Tests/Fuzz/$t/regressions > $B/$t.log 2>&1; then
    echo "fuzz: $t passed: $(grep -E '^Done' $B/$t.log) (seed $seed; corpus $corpus: $(ls "$corpus" | wc -l) inputs)"
    continue
  fi
  status=1
  found=$(grep -o 'Test unit written to [^ ]*' $B/$t.log | tail -1 | cut -d' ' -f5)
  grep -E "Fatal error|ERROR|SUMMARY|==[0-9]+==" $B/$t.log | head -15
  echo "fuzz: $t FAILED on the input saved as ${found:-(none: see $B/$t.log)} (log: $B/$t.log)"
  echo "  replay it without the fuzzer: swift run storebench-fuzz $t $found"
  echo "  fix the product code, then keep it as a fixture: cp $found Tests/Fuzz/$t/regressions/NAME"
  echo "  (swift test --filter FuzzRegressionTests replays every kept input)"
done
exit $status
