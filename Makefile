# ambibench: the first two targets are the README's first two commands.
GO ?= go
OUT ?= out

.PHONY: bench test test-long test-browser test-arm64 gobench baselines fuzz cover clean

# The main job: every tabletop agent (reference agents and workflows, the
# workflows on the simulated model) on every tabletop cell, 100 episodes
# each; prints the agent x perturbation table, writes $(OUT)/tabletop/
# (records.jsonl, summary.md, report.md: the SG-CoT paper's tables, the
# ablations and the paired tests), then the scene-size series to
# $(OUT)/scene-size/, then the household track's evaluation split to
# $(OUT)/household/, then the semmap track's built-in dataset to
# $(OUT)/semmap/ (report.md and, next to it, the plot of Top-Any against map
# size). Next to each report, ambibench view's site: DIR/view/index.html.
# The command is built once, to $(OUT)/bin/ambibench.
AMBIBENCH = $(OUT)/bin/ambibench
bench:
	rm -rf $(OUT)/tabletop $(OUT)/scene-size
	$(GO) build -o $(AMBIBENCH) ./cmd/ambibench
	$(AMBIBENCH) run --track tabletop --agents all --model sim --episodes 100 --out $(OUT)/tabletop
	$(AMBIBENCH) report --out $(OUT)/tabletop/report.md $(OUT)/tabletop
	$(AMBIBENCH) view $(OUT)/tabletop
	$(AMBIBENCH) run --track tabletop --model sim --agents sgcot,sgcot-full-graph,direct --tasks pick_place --perturbations none --scene-sizes 6,12,24,48 --episodes 50 --out $(OUT)/scene-size > /dev/null
	$(AMBIBENCH) report --out $(OUT)/scene-size/report.md $(OUT)/scene-size
	$(AMBIBENCH) view $(OUT)/scene-size
	rm -rf $(OUT)/household
	$(AMBIBENCH) run --track household --agents oracle,rules,random,react,reflexion,react-text,reflexion-text,dyref,dyref-ambiguity,reflect-all,no-reflect --model sim --out $(OUT)/household
	$(AMBIBENCH) report --cut dyref --out $(OUT)/household/report.md $(OUT)/household
	$(AMBIBENCH) view $(OUT)/household
	rm -rf $(OUT)/semmap
	$(AMBIBENCH) run --track semmap --agents all --modes certainty,uncertainty --model sim --out $(OUT)/semmap
	$(AMBIBENCH) report --out $(OUT)/semmap/report.md $(OUT)/semmap
	$(AMBIBENCH) view $(OUT)/semmap
	@echo "Reports: $(OUT)/tabletop/report.md, $(OUT)/scene-size/report.md, $(OUT)/household/report.md, $(OUT)/semmap/report.md (plot: $(OUT)/semmap/semmap_topany_by_map_size.png)"
	@echo "Sites (open in a browser): $(OUT)/tabletop/view/index.html, $(OUT)/scene-size/view/index.html, $(OUT)/household/view/index.html, $(OUT)/semmap/view/index.html"

# The fast tier, what a change is checked with: formatting, vet, every
# test but the long ones without the race detector, then the tests of the
# packages race.txt puts in the fast tier under the detector (the packages
# that start goroutines, listed there with why), with -short: a test that
# plays one path at length skips there, having just run without it. go
# test's own vet is off: go vet ./... has just run every analyzer it would;
# the test binaries are linked without DWARF (-w), a quarter of each link,
# which no test reads. The pinned cp fork is a
# module of its own, which ./... does not reach; its tests run last.
TESTFLAGS = -vet=off -count=1 -ldflags=-w
RACE_FAST = $(shell awk '!/^\#/ && NF >= 3 && $$2 == "fast" { print "./" $$1 }' race.txt)
RACE_LONG = $(shell awk '!/^\#/ && NF >= 3 && $$2 == "long" { print "./" $$1 }' race.txt)
test:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test $(TESTFLAGS) ./...
	$(GO) test $(TESTFLAGS) -race -short $(RACE_FAST)
	cd third_party/cp && $(GO) test -race -count=1 ./...

# The long tier, which CI runs after the fast one: the long tests, each in
# a file named *_long_test.go built only with the tag long (the stored
# baselines replayed, the shipped routers retrained, the compare gate's
# false alarms over 100 salted runs), then the packages race.txt puts in
# the long tier under the race detector, with -short: their tests that
# play many episodes along one path skip there, having run in make test.
# go vet runs with the tag only on the packages of the long files, the
# only ones it changes (make test vetted the rest).
LONG_FILES = $(shell find . -path ./third_party -prune -o -name '*_long_test.go' -print)
LONG_RUN = ^($(shell grep -ho '^func Test[A-Za-z0-9_]*' $(LONG_FILES) | cut -c6- | paste -sd'|' -))$$
test-long:
	$(GO) vet -tags long $(sort $(dir $(LONG_FILES)))
	$(GO) test $(TESTFLAGS) -tags long -run '$(LONG_RUN)' $(sort $(dir $(LONG_FILES)))
	$(GO) test $(TESTFLAGS) -race -short $(RACE_LONG)

# The browser tier, which CI runs last: ambibench view's site opened from
# the file system in headless Chromium (the tests of the files named
# *_browser_test.go, built only with the tag browser: tables and counts
# against the records, a report cell's failures, an episode's transcript
# and images, the comparison page, screenshots against the golden images
# of testdata/screenshots/). It needs Debian's chromium package, or
# CHROMIUM=/path/to/chrome; without one it fails saying so.
BROWSER_FILES = $(shell find . -path ./third_party -prune -o -name '*_browser_test.go' -print)
test-browser:
	$(GO) vet -tags browser $(sort $(dir $(BROWSER_FILES)))
	$(GO) test $(TESTFLAGS) -tags browser -run '^TestBrowser' $(sort $(dir $(BROWSER_FILES)))

# Where the compiler fuses multiply-adds: the packages whose tests hold
# floats against a reference computation, or plots pixel for pixel
# (internal/fma), built for arm64 and run under emulation (Debian's
# qemu-user-static). Not a CI tier: under emulation the module's tests
# take about 15 minutes one package at a time (the baselines 6 more), and
# these packages are where a float's last bit shows.
ARM64_PKGS = ./internal/fma ./scenes/... ./sim/... ./results/reports
test-arm64:
	@command -v qemu-aarch64-static >/dev/null || { echo "make test-arm64 runs arm64 test binaries under qemu-aarch64-static, which is not on PATH: apt-get install qemu-user-static"; exit 1; }
	GOARCH=arm64 $(GO) test $(TESTFLAGS) -exec qemu-aarch64-static $(ARM64_PKGS)

# The stored reference runs of the default suite on the simulated model
# (the runs of make bench), which make test-long holds every record to:
# regenerate them after a change that is meant to move a record, and say
# in the commit what moved and why.
baselines:
	$(GO) test -tags long -count=1 -run '^TestBaselines$$' ./bench/ -update-baselines

# The Go benchmarks, one line per cell, tabulated by benchstat.
gobench:
	mkdir -p $(OUT)
	$(GO) test -run '^$$' -bench . -benchtime 50x ./bench/... | tee $(OUT)/gobench.txt
	$(GO) tool benchstat -col /agent $(OUT)/gobench.txt

# A short run of every fuzz target, by count (-fuzztime Nx) so that a run
# under load explores as far as one on an idle machine; FUZZTIME=15s for
# a run by time.
FUZZTIME ?= 20000x
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf $(OUT)
