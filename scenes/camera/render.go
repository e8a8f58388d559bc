package camera

import (
	"bytes"
	"image"
	"image/png"
	"io"

	"github.com/ambibench/ambibench/scenes"
)

// Version names the renderer; Digest hashes it, so a change to what the
// images look like must change it.
const Version = "camera/1"

// encoder writes PNGs fast: paletted images at BestSpeed.
var encoder = png.Encoder{CompressionLevel: png.BestSpeed}

// EncodePNG writes img as a PNG.
func EncodePNG(w io.Writer, img *image.Paletted) error { return encoder.Encode(w, img) }

// Render draws objs under opt and returns the PNG and what it shows of
// each object (see Visibility).
func Render(objs []scenes.Object, opt Options) ([]byte, []Visible, error) {
	return new(Renderer).Render(objs, opt)
}

// A Renderer keeps the rasteriser's buffers from one image to the next, so
// that rendering many images allocates little more than the images. Its
// zero value is ready; it is not safe for concurrent use.
type Renderer struct {
	ras  raster
	pool pngPool
}

// pngPool keeps one PNG encoder's buffers (its zlib writer) for reuse.
type pngPool struct{ b *png.EncoderBuffer }

func (p *pngPool) Get() *png.EncoderBuffer  { b := p.b; p.b = nil; return b }
func (p *pngPool) Put(b *png.EncoderBuffer) { p.b = b }

// EncodePNG is the package's EncodePNG, reusing r's compressor.
func (r *Renderer) EncodePNG(w io.Writer, img *image.Paletted) error {
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &r.pool}
	return enc.Encode(w, img)
}

// Draw is the package's Draw, reusing r's buffers.
func (r *Renderer) Draw(objs []scenes.Object, opt Options) (*image.Paletted, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	return newScene(objs, opt.resolved()).draw(&r.ras), nil
}

// Render is the package's Render, reusing r's buffers.
func (r *Renderer) Render(objs []scenes.Object, opt Options) ([]byte, []Visible, error) {
	if err := opt.Validate(); err != nil {
		return nil, nil, err
	}
	sc := newScene(objs, opt.resolved())
	img := sc.draw(&r.ras)
	var buf bytes.Buffer
	if err := r.EncodePNG(&buf, img); err != nil {
		return nil, nil, err
	}
	return buf.Bytes(), sc.visibility(), nil
}
