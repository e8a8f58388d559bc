package view

import (
	"slices"
	"testing"
)

func TestParseMarkdown(t *testing.T) {
	md := "# Report\n\nSome text\non two lines.\n\n## Table\n\n| agent | SR |\n| --- | ---: |\n| a | 0.5 [0.1, 0.9] |\n| b<script> | 1 |\n\nCaption (`x.png`):\n\n![Plot](x.png)\n"
	got := parseMarkdown(md)
	if len(got) != 6 {
		t.Fatalf("%d blocks, want 6: %+v", len(got), got)
	}
	if got[0].Heading != 1 || got[0].Text != "Report" || got[2].Heading != 2 {
		t.Errorf("headings: %+v, %+v", got[0], got[2])
	}
	if got[1].Text != "Some text on two lines." {
		t.Errorf("paragraph %q", got[1].Text)
	}
	tbl := got[3]
	if !slices.Equal(tbl.Header, []string{"agent", "SR"}) || len(tbl.Rows) != 2 || tbl.Rows[1][0] != "b<script>" {
		t.Errorf("table %+v", tbl)
	}
	if got[5].Image != "x.png" || got[5].Alt != "Plot" {
		t.Errorf("image %+v", got[5])
	}
}

func TestEpisodePage(t *testing.T) {
	for _, tc := range []struct {
		kept bool
		n    int
		want string
	}{
		{true, 7, "episodes/7.html"},
		{false, 7, "episodes/g-000.html#e7"},
		{false, 31199, "episodes/g-311.html#e31199"},
	} {
		if got := EpisodePage(tc.kept, tc.n); got != tc.want {
			t.Errorf("EpisodePage(%v, %d) = %q, want %q", tc.kept, tc.n, got, tc.want)
		}
	}
}
