# ambibench: the first two targets are the README's first two commands.
GO ?= go
OUT ?= out

.PHONY: bench test gobench fuzz cover clean

# The main job: the reference agents and the workflows direct and sgcot
# (on the simulated model) on every tabletop cell, 100 episodes each;
# prints the agent x perturbation table and writes $(OUT)/tabletop/.
bench:
	rm -rf $(OUT)/tabletop
	$(GO) run ./cmd/ambibench run --track tabletop --agents oracle,rules,random,direct,sgcot --model sim --episodes 100 --out $(OUT)/tabletop

# Everything CI checks: formatting, vet, and the tests under the race
# detector.
test:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

# The Go benchmarks, one line per cell, tabulated by benchstat.
gobench:
	mkdir -p $(OUT)
	$(GO) test -run '^$$' -bench . -benchtime 50x ./bench/ | tee $(OUT)/gobench.txt
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
