package cli

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// What the README says of the command's flags is what the command's help
// says: merge takes --out, and --model's simulated error rates are the
// same list in both.
func TestHelpAgreesWithTheREADME(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	help, _, err := runCLI(t, "run", "--help")
	if err != nil {
		t.Fatal(err)
	}
	out, _, _ := runCLI(t, "help")
	for _, text := range []string{help, out, readme} {
		if regexp.MustCompile(`merge (OUT|DIR)`).MatchString(text) {
			t.Errorf("a help or the README gives merge without --out: %q", regexp.MustCompile(`.*merge (OUT|DIR).*`).FindString(text))
		}
	}
	if !strings.Contains(help, `"ambibench merge --out OUT DIR..."`) {
		t.Error("run --help does not say how merge is called")
	}
	row := regexp.MustCompile("(?m)^\\| `sim:hallucinate=.*$").FindString(readme)
	_, list, _ := strings.Cut(row, "(`")
	list, _, _ = strings.Cut(list, ";")
	var rates []string
	for _, m := range regexp.MustCompile("`?([a-z]+)`").FindAllStringSubmatch("`"+list, -1) {
		rates = append(rates, m[1])
	}
	if len(rates) < 10 {
		t.Fatalf("the README's Models table has no row of explicit sim rates (%q)", row)
	}
	inHelp := regexp.MustCompile(`rates: ([a-z, ]+)\)`).FindStringSubmatch(help)
	if inHelp == nil {
		t.Fatalf("run --help lists no rates for --model:\n%s", help)
	}
	helpRates := strings.Split(inHelp[1], ", ")
	slices.Sort(rates)
	slices.Sort(helpRates)
	if !slices.Equal(rates, helpRates) {
		t.Errorf("rates: README %v, run --help %v", rates, helpRates)
	}
}
