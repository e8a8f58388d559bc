module github.com/ambibench/ambibench

go 1.26

require (
	github.com/go-gl/mathgl v1.2.0
	github.com/jakecoffman/cp/v2 v2.4.0
)

require golang.org/x/sync v0.19.0 // indirect
