package camera

import (
	"image/color"

	"github.com/ambibench/ambibench/scenes"
)

// Palette indices of the fixed palette.
const (
	idxBackground = iota
	idxTable
	idxRobot1 // robot 1's strip, a faint red
	idxShared // the shared strip, a faint green
	idxRobot2 // robot 2's strip, a faint blue
	idxOccluder
	idxObjects // first of the objects' shades: colour c, shade s at idxObjects+3c+s
)

// Shades of an object's colour.
const (
	shadeLight = iota // a block's top, a bowl's rim
	shadeMid          // a block's front and back, a bowl's outer wall
	shadeDark         // a block's left and right, a bowl's inside
	numShades
)

// baseColors are the mid shades of scenes.Colors, in its order.
var baseColors = [...]color.RGBA{
	{40, 90, 220, 255},   // blue
	{215, 40, 40, 255},   // red
	{40, 170, 60, 255},   // green
	{245, 140, 30, 255},  // orange
	{240, 215, 40, 255},  // yellow
	{130, 60, 190, 255},  // purple
	{240, 130, 180, 255}, // pink
	{40, 200, 210, 255},  // cyan
	{130, 85, 45, 255},   // brown
	{128, 128, 128, 255}, // gray
}

// palette is the image's fixed palette; every entry is a distinct colour.
var palette = func() color.Palette {
	p := color.Palette{
		idxBackground: color.RGBA{88, 84, 96, 255},
		idxTable:      color.RGBA{236, 230, 218, 255},
		idxRobot1:     color.RGBA{242, 214, 208, 255},
		idxShared:     color.RGBA{212, 236, 208, 255},
		idxRobot2:     color.RGBA{210, 222, 244, 255},
		idxOccluder:   color.RGBA{58, 58, 62, 255},
	}
	for _, c := range baseColors {
		light := color.RGBA{lighten(c.R), lighten(c.G), lighten(c.B), 255}
		dark := color.RGBA{darken(c.R), darken(c.G), darken(c.B), 255}
		p = append(p, light, c, dark)
	}
	return p
}()

func lighten(v uint8) uint8 { return v + uint8((255-int(v))*2/5) }
func darken(v uint8) uint8  { return uint8(int(v) * 7 / 10) }

// colorIndex returns the position of a colour in scenes.Colors; an unknown
// colour draws as gray.
func colorIndex(name string) int {
	for i, c := range scenes.Colors {
		if c == name {
			return i
		}
	}
	return len(scenes.Colors) - 1
}

// shadeIndex is the palette index of a colour's shade.
func shadeIndex(colorName string, shade int) uint8 {
	return uint8(idxObjects + numShades*colorIndex(colorName) + shade)
}
