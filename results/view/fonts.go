package view

import (
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
)

// The site's fonts, the Go fonts, written into fonts/ and named by
// style.css's @font-face rules: a page looks the same on every machine
// that opens it, which the browser tier's screenshots rely on, and no
// font is fetched from a network.
var fonts = []struct {
	name string
	data []byte
}{
	{"go-regular.ttf", goregular.TTF},
	{"go-bold.ttf", gobold.TTF},
	{"go-mono.ttf", gomono.TTF},
}

func writeFonts(s *site) error {
	for _, f := range fonts {
		if err := s.write("fonts/"+f.name, f.data); err != nil {
			return err
		}
	}
	return nil
}
