package cassette

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/imagefile"
)

// imageCounter answers every request with the number of images it saw.
type imageCounter struct{ calls int }

func (e *imageCounter) Name() string { return "imageCounter" }
func (e *imageCounter) Generate(_ context.Context, req llm.Request) (llm.Reply, error) {
	e.calls++
	n := 0
	for _, m := range req.Messages {
		n += len(m.Images)
	}
	return llm.Reply{Text: strings.Repeat("i", n), FinishReason: llm.FinishStop}, nil
}

func testImage(t *testing.T, digest string, made *int) llm.Image {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 6, 4))); err != nil {
		t.Fatal(err)
	}
	return llm.Image{Digest: digest, MIME: llm.ImagePNG, Width: 6, Height: 4,
		Data: func() ([]byte, error) { *made++; return buf.Bytes(), nil }}
}

// TestImagesRecordedOnceAndChecked records three requests that show two
// distinct images (one of them twice), replays them, and then damages the
// stored images: a missing or corrupt image is the cassette's error,
// naming the file, and the replay never makes an image's bytes.
func TestImagesRecordedOnceAndChecked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	made := 0
	a, b := testImage(t, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", &made), testImage(t, "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", &made)
	reqs := []llm.Request{
		{Messages: []llm.Message{{Role: llm.RoleUser, Text: "first", Images: []llm.Image{a}}}},
		{Messages: []llm.Message{{Role: llm.RoleUser, Text: "second", Images: []llm.Image{a, b}}}},
		{Messages: []llm.Message{{Role: llm.RoleUser, Text: "third"}}},
	}
	rec, err := Record(dir, &imageCounter{})
	if err != nil {
		t.Fatal(err)
	}
	var want []llm.Reply
	for _, req := range reqs {
		r, err := rec.Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, r)
	}
	stored, _ := os.ReadDir(filepath.Join(dir, imagefile.Dir))
	if len(stored) != 2 || made != 2 {
		t.Fatalf("%d image files stored, bytes made %d times; want 2 and 2 (each distinct image once)", len(stored), made)
	}
	play, err := Replay(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	// The replay's requests carry no bytes at all: they are never needed.
	for i, req := range reqs {
		for j := range req.Messages {
			imgs := append([]llm.Image(nil), req.Messages[j].Images...)
			for k := range imgs {
				imgs[k].Data = nil
			}
			req.Messages[j].Images = imgs
		}
		got, err := play.Generate(context.Background(), req)
		if err != nil || got.Text != want[i].Text {
			t.Fatalf("replay of request %d: %q, %v; want %q", i, got.Text, err, want[i].Text)
		}
	}
	nameA := filepath.Join(dir, imagefile.Dir, a.Digest+".png")
	nameB := filepath.Join(dir, imagefile.Dir, b.Digest+".png")
	for _, tc := range []struct {
		why    string
		damage func()
		req    int
		want   string
	}{
		{"a corrupt image is refused by name", func() { os.WriteFile(nameB, []byte("\x89PNG\r\n\x1a\n garbage"), 0o644) }, 1, nameB},
		{"a missing image is refused by name", func() { os.Remove(nameA) }, 0, nameA},
		{"a request without images does not look for any", func() {}, 2, ""},
	} {
		tc.damage()
		_, err := play.Generate(context.Background(), reqs[tc.req])
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.why, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error naming %s", tc.why, err, tc.want)
		}
		var le *llm.Error
		if !errors.As(err, &le) || le.Kind != llm.KindCassette || !llm.IsInfra(err) {
			t.Errorf("%s: %v is not the cassette's infrastructure error", tc.why, err)
		}
	}
}

// TestRecorderMendsALostImage: a recorder that serves a recording whose
// image file is gone writes it again from the request's bytes, and an
// image whose bytes are not what they claim loses no paid call: it is
// refused before the model is called.
func TestRecorderMendsALostImage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	made := 0
	a := testImage(t, "cccccccccccccccccccccccccccccccc", &made)
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "look", Images: []llm.Image{a}}}}
	m := &imageCounter{}
	rec, err := Record(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, imagefile.Dir, a.Digest+".png")
	if err := os.Remove(name); err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Generate(context.Background(), req); err != nil {
		t.Fatalf("a recorder with the bytes at hand refused a lost image: %v", err)
	}
	if _, err := os.Stat(name); err != nil || m.calls != 1 {
		t.Errorf("image not put back (%v), or the model called %d times (want once)", err, m.calls)
	}
	bad := a
	bad.Digest, bad.Width = "dddddddddddddddddddddddddddddddd", 99
	_, err = rec.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "look", Images: []llm.Image{bad}}}})
	if err == nil || m.calls != 1 {
		t.Errorf("an image of another size than it claims: %v, model called %d times; want a refusal before the call", err, m.calls)
	}
}
