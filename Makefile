# ambibench: the first two targets are the README's first two commands.
GO ?= go
OUT ?= out

.PHONY: bench test gobench baselines fuzz cover clean

# The main job: every tabletop agent (reference agents and workflows, the
# workflows on the simulated model) on every tabletop cell, 100 episodes
# each; prints the agent x perturbation table, writes $(OUT)/tabletop/
# (records.jsonl, summary.md, report.md: the SG-CoT paper's tables, the
# ablations and the paired tests), then the scene-size series to
# $(OUT)/scene-size/, then the household track's evaluation split to
# $(OUT)/household/, then the semmap track's built-in dataset to
# $(OUT)/semmap/ (report.md and, next to it, the plot of Top-Any against map
# size).
bench:
	rm -rf $(OUT)/tabletop $(OUT)/scene-size
	$(GO) run ./cmd/ambibench run --track tabletop --agents all --model sim --episodes 100 --out $(OUT)/tabletop
	$(GO) run ./cmd/ambibench report --out $(OUT)/tabletop/report.md $(OUT)/tabletop
	$(GO) run ./cmd/ambibench run --track tabletop --model sim --agents sgcot,sgcot-full-graph,direct --tasks pick_place --perturbations none --scene-sizes 6,12,24,48 --episodes 50 --out $(OUT)/scene-size > /dev/null
	$(GO) run ./cmd/ambibench report --out $(OUT)/scene-size/report.md $(OUT)/scene-size
	rm -rf $(OUT)/household
	$(GO) run ./cmd/ambibench run --track household --agents oracle,rules,random,react,reflexion,react-text,reflexion-text,dyref,dyref-ambiguity,reflect-all,no-reflect --model sim --out $(OUT)/household
	$(GO) run ./cmd/ambibench report --cut dyref --out $(OUT)/household/report.md $(OUT)/household
	rm -rf $(OUT)/semmap
	$(GO) run ./cmd/ambibench run --track semmap --agents all --modes certainty,uncertainty --model sim --out $(OUT)/semmap
	$(GO) run ./cmd/ambibench report --out $(OUT)/semmap/report.md $(OUT)/semmap
	@echo "Reports: $(OUT)/tabletop/report.md, $(OUT)/scene-size/report.md, $(OUT)/household/report.md, $(OUT)/semmap/report.md (plot: $(OUT)/semmap/semmap_topany_by_map_size.png)"

# Everything CI checks: formatting, vet, and the tests under the race
# detector. The tests in SLOW play hundreds or thousands of episodes each,
# one after another or through the same runner that the concurrency tests
# cover under the race detector; the detector slows them tenfold and finds
# nothing more there, so they run once without it. The pinned cp fork is a
# module of its own, which ./... does not reach; its tests run last.
SLOW = ^(TestReferenceAgents|TestCompareSaltsPass|TestDirectSimBetweenWeakAndPerfect|TestInnerMonologueDefaultSim|TestProgPromptWithSim|TestCLARAWithPerfectModel|TestHouseholdReflectionSuppressesSlip|TestExpertIsShortest|TestSemmapWorkflowsBuiltinPerfect|TestSemmapWorkflowsBuiltinSim|TestSGCoTAblationsWithPerfectModel|TestSGCoTWithPerfectModel|TestDirectWithPerfectModel|TestDyRefWithPerfectModel|TestToolkitAgentsWithSim|TestTrainRouterIsDeterministic|TestShippedRouterIsReproducible|TestTrainRouter|TestBaselines)$$
test:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -race -count=1 -skip '$(SLOW)' ./...
	$(GO) test -count=1 -run '$(SLOW)' ./...
	cd third_party/cp && $(GO) test -race -count=1 ./...

# The stored reference runs of the default suite on the simulated model
# (the runs of make bench), which make test holds every record to:
# regenerate them after a change that is meant to move a record, and say
# in the commit what moved and why.
baselines:
	$(GO) test -count=1 -run '^TestBaselines$$' ./bench/ -update-baselines

# The Go benchmarks, one line per cell, tabulated by benchstat.
gobench:
	mkdir -p $(OUT)
	$(GO) test -run '^$$' -bench . -benchtime 50x ./bench/... | tee $(OUT)/gobench.txt
	$(GO) tool benchstat -col /agent $(OUT)/gobench.txt

# A short run of every fuzz target.
FUZZTIME ?= 15s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf $(OUT)
