package llm

import "github.com/go-gl/mathgl/mgl64"

// Perception through a camera image (SG-CoT as its paper ran it): the
// workflow shows the model the robot's image and asks it to list the
// objects with their boxes (a CallDetect call), then to write the scene
// graph from the image and that list. A real model reads the pixels; the
// simulated model reads Seen, the renderer's geometry of the same image,
// from the call's context.

// CallDetect lists the objects a camera image shows, each with a box.
const CallDetect = "detect"

// Seen is one object as a robot's camera image shows it: the renderer's
// projected box in the image's pixels (x0, y0, x1, y1; x1 and y1
// exclusive) and the share of the object left visible. ID and Attributes
// are the object's own: the simulated model answers with the attributes
// (or misreads them) and keys its draws by the ID. Objects the robot
// does not observe are not listed.
type Seen struct {
	ID         string            `json:"id"`
	Attributes map[string]string `json:"attributes"`
	Box        [4]int            `json:"box"`
	Fraction   float64           `json:"fraction"`
	// Pos and Size are the object's centre and size on the table, in
	// millimetres (as llm.Detection has them): what the image shows in
	// perspective, which the simulated model reads in place of judging
	// depth when it writes the relations between the objects it saw.
	Pos  mgl64.Vec3 `json:"pos"`
	Size mgl64.Vec3 `json:"size"`
}

// BoxScale is what a detection's box coordinates are normalised to: a
// box is [ymin, xmin, ymax, xmax], each from 0 to BoxScale across the
// image (Gemini's native convention, which the detection prompt states).
const BoxScale = 1000

// ImageObject is one object a detection reply lists: a name such as
// "red block", its colour and type, and its box as [ymin, xmin, ymax,
// xmax] normalised to 0–BoxScale.
type ImageObject struct {
	Name  string `json:"name"`
	Color string `json:"color"`
	Type  string `json:"type"`
	Box   [4]int `json:"box_2d"`
}

// ImageObjects is a detection reply: {"objects": [...]}.
type ImageObjects struct {
	Objects []ImageObject `json:"objects"`
}

// NormBox is a pixel box (x0, y0, x1, y1) of an image of w×h pixels as a
// detection reply writes it: [ymin, xmin, ymax, xmax] in 0–BoxScale,
// rounded to the nearest unit.
func NormBox(box [4]int, w, h int) [4]int {
	n := func(v, side int) int { return (v*BoxScale*2 + side) / (2 * side) }
	return [4]int{n(box[1], h), n(box[0], w), n(box[3], h), n(box[2], w)}
}

// BoxCentre is the centre of a normalised box as a point [y, x] in
// 0–BoxScale, the form pick_and_place's pick_at and place_at take.
func BoxCentre(box [4]int) [2]int {
	return [2]int{(box[0] + box[2]) / 2, (box[1] + box[3]) / 2}
}
