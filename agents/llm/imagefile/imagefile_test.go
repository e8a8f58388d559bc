package imagefile

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
)

// pngOf is a w×h PNG.
func pngOf(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.White)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func imageOf(data []byte, w, h int, made *int) llm.Image {
	return llm.Image{Digest: "0123456789abcdef0123456789abcdef", MIME: llm.ImagePNG, Width: w, Height: h,
		Data: func() ([]byte, error) { *made++; return data, nil }}
}

func TestStoreOnceAndOpen(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := pngOf(t, 4, 3)
	made := 0
	im := imageOf(data, 4, 3, &made)
	for range 3 {
		if err := Store(dir, im); err != nil {
			t.Fatal(err)
		}
	}
	if made != 1 {
		t.Errorf("the bytes were made %d times for three stores of one image, want once", made)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, Dir))
	if len(entries) != 1 || entries[0].Name() != im.Digest+".png" {
		t.Errorf("images dir holds %v, want the one file %s.png", entries, im.Digest)
	}
	back, err := Open(dir, llm.Image{Digest: im.Digest, MIME: im.MIME, Width: 4, Height: 3})
	if err != nil {
		t.Fatal(err)
	}
	got, err := back.Bytes()
	if err != nil || !bytes.Equal(got, data) {
		t.Errorf("Open's bytes differ from the stored ones (%v)", err)
	}
}

func TestRefusals(t *testing.T) {
	t.Parallel()
	data := pngOf(t, 4, 3)
	for _, tc := range []struct {
		why   string
		file  []byte // the file to leave in place; nil: none
		image llm.Image
		want  string
	}{
		{"a missing file is named", nil, llm.Image{Digest: "00112233445566778899", MIME: llm.ImagePNG, Width: 4, Height: 3}, "is missing"},
		{"a cut file is not an image", data[:20], llm.Image{Digest: "00112233445566778899", MIME: llm.ImagePNG, Width: 4, Height: 3}, "not a readable image"},
		{"a file of another size is not the image", data, llm.Image{Digest: "00112233445566778899", MIME: llm.ImagePNG, Width: 5, Height: 3}, "is 4×3 pixels, want 5×3"},
		{"a PNG under a JPEG's name is not the image", data, llm.Image{Digest: "00112233445566778899", MIME: llm.ImageJPEG, Width: 4, Height: 3}, "holds a png image"},
		{"a digest that could climb out of the directory is refused", nil, llm.Image{Digest: "../../etc/passwd", MIME: llm.ImagePNG, Width: 4, Height: 3}, "hex digits"},
	} {
		dir := t.TempDir()
		if tc.file != nil {
			name, err := Path(dir, tc.image)
			if err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Dir(name), 0o755)
			if err := os.WriteFile(name, tc.file, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		err := Check(dir, tc.image)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Check: %v, want %q", tc.why, err, tc.want)
		}
		if err != nil && tc.image.Check() == nil && !strings.Contains(err.Error(), dir) {
			t.Errorf("%s: %v does not name the file", tc.why, err)
		}
	}
	// Bytes that are not the image they claim are never stored.
	dir := t.TempDir()
	made := 0
	if err := Store(dir, imageOf(data, 8, 8, &made)); err == nil || !strings.Contains(err.Error(), "want 8×8") {
		t.Errorf("Store of bytes of another size: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, Dir, "0123456789abcdef0123456789abcdef.png")); err == nil {
		t.Error("Store left the refused image in place")
	}
}

// FuzzCheck: whatever a stored file holds, Check answers without
// panicking, and an error names the file.
func FuzzCheck(f *testing.F) {
	data := pngOf(f, 4, 3)
	f.Add(data, 4, 3)
	f.Add(data[:len(data)/2], 4, 3)
	f.Add([]byte("\xff\xd8\xff\xe0 not a jpeg"), 1, 1)
	f.Add([]byte{}, 0, 0)
	f.Fuzz(func(t *testing.T, file []byte, w, h int) {
		dir := t.TempDir()
		im := llm.Image{Digest: "00112233445566778899", MIME: llm.ImagePNG, Width: w, Height: h}
		os.MkdirAll(filepath.Join(dir, Dir), 0o755)
		if err := os.WriteFile(filepath.Join(dir, Dir, im.Digest+".png"), file, 0o644); err != nil {
			t.Fatal(err)
		}
		err := Check(dir, im)
		if err != nil && im.Check() == nil && !strings.Contains(err.Error(), dir) {
			t.Errorf("error %v does not name the file", err)
		}
	})
}
