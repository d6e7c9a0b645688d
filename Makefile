# opm: build, test and measure. Needs only Go (and gcc for -race).
GO       ?= go
BIN      := bin/opm
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo unknown)
COMMIT   ?= $(shell git rev-parse HEAD 2>/dev/null)
LDFLAGS  := -X main.version=$(VERSION) -X main.gitCommit=$(COMMIT) -X main.buildDate=$(shell date -u +%Y-%m-%dT%H:%M:%SZ)
BENCHDIR ?= $(or $(TMPDIR),/tmp)/opm-bench

.PHONY: build test test-full e2e bench lint demo base-image clean generate check-generated fuzz docs

# bin/opm and, beside it, bin/opm-osdk: the executable opm alpha lint runs
# operator-sdk's suites in (opm finds it beside itself), with the same flags.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/opm
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(dir $(BIN))opm-osdk ./cmd/opm-osdk

# The quick suite a developer runs all the time: unit tests, CLI scripts
# and in-process registry tests, without the race detector, fuzz seed
# corpora and long suites (-short).
test:
	$(GO) test -short ./...

# Everything: the race detector, fuzz seed corpora, long suites, and the
# coverage floor of library packages (hack/test-full.sh). CI runs it.
test-full:
	./hack/test-full.sh

# Every fuzz target for FUZZTIME each, one after another (go test fuzzes
# one target at a time). New failing inputs land in the package's
# testdata/fuzz/FuzzXxx/, where make test replays them. Minimising is
# bounded by runs, not time: the fuzzer also minimises every input that
# finds new code, which for the slower targets (the loader, bundles) would
# otherwise take most of FUZZTIME.
FUZZTIME ?= 30s
FUZZMINIMIZE ?= 500x
FUZZFLAGS ?=
FUZZ_TARGETS := \
	./encoding/fbcyaml:FuzzFastPath ./encoding/fbcyaml:FuzzDecode ./encoding/fbcyaml:FuzzSplitDocuments \
	./encoding/value:FuzzParseJSON ./encoding/value:FuzzAppendCanonical ./declcfg:FuzzLoadFS ./declcfg:FuzzLoad \
	./declcfg:FuzzQuickBundle ./declcfg:FuzzParsePropertyValue ./registryv1:FuzzParse
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		echo "fuzz $${t#*:} in $${t%%:*} for $(FUZZTIME)"; \
		$(GO) test $${t%%:*} -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE) $(FUZZFLAGS); \
	done

# End-to-end checks of the built binary against real parts.
e2e: build
	./e2e/run.sh $(BIN)

# Go benchmarks, then the binary on the large synthetic catalog (wall time
# and peak memory from /usr/bin/time).
# OPM_BENCH_COP=DIR adds the catalogs of a community-operators-prod
# checkout (see e2e/bench.sh); BENCH_OTHER=OPM measures a second binary
# beside ours (upstream's, say), runs alternating.
BENCH_OTHER ?=
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./declcfg ./validate ./render ./serve ./alpha/filter ./alpha/diff ./alpha/graph ./alpha/template ./author/... ./lint
	./e2e/bench.sh $(BIN) $(BENCHDIR) $(BENCH_OTHER)

# go vet, gofmt and staticcheck (pinned in hack/lint.sh, installed into
# bin/tools).
lint:
	./hack/lint.sh

# The main job on bundled example data (testdata/), explained step by step
# in a temporary directory (hack/demo.sh).
demo: build
	@./hack/demo.sh $(BIN)

# A FROM scratch base image holding this opm and grpc_health_probe, for
# catalog images built without pulling quay.io/operator-framework/opm,
# written without a container engine (hack/base-image.sh, which runs
# bench/cmd/baseimage) to an OCI archive that
# `opm alpha catalog build --base-image oci-archive:bin/opm-base.oci.tar` reads.
# BASE_IMAGE may also be oci:DIR[:NAME] or a registry reference.
BASE_IMAGE ?= oci-archive:bin/opm-base.oci.tar
base-image: build
	./hack/base-image.sh $(BIN) $(BASE_IMAGE)

# Regenerates serve/api's Go code from registry.proto with pinned tools
# (see hack/generate.sh).
generate:
	./hack/generate.sh

# Fails when the committed generated code of serve/api differs from what
# registry.proto and the pinned tools produce.
check-generated:
	@set -e; d=$$(mktemp -d); trap 'rm -rf "$$d"' EXIT; \
	./hack/generate.sh "$$d"; \
	stale=; \
	for n in $$({ ls "$$d"; ls serve/api; } | grep '\.pb\.go$$' | sort -u); do \
		cmp -s "$$d/$$n" "serve/api/$$n" || stale="$$stale $$n"; \
	done; \
	if [ -n "$$stale" ]; then echo "serve/api is stale: run make generate (differs:$$stale)" >&2; exit 1; fi

# Regenerates docs/reference, the command reference, from the command tree
# (cmd/opm/docs_test.go); TestReferenceDocs fails when it is stale.
docs:
	$(GO) test ./cmd/opm -count=1 -run '^TestReferenceDocs$$' -args -update-docs

clean:
	rm -rf bin
