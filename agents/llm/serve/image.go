package serve

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"image"
	_ "image/jpeg" // image.DecodeConfig reads JPEG images
	_ "image/png"  // and PNG images
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
)

// DigestDigits is how many hex digits of the SHA-256 of an image's bytes
// name an image that a request carries. The server has no other name for
// it: the client's digest (what drew the image) does not travel, so the
// same image sent twice gets the same name here, but not the name it had
// in the client.
const DigestDigits = 32

// imageFormats maps the image types the model layer takes to the format
// names image.DecodeConfig gives them.
var imageFormats = map[string]string{llm.ImagePNG: "png", llm.ImageJPEG: "jpeg"}

// decodeImage makes an llm.Image of the bytes data, which the request
// says are of type mime: its size read from the image's header with
// image.DecodeConfig (the pixels are not decoded), its digest the first
// DigestDigits hex digits of the bytes' SHA-256, and Data returning a copy
// of the bytes. path names the field that held the bytes, for errors.
func decodeImage(mime string, data []byte, path string) (llm.Image, error) {
	format, ok := imageFormats[mime]
	if !ok {
		return llm.Image{}, fieldErr(path, "unsupported image type %q (want %s or %s)", mime, llm.ImagePNG, llm.ImageJPEG)
	}
	if len(data) == 0 {
		return llm.Image{}, fieldErr(path, "no image bytes")
	}
	cfg, got, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return llm.Image{}, fieldErr(path, "not a decodable %s image (%d bytes): %v", format, len(data), err)
	}
	if got != format {
		return llm.Image{}, fieldErr(path, "the bytes are a %s image, but the type says %s", got, mime)
	}
	if cfg.Width < 1 || cfg.Height < 1 {
		return llm.Image{}, fieldErr(path, "the image is %d×%d pixels; want both sides at least 1", cfg.Width, cfg.Height)
	}
	sum := sha256.Sum256(data)
	return llm.Image{
		Digest: hex.EncodeToString(sum[:])[:DigestDigits],
		MIME:   mime,
		Width:  cfg.Width,
		Height: cfg.Height,
		Data:   func() ([]byte, error) { return bytes.Clone(data), nil },
	}, nil
}

// dataURLImage reads the URL of an OpenAI image_url part, which must be a
// base64 data URL, data:<MIME>;base64,<bytes>, of a PNG or JPEG image.
// An http(s) URL is refused: serve-sim never fetches anything. path names
// the URL's field, for errors.
func dataURLImage(u, path string) (llm.Image, error) {
	if u == "" {
		return llm.Image{}, fieldErr(path, "required: a data URL such as data:image/png;base64,…")
	}
	scheme, rest, ok := strings.Cut(u, ":")
	switch scheme = strings.ToLower(scheme); {
	case ok && (scheme == "http" || scheme == "https"):
		return llm.Image{}, fieldErr(path, "an %s URL (%s): this server never fetches images; send the image inline as a data URL, data:image/png;base64,…", scheme, clip(u))
	case !ok || scheme != "data":
		return llm.Image{}, fieldErr(path, "not a data URL (%s); want data:image/png;base64,… or data:image/jpeg;base64,…", clip(u))
	}
	header, payload, ok := strings.Cut(rest, ",")
	if !ok {
		return llm.Image{}, fieldErr(path, "malformed data URL: no comma after its header %s", clip(header))
	}
	params := strings.Split(header, ";")
	mime := strings.ToLower(strings.TrimSpace(params[0]))
	if len(params) < 2 || !strings.EqualFold(strings.TrimSpace(params[len(params)-1]), "base64") {
		return llm.Image{}, fieldErr(path, "the data URL is not base64-encoded (%s); want data:image/png;base64,… or data:image/jpeg;base64,…", clip(header))
	}
	if mime == "" {
		return llm.Image{}, fieldErr(path, "the data URL names no image type; want data:image/png;base64,… or data:image/jpeg;base64,…")
	}
	if _, ok := imageFormats[mime]; !ok {
		return llm.Image{}, fieldErr(path, "unsupported image type %q (want %s or %s)", mime, llm.ImagePNG, llm.ImageJPEG)
	}
	data, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return llm.Image{}, fieldErr(path, "the data URL's payload is not base64: %v", err)
	}
	return decodeImage(mime, data, path)
}

// geminiBytes decodes the data of a Gemini inline data part as protobuf's
// JSON reads bytes: base64 in the standard or the URL-safe alphabet,
// padded or not.
func geminiBytes(s string) ([]byte, error) {
	s = strings.TrimRight(s, "=")
	s = strings.NewReplacer("-", "+", "_", "/").Replace(s)
	return base64.RawStdEncoding.DecodeString(s)
}

// clip quotes s for an error, cut short: a data URL may be megabytes.
func clip(s string) string {
	const max = 40
	if len(s) > max {
		// Cut at a rune boundary; %q shows any invalid byte escaped.
		cut := max
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		return fmt.Sprintf("%q…", s[:cut])
	}
	return fmt.Sprintf("%q", s)
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
