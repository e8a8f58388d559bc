package llm

import (
	"encoding/json"
	"strconv"
)

// ImageObjectsJSON writes a detection reply, {"objects": objs}, as
// json.Marshal(ImageObjects{objs}) does, byte for byte, without its
// reflection: the simulated model writes a crowded table's list at every
// look. A string that JSON would escape falls back to json.Marshal.
func ImageObjectsJSON(objs []ImageObject) []byte {
	if objs == nil {
		return marshalImageObjects(objs)
	}
	// Sized for boxes of four digits a number, as a reply's are (0 to
	// BoxScale): the reply is kept whole, its spare room with it.
	size := len(`{"objects":[]}`)
	for i := range objs {
		size += len(`{"name":"","color":"","type":"","box_2d":[0000,0000,0000,0000]},`) + len(objs[i].Name) + len(objs[i].Color) + len(objs[i].Type)
	}
	b := make([]byte, 0, size)
	b = append(b, `{"objects":[`...)
	for i := range objs {
		o := &objs[i]
		if !plainJSON(o.Name) || !plainJSON(o.Color) || !plainJSON(o.Type) {
			return marshalImageObjects(objs)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":"`...)
		b = append(b, o.Name...)
		b = append(b, `","color":"`...)
		b = append(b, o.Color...)
		b = append(b, `","type":"`...)
		b = append(b, o.Type...)
		b = append(b, `","box_2d":[`...)
		for k, v := range o.Box {
			if k > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		b = append(b, "]}"...)
	}
	return append(b, "]}"...)
}

func marshalImageObjects(objs []ImageObject) []byte {
	out, _ := json.Marshal(ImageObjects{Objects: objs}) // strings and ints always encode
	return out
}
