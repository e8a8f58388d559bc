// Package camera renders the tabletop as a robot's camera sees it: the
// SayCan/KnowNo table of blocks and bowls, as the image the SG-CoT planner is
// given.
//
// # Camera
//
// [Options] fix the image: its size, the [View] and the camera. The default
// view, [Perspective], is the KnowNo tabletop's: a camera above the robots'
// edge of the table (low y), looking down at the table's middle at about 55°,
// so that far objects are higher in the image and x runs to the right.
// [TopDown] looks straight down with an orthographic projection, y up in the
// image. A zero Eye, Target, FovY or OrthoHeight means the view's default, so
// [DefaultOptions] is a plain value that can be recorded in a run's settings
// and stays meaningful when the view changes.
//
// On a two-robot table (TwoRobots) the three strips are tinted as in the
// paper's figure: robot 1's on the left red-ish, the shared one green, robot
// 2's on the right blue-ish. Under partial observability (Partial) the strip
// of the robot that is not Robot is covered by a dark grey screen and none of
// its objects is drawn; which strip an object lies in follows from its pose
// alone ([scenes.RegionAt]), never from its Region field, so the image is
// fixed by the inputs [Digest] hashes.
//
// # Drawing
//
// [Draw] rasterises into an [image.Paletted] with a fixed palette: the
// background, the table, three region tints, the occluder and the ten
// [scenes.Colors] in three shades each (light, mid, dark). Every polygon is
// rasterised by golang.org/x/image/vector into an alpha mask that is then
// thresholded at 50%, so every pixel is exactly one palette colour and a
// test can classify pixels by colour. Objects are drawn in painter's order,
// far to near along the camera's axis (which also puts a stacked block after
// the one below it and a nested block after its bowl): a block as a cube
// whose top is light, front and back faces mid, left and right faces dark; a
// bowl as a frustum (a wall in the mid shade, a light rim, a dark inside).
// [EncodePNG] writes the image at png.BestSpeed; [Render] does both and adds
// the visibility. A [Renderer] does the same while keeping the rasteriser's
// buffers from one image to the next.
//
// # Visibility
//
// [Visibility] says for every object (in its input order; one the robot
// does not observe is marked Hidden) its projected box and the fraction of
// its silhouette left visible, from geometry alone: each silhouette is the
// convex hull of the object's projected points, exactly the area drawn for
// it, and its visible part is the silhouette clipped to the image, minus the
// silhouettes drawn after it and the occluder. Subtraction keeps the visible
// part as a set of convex pieces, splitting each piece along the edges of
// the convex polygon taken away; it is exact up to floating point and
// rasterises nothing.
//
// # Picking
//
// [Pick] answers the converse question: what does the image show at a
// point? The point is [y, x], each normalised to 0–[PointScale] (1000)
// across the image as a detection's box is, so that the centre of a box
// is a point. Pick inverts the drawing's own projection at that point
// (unprojecting it on the near and the far plane) to get the line of
// sight, which passes through the eye for [Perspective] and runs along
// the camera's axis, straight down by default, for [TopDown]. It casts
// the line against every object the image draws, with heights: a block
// as its box; a bowl as it is drawn, a frustum whose rim is the top of
// its box and whose foot is 0.6 times as wide, made of a wall and a floor
// and open at the top. A solid cylinder or box would take the points
// beside the foot, where the image shows table, and would hide the block
// in a bowl; an open frustum lets the line through the opening to the
// block, the inside wall or the floor. The object met first is picked,
// so a point on a stack picks the block on top and a point on a block in
// a bowl picks the block. If the line meets nothing, the point where it
// meets the table plane picks the object whose centre is nearest,
// within [PickTolerance] (3 cm, a block's half side and a centimetre of
// slack); else nothing. Objects hidden by partial observability are never
// picked. [Hit] is Pick without the tolerance, and [TablePoint] is where
// the line meets the table plane, for a place on empty table. A
// [Picker] picks as Pick does at many points of one image, the camera
// and which objects the image draws worked out once (the table judging
// a perceived graph picks at every node).
//
// # Digest
//
// [Digest] is a SHA-256 over what fixes the image: [Version], the options,
// and each object's id, class, colour and the IEEE bits of its pose and
// extent as given. It never hashes computed floats or PNG bytes, which may
// differ between architectures (arm64 fuses multiply-adds).
//
// The package starts no goroutine and imports only scenes of this project.
package camera
