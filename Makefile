# StoreBench — the two commands: `make bench` and `make test`.
# Both install what they need first (`make deps`).

SHELL       := /bin/bash
SWIFT       ?= swift
PACKAGES    := libsqlite3-dev liblmdb-dev pkg-config
SUDO        := $(shell [ "$$(id -u)" = "0" ] || echo sudo)
REPORTS     := Reports
RELEASE_BIN := .build/release/storebench

.PHONY: all deps build release rerender sweep test fuzz-smoke fuzz test-tsan test-example kit kit-model kit-score test-floors-optimized bench bench-shard bench-merge bench-sharded lint-workflows reference conformance damage-sweep clean help

all: build

help:
	@echo "make bench        build in release, run the quick profile over every backend, write $(REPORTS)/latest.md and .json"
	@echo "make bench-sharded SHARDS=4  the quick profile split into SHARDS shards run as parallel processes, merged into $(REPORTS)/merged/latest.md (the steps of .github/workflows/bench.yml)"
	@echo "make bench-shard SHARD=2/4  one shard into $(REPORTS)/shards/2; make bench-merge joins $(REPORTS)/shards/*/latest.json"
	@echo "make lint-workflows  check .github/workflows with actionlint (ACTIONLINT_SOURCE=checkout builds it offline), then the workflow schema and zizmor when installed"
	@echo "make sweep        build in release, run the growth sweeps at full size (long: up to 4 GiB per store), write $(REPORTS)/sweep/latest.md"
	@echo "make reference    build in release, run the standard profile, write $(REPORTS)/reference.md and .json (within 30 min on 2 cores)"
	@echo "make test         install what the tests need, then swift test and fuzz-smoke"
	@echo "make fuzz-smoke   each fuzz target (predicate, record, pagewalk) under libFuzzer for $(FUZZ_SMOKE_SECONDS) s from seed 1"
	@echo "make fuzz         each fuzz target for FUZZ_SECONDS=$(FUZZ_SECONDS) s (FUZZ_TARGETS=..., FUZZ_SEED=...); found inputs in .build-fuzz/artifacts"
	@echo "make test-tsan    the concurrency stress run (readers beside a writer, LMDB map growth, graph contexts) under ThreadSanitizer"
	@echo "make test-example the outside packages: Examples/OutsideBackend (its kit tests, its own CLI measuring it beside sqlite) and Examples/KitScore's tests"
	@echo "make kit CASE='queries.inList\\b'  run the tests matching CASE (a regular expression); fails when none matches"
	@echo "make kit-score    the kit's mutation score from outside: Examples/KitScore's mutations of SQLiteStore, each named (about 3 min after its build)"
	@echo "make kit-model    the kit's random operations at length (KIT_OPS=200000, SEED=... to replay) on every backend"
	@echo "make test-floors-optimized  the floor tests (equal work, allocations) in an optimized build, as the runner runs floors"
	@echo "make deps         install missing system packages: $(PACKAGES)"
	@echo "make rerender     render Reports/reference.md (and its pages) and the schema-2 fixture again from their JSON"
	@echo "make conformance  print the conformance table for every built-in backend"
	@echo "make damage-sweep the long damaged-file sweep of Documentation/Integrity.md (2,100 random + 700 structural files per engine, reads with verifyOnOpen off and on; about 10 min; SEED=1)"

# Installs only the packages that are missing; `apt-get update` runs first when something is.
deps:
	@missing=""; \
	for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	else \
	  echo "deps: $(PACKAGES) present"; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product storebench

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) fuzz-smoke

# The fuzz targets (Tests/Fuzz, Documentation/Integrity.md), built with libFuzzer and AddressSanitizer
# in .build-fuzz: `make test` runs each briefly from a fixed seed and the committed inputs alone;
# `make fuzz` runs each for FUZZ_SECONDS, keeping what it learns in .build-fuzz/corpus.
FUZZ_SECONDS       ?= 600
FUZZ_SMOKE_SECONDS ?= 20
fuzz-smoke: deps
	@if [ "$$(uname -s)" != Linux ]; then echo "fuzz-smoke: skipped: libFuzzer comes with the Linux toolchains only"; \
	else SWIFT=$(SWIFT) FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS) FUZZ_SEED=1 FUZZ_CORPUS=fresh bash Tests/Fuzz/fuzz.sh; fi
fuzz: deps
	SWIFT=$(SWIFT) FUZZ_SECONDS=$(FUZZ_SECONDS) bash Tests/Fuzz/fuzz.sh

# Reader threads beside a writer on SQLite and LMDB (with map growth) and object-graph contexts on
# several threads, built with ThreadSanitizer in a scratch folder of its own (the normal build is
# left alone). A race ends the run with ThreadSanitizer's report; a wrong answer exits 1.
TSAN_BUILD := .build/tsan
test-tsan: deps
	$(SWIFT) build --product storebench-stress --sanitize=thread --scratch-path $(TSAN_BUILD)
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" $(TSAN_BUILD)/debug/storebench-stress 3

# An outside package (Examples/OutsideBackend, depending on this one by path) builds, passes the
# kit one test per case, and its own executable (StoreBenchCLI.main with its backend registered)
# runs the kit and measures its backend beside sqlite, cells as its own child processes.
EXAMPLE     := Examples/OutsideBackend
EXAMPLE_BIN := $(EXAMPLE)/.build/debug/counting-bench
KIT_SCORE   := Examples/KitScore
test-example: deps
	cd $(EXAMPLE) && $(SWIFT) build --build-tests
	cd $(EXAMPLE) && $(SWIFT) test --skip-build
	$(EXAMPLE_BIN) list | grep -q '^| counting+sqlite | sqlite |'
	$(EXAMPLE_BIN) run --help | grep -q '^USAGE: counting-bench run'
	$(EXAMPLE_BIN) conformance --backend counting+sqlite > $(EXAMPLE)/.build/conformance.md
	rm -rf $(EXAMPLE)/.build/report
	$(EXAMPLE_BIN) run --backends counting+sqlite,sqlite --workloads crud.read-pk.single,crud.insert.single \
	  --scale tiny --rounds 1 --no-conformance --out $(EXAMPLE)/.build/report
	grep -q 'counting+sqlite' $(EXAMPLE)/.build/report/latest.md
	cd $(KIT_SCORE) && $(SWIFT) build --build-tests && $(SWIFT) test --skip-build
	@echo "test-example: counting+sqlite passed the kit and was measured beside sqlite ($(EXAMPLE)/.build/report/latest.md); KitScore's unmutated wrapper passed the kit and each mutation is observable"

# One kit case (or any tests) by regular expression; a filter that matches nothing fails, where
# `swift test --filter` alone would pass with 0 tests.
kit: deps
	@test -n "$(CASE)" || { echo "usage: make kit CASE=queries.inList"; exit 2; }
	$(SWIFT) build --build-tests
	set -o pipefail; $(SWIFT) test --skip-build --filter '$(CASE)' 2>&1 | tee .build/kit.log
	@grep -Eq 'Executed [1-9][0-9]* tests?|Test run with [1-9][0-9]* tests?' .build/kit.log || { echo "kit: no test matches '$(CASE)'"; exit 1; }

# The kit's property-based cases at length, on every built-in backend: OPS random operations
# from SEED (a new random seed when unset; a failure prints the seed that replays it).
KIT_OPS ?= 200000
kit-model: release
	@seed=$${SEED:-$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}; echo "kit-model: seed $$seed, $(KIT_OPS) operations per backend"; \
	STOREBENCH_KIT_SEED=$$seed STOREBENCH_KIT_OPS=$(KIT_OPS) $(RELEASE_BIN) conformance --filter model.random --verbose

# The kit's mutation score, measured from outside: Examples/KitScore, a package depending on this
# one as a backend author's would, wraps SQLiteStore (and the object graph over it) with one of
# its mutations at a time and runs the kit until a case fails (about 3 min after its build).
# Prints a line per mutation and the score; exit 1 below 95 % or when the unmutated wrapper fails.
kit-score: deps
	cd $(KIT_SCORE) && $(SWIFT) build --product kit-score
	$(KIT_SCORE)/.build/debug/kit-score

# The floor tests also run in `make test` (debug); this runs them optimized, as the benchmark does.
test-floors-optimized: deps
	$(SWIFT) build -c release --build-tests -Xswiftc -enable-testing
	$(SWIFT) test -c release --skip-build -Xswiftc -enable-testing --filter FloorEqualWorkTests

bench: release
	$(RELEASE_BIN) run --profile quick --out $(REPORTS)

# Sharded runs: the steps .github/workflows/bench.yml runs on a matrix of machines, here as
# parallel processes on one (each shard measures whole workloads, so its ratios stay same-machine).
SHARDS      ?= 4
PROFILE     ?= quick
BENCH_ARGS  ?=
SHARD_RUN    = $(RELEASE_BIN) run --profile $(PROFILE) $(BENCH_ARGS) --heartbeat 60 --shard "$$shard" --out "$(REPORTS)/shards/$${shard%%/*}"
SHARD_MERGE  = $(RELEASE_BIN) merge $(REPORTS)/shards/*/latest.json --out $(REPORTS)/merged

bench-shard: release
	@[ -n "$(SHARD)" ] || { echo "bench-shard: give SHARD=INDEX/COUNT, e.g. make bench-shard SHARD=2/4"; exit 64; }
	shard="$(SHARD)"; $(SHARD_RUN)

bench-merge: release
	$(SHARD_MERGE)

bench-sharded: release
	@rm -rf $(REPORTS)/shards $(REPORTS)/merged; mkdir -p $(REPORTS)/shards
	@echo "bench-sharded: $(SHARDS) shards of the $(PROFILE) profile in parallel; logs in $(REPORTS)/shards/N.log"
	@pids=(); for i in $$(seq 1 $(SHARDS)); do shard=$$i/$(SHARDS); ($(SHARD_RUN)) > $(REPORTS)/shards/$$i.log 2>&1 & pids+=($$!); done; 	status=0; i=0; for p in "$${pids[@]}"; do i=$$((i + 1)); wait $$p || status=$$?; echo "shard $$i/$(SHARDS): $$(tail -n 1 $(REPORTS)/shards/$$i.log)"; done; 	$(SHARD_MERGE) || exit $$?; exit $$status

# actionlint over the workflows (see .ci/lint-workflows for where it comes from), then the schema and zizmor.
lint-workflows:
	.ci/lint-workflows

# The growth sweeps at full size (up to 1M records and 4 GiB of values per store and backend): Reports/sweep/latest.md.
sweep: release
	$(RELEASE_BIN) run --profile sweep --out $(REPORTS)/sweep

reference: release
	$(RELEASE_BIN) run --profile standard --out $(REPORTS)/reference-run
	mv $(REPORTS)/reference-run/latest.json $(REPORTS)/reference.json
	rm -rf $(REPORTS)/reference-run
	$(RELEASE_BIN) report $(REPORTS)/reference.json --out $(REPORTS)/reference.md

# After a change to how reports render: the committed reference and the schema-2 fixture again,
# from their JSON (no measuring; a test compares them with what this build renders).
rerender: build
	.build/debug/storebench report $(REPORTS)/reference.json --out $(REPORTS)/reference.md
	rm -rf .build/rerender && mkdir -p .build/rerender
	.build/debug/storebench report Tests/StoreBenchTests/Fixtures/results-schema2.json --out .build/rerender/latest.md
	cat .build/rerender/latest.md .build/rerender/latest/*.md > Tests/StoreBenchTests/Fixtures/results-schema2.md

conformance: release
	$(RELEASE_BIN) conformance

# The figures of Documentation/Integrity.md: sqlite and lmdb, 700 trials of each of the four
# kinds of damage, every copy read with verifyOnOpen off and on, then verified. Exit 1 when
# verify misses a wrong read, crashes, hangs or writes, or a read with verifyOnOpen crashes.
SEED ?= 1
damage-sweep: release
	$(RELEASE_BIN) damage --trials 700 --seed $(SEED) --verify-on-open

clean:
	rm -rf .build .build-fuzz
