package sim

import (
	"sync"

	"github.com/ambibench/ambibench/agents/llm"
)

// A workflow resends its first prompt on every turn, so the simulated
// model reads each distinct block once and keeps it. The cache is bounded
// and emptied when full; a block is immutable once read, and callers only
// read it, so sharing is safe.
type blockCache struct {
	mu sync.Mutex
	m  map[string]llm.Block
}

const blockCacheSize = 4096

// find returns the first block of a request, from the cache when the
// message that holds it has been seen before.
func (c *blockCache) find(req llm.Request) (llm.Block, error) {
	texts := make([]string, 0, 1+len(req.Messages))
	texts = append(texts, req.System)
	for _, m := range req.Messages {
		texts = append(texts, m.Text)
	}
	for _, t := range texts {
		c.mu.Lock()
		b, hit := c.m[t]
		c.mu.Unlock()
		if hit {
			return b, nil
		}
		b, ok, err := llm.ExtractBlock(t)
		if !ok {
			continue
		}
		if err != nil {
			return llm.Block{}, err
		}
		c.mu.Lock()
		if c.m == nil || len(c.m) >= blockCacheSize {
			c.m = make(map[string]llm.Block)
		}
		c.m[t] = b
		c.mu.Unlock()
		return b, nil
	}
	return llm.FindBlock(llm.Request{}) // the "no block" error
}
