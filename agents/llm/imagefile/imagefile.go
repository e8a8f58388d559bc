package imagefile

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // Check reads JPEG headers
	_ "image/png"  // and PNG ones
	"os"
	"path/filepath"

	"github.com/ambibench/ambibench/agents/llm"
)

// Dir is the directory, under a cassette or run directory, that holds the
// images.
const Dir = "images"

// Path is the file of im under dir, once im's name is known to be sound
// (its digest is hex, so it cannot leave the directory).
func Path(dir string, im llm.Image) (string, error) {
	if err := im.Check(); err != nil {
		return "", err
	}
	return filepath.Join(dir, Dir, im.Digest+im.Ext()), nil
}

// Store writes im's bytes to its file under dir, unless the file exists.
// The bytes are made only then. The bytes must be an image of im's type
// and size.
func Store(dir string, im llm.Image) error {
	name, err := Path(dir, im)
	if err != nil {
		return err
	}
	if _, err := os.Stat(name); err == nil {
		return nil
	}
	data, err := im.Bytes()
	if err != nil {
		return err
	}
	if err := matches(data, im); err != nil {
		return fmt.Errorf("storing image %s: %w", name, err)
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+im.Digest+".*.tmp")
	if err != nil {
		return fmt.Errorf("storing image: %w", err)
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("storing image %s: %w", name, err)
	}
	return nil
}

// Check reports whether im's file under dir is there and holds an image of
// im's type and size.
func Check(dir string, im llm.Image) error {
	name, err := Path(dir, im)
	if err != nil {
		return err
	}
	f, err := os.Open(name)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("image file %s is missing", name)
		}
		return fmt.Errorf("image file %s: %w", name, err)
	}
	defer f.Close()
	cfg, format, err := image.DecodeConfig(f)
	if err != nil {
		return fmt.Errorf("image file %s is not a readable image: %v", name, err)
	}
	if err := sameImage(cfg, format, im); err != nil {
		return fmt.Errorf("image file %s: %w", name, err)
	}
	return nil
}

// Open returns im with a Data that reads its file under dir, after
// checking the file as Check does.
func Open(dir string, im llm.Image) (llm.Image, error) {
	if err := Check(dir, im); err != nil {
		return im, err
	}
	name, _ := Path(dir, im)
	im.Data = func() ([]byte, error) { return os.ReadFile(name) }
	return im, nil
}

// matches reports whether data is an image of im's type and size.
func matches(data []byte, im llm.Image) error {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("the bytes are not a readable image: %v", err)
	}
	return sameImage(cfg, format, im)
}

func sameImage(cfg image.Config, format string, im llm.Image) error {
	want := "png"
	if im.MIME == llm.ImageJPEG {
		want = "jpeg"
	}
	switch {
	case format != want:
		return fmt.Errorf("holds a %s image, want %s", format, im.MIME)
	case cfg.Width != im.Width || cfg.Height != im.Height:
		return fmt.Errorf("is %d×%d pixels, want %d×%d", cfg.Width, cfg.Height, im.Width, im.Height)
	}
	return nil
}
