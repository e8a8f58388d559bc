package scenes

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// The table top, in metres.
const (
	TableMinX = -0.3
	TableMaxX = 0.3
	TableMinY = -0.8
	TableMaxY = -0.2
)

// Regions of a two-robot table. A one-robot table has a single region,
// RegionTable, that robot 1 reaches whole.
const (
	RegionTable  = "table"
	RegionRobot1 = "robot1"
	RegionShared = "shared"
	RegionRobot2 = "robot2"
)

// Robots.
const (
	Robot1 = "robot1"
	Robot2 = "robot2"
)

// SharedPlace is the name of the shared workspace as a place to put things.
const SharedPlace = "shared workspace"

// sharedHalfWidth is half the width of the shared strip in the middle of a
// two-robot table.
const sharedHalfWidth = 0.1

// Rect is an axis-aligned rectangle on the table plane.
type Rect struct{ MinX, MinY, MaxX, MaxY float64 }

// Contains reports whether (x, y) lies in r.
func (r Rect) Contains(x, y float64) bool {
	return x >= r.MinX && x <= r.MaxX && y >= r.MinY && y <= r.MaxY
}

// Center returns the middle of r.
func (r Rect) Center() mgl64.Vec2 { return mgl64.Vec2{(r.MinX + r.MaxX) / 2, (r.MinY + r.MaxY) / 2} }

// Table is the whole table top.
var Table = Rect{TableMinX, TableMinY, TableMaxX, TableMaxY}

// RegionRect returns the rectangle of a region.
func RegionRect(region string) Rect {
	switch region {
	case RegionRobot1:
		return Rect{TableMinX, TableMinY, -sharedHalfWidth, TableMaxY}
	case RegionShared:
		return Rect{-sharedHalfWidth, TableMinY, sharedHalfWidth, TableMaxY}
	case RegionRobot2:
		return Rect{sharedHalfWidth, TableMinY, TableMaxX, TableMaxY}
	}
	return Table
}

// RegionAt returns the region that holds (x, y): RegionTable on a one-robot
// table, one of the three strips on a two-robot one.
func RegionAt(twoRobots bool, x, y float64) string {
	if !twoRobots {
		return RegionTable
	}
	switch {
	case x < -sharedHalfWidth:
		return RegionRobot1
	case x > sharedHalfWidth:
		return RegionRobot2
	}
	return RegionShared
}

// Reaches reports whether a robot can act in a region: on a one-robot table
// robot 1 reaches everything; on a two-robot table each robot reaches its own
// strip and the shared one.
func Reaches(robot, region string) bool {
	switch region {
	case RegionTable:
		return robot == Robot1
	case RegionShared:
		return robot == Robot1 || robot == Robot2
	}
	return robot == region
}

// Sees reports whether a robot observes a region. Under partial observability
// a robot sees what it reaches; otherwise it sees the whole table.
func Sees(robot, region string, partial bool) bool {
	if !partial {
		return true
	}
	return Reaches(robot, region)
}

// placeInset keeps named places off the very edge of the table, as the
// SayCan table does.
const placeInset = 0.05

// Places are the named places of the table: four corners, four sides and the
// middle.
var Places = map[string]mgl64.Vec2{
	"top left corner":     {TableMinX + placeInset, TableMaxY - placeInset},
	"top side":            {0, TableMaxY - placeInset},
	"top right corner":    {TableMaxX - placeInset, TableMaxY - placeInset},
	"left side":           {TableMinX + placeInset, (TableMinY + TableMaxY) / 2},
	"middle":              {0, (TableMinY + TableMaxY) / 2},
	"right side":          {TableMaxX - placeInset, (TableMinY + TableMaxY) / 2},
	"bottom left corner":  {TableMinX + placeInset, TableMinY + placeInset},
	"bottom side":         {0, TableMinY + placeInset},
	"bottom right corner": {TableMaxX - placeInset, TableMinY + placeInset},
}

// PlaceNames lists the named places in a fixed order.
var PlaceNames = []string{
	"top left corner", "top side", "top right corner",
	"left side", "middle", "right side",
	"bottom left corner", "bottom side", "bottom right corner",
}

// SharedPoint is where the shared workspace takes an object.
var SharedPoint = RegionRect(RegionShared).Center()

// PlaceTolerance is how close to a named place an object must settle to be
// at it.
const PlaceTolerance = 0.05

// AtPoint reports whether an object's centre lies within PlaceTolerance of p.
func AtPoint(o Object, p mgl64.Vec2) bool {
	return math.Hypot(o.Pose.X()-p.X(), o.Pose.Y()-p.Y()) <= PlaceTolerance
}
