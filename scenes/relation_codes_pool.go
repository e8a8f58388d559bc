package scenes

import "sync"

// PooledRelations is RelationCodes written in a buffer borrowed from a
// pool the process shares: the model's perceive reply and the judging of
// a perceived graph each derive a table's relations at every look and
// drop them once read, 4.6 KB at a crowded table, and what a process
// allocates sets how often its collector runs. Release gives the buffer
// back; Codes must not be read after.
type PooledRelations struct {
	Codes []uint8 // as RelationCodes returns them
	Count int     // the relations, the graph's edges
	buf   *[]uint8
}

var relationBuffers = sync.Pool{New: func() any { return new([]uint8) }}

// PoolRelationCodes returns RelationCodes(objs) in a pooled buffer.
func PoolRelationCodes(objs []Object) PooledRelations {
	buf := relationBuffers.Get().(*[]uint8)
	codes, count := RelationCodesInto(*buf, objs)
	return PooledRelations{Codes: codes, Count: count, buf: buf}
}

// Release returns the buffer to the pool. Releasing the zero value, or a
// value twice, does nothing.
func (p *PooledRelations) Release() {
	if p.buf == nil {
		return
	}
	*p.buf = p.Codes
	relationBuffers.Put(p.buf)
	p.buf, p.Codes = nil, nil
}
