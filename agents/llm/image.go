package llm

import (
	"fmt"
	"regexp"
)

// Image is a picture a message shows the model. It is named by its
// Digest, which says what determines it (for the tabletop's camera,
// camera.SceneDigest: the scene, the camera and the renderer's version),
// not by its pixels, so that a request's hash is the same on every
// machine. Its bytes are made only when something needs them (a backend
// sending them, a cassette or a transcript storing them): the simulated
// model, which reads no pixels, never asks for them.
type Image struct {
	// Digest is a lowercase hex string of 16 to 128 digits.
	Digest string `json:"digest"`
	// MIME is the image's type: ImagePNG or ImageJPEG.
	MIME string `json:"mime"`
	// Width and Height are the image's size in pixels, which what a
	// provider charges for an image depends on.
	Width  int `json:"width"`
	Height int `json:"height"`
	// Data makes the image's bytes; it must return the same bytes each
	// time. Nil for an image read back by digest alone (a cassette's or a
	// transcript's request), whose bytes are stored beside it.
	Data func() ([]byte, error) `json:"-"`
}

// Image types a backend can send.
const (
	ImagePNG  = "image/png"
	ImageJPEG = "image/jpeg"
)

var digestPattern = regexp.MustCompile(`^[0-9a-f]{16,128}$`)

// Check reports what is wrong with im's name, type or size.
func (im Image) Check() error {
	switch {
	case !digestPattern.MatchString(im.Digest):
		return fmt.Errorf("image digest %q: want 16 to 128 lowercase hex digits", im.Digest)
	case im.MIME != ImagePNG && im.MIME != ImageJPEG:
		return fmt.Errorf("image %.12s: type %q: want %s or %s", im.Digest, im.MIME, ImagePNG, ImageJPEG)
	case im.Width < 1 || im.Height < 1:
		return fmt.Errorf("image %.12s: size %d×%d: want both sides at least 1 pixel", im.Digest, im.Width, im.Height)
	}
	return nil
}

// Bytes makes the image's bytes.
func (im Image) Bytes() ([]byte, error) {
	if im.Data == nil {
		return nil, fmt.Errorf("image %.12s: no bytes: it was read back by its digest alone", im.Digest)
	}
	b, err := im.Data()
	if err != nil {
		return nil, fmt.Errorf("image %.12s: %w", im.Digest, err)
	}
	return b, nil
}

// Ext is the file extension of the image's type, with its dot.
func (im Image) Ext() string {
	if im.MIME == ImageJPEG {
		return ".jpg"
	}
	return ".png"
}

// ImageTokens is what the simulated model counts an image of w×h pixels
// as: one token for every 750 square pixels, rounded up, at most 1,600.
// It is Anthropic's published estimate; OpenAI's high-detail rule (85 and
// 170 a 512-pixel tile) and Gemini's (258 a tile of up to 768 pixels) give
// 425 and 258 at the camera's 640×480, against 410 here.
func ImageTokens(w, h int) int {
	if w < 1 || h < 1 {
		return 0
	}
	return min((w*h+749)/750, 1600)
}

// HasImages reports whether any message of req shows an image.
func (req *Request) HasImages() bool {
	for i := range req.Messages {
		if len(req.Messages[i].Images) > 0 {
			return true
		}
	}
	return false
}

// SendBytes is the image's bytes as a backend sends them: the image
// checked (Check), its bytes made, and none of it empty. Every error
// names the image's digest.
func (im Image) SendBytes() ([]byte, error) {
	if err := im.Check(); err != nil {
		return nil, err
	}
	if im.Data == nil {
		return nil, fmt.Errorf("digest %s: no bytes to send: the image was read back by its digest alone", im.Digest)
	}
	b, err := im.Data()
	if err != nil {
		return nil, fmt.Errorf("digest %s: making its bytes: %w", im.Digest, err)
	}
	if len(b) == 0 {
		return nil, fmt.Errorf("digest %s: its bytes are empty", im.Digest)
	}
	return b, nil
}
