module github.com/ambibench/ambibench

go 1.26.0

require (
	github.com/go-gl/mathgl v1.2.0
	github.com/jakecoffman/cp/v2 v2.4.0
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da // indirect
	golang.org/x/sync v0.19.0 // indirect
)

tool golang.org/x/perf/cmd/benchstat
