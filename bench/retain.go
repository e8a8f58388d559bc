package bench

import (
	"maps"
	"slices"
	"strconv"

	"github.com/ambibench/ambibench/results"
)

// retained makes the records a run keeps for its caller share their
// equal instructions, tool-call maps and robot lists. A run holds every record until
// it ends (the summary reads them all), and a record's map and list were
// most of the objects the garbage collector marked in every cycle: 28,600
// tabletop records held 28,600 maps with about thirty distinct contents,
// and their marking took the collector most of the time it spent on the
// core that one worker leaves free. The records written are the records
// played; only the copies [Run] returns share.
type retained struct {
	texts  map[string]string // instructions: each agent of a cell plays the same episodes
	tools  map[string]map[string]int
	robots map[string][]string
	key    []byte
}

// keep points r's instruction, map and list at an equal one kept
// before, if any.
func (k *retained) keep(r *results.Record) {
	if r.Instruction != "" {
		if s, ok := k.texts[r.Instruction]; ok {
			r.Instruction = s
		} else {
			if k.texts == nil {
				k.texts = map[string]string{}
			}
			k.texts[r.Instruction] = r.Instruction
		}
	}
	if len(r.ToolCalls) > 0 {
		key := k.key[:0]
		for _, name := range slices.Sorted(maps.Keys(r.ToolCalls)) {
			key = append(key, name...)
			key = append(key, 0)
			key = strconv.AppendInt(key, int64(r.ToolCalls[name]), 10)
			key = append(key, 0)
		}
		if m, ok := k.tools[string(key)]; ok {
			r.ToolCalls = m
		} else {
			if k.tools == nil {
				k.tools = map[string]map[string]int{}
			}
			k.tools[string(key)] = r.ToolCalls
		}
		k.key = key
	}
	if len(r.ActedBy) > 0 {
		key := k.key[:0]
		for _, robot := range r.ActedBy {
			key = append(key, robot...)
			key = append(key, 0)
		}
		if l, ok := k.robots[string(key)]; ok {
			r.ActedBy = l
		} else {
			if k.robots == nil {
				k.robots = map[string][]string{}
			}
			k.robots[string(key)] = r.ActedBy
		}
		k.key = key
	}
}
