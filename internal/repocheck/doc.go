// Package repocheck holds the checks that read the repository as a whole
// rather than one package's behaviour: the import rules of
// docs/packages.md, and the list of packages whose tests run under the race
// detector (race.txt at the repository's root, read by the Makefile).
//
// It has no code of its own, only tests, so that `make test` fails when a
// change breaks a rule the documents state: a package that imports what its
// layer may not, or a package that starts goroutines and is left out of the
// race detector's list. Each failure names the file, the import or package,
// and the rule.
package repocheck
