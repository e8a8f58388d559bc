package cassette

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/imagefile"
)

// Counts says how the calls of a Recorder or a Player went.
type Counts struct {
	// Hits are the calls served from a cassette file.
	Hits int64
	// Misses are the calls whose request was not on file: for a Recorder,
	// the calls it passed to the live model; for a Player, the calls that
	// failed with a *MissError.
	Misses int64
}

type counter struct{ hits, misses atomic.Int64 }

func (c *counter) counts() Counts { return Counts{c.hits.Load(), c.misses.Load()} }

// MissError is a Player's failure for a request that is not on file.
type MissError struct {
	Hash    string // the key: [Key] of the model name, the request and the repeat
	Episode string // llm.EpisodeFrom of the call, "" outside an episode
	Repeat  int    // llm.RepeatFrom of the call
	Dir     string
	// Model and Recorded are set when the replay was given its model
	// by name and Dir holds no recording of it: Recorded lists the
	// models Dir does hold (none, when it holds no readable recording).
	Model    string
	Recorded []string
}

func (e *MissError) Error() string {
	ep := "episode " + e.Episode
	if e.Episode == "" {
		ep = "no episode"
	}
	if e.Repeat > 0 {
		ep += fmt.Sprintf(", repeat %d", e.Repeat)
	}
	msg := fmt.Sprintf("cassette miss: request %s (%s) not in %s", e.Hash, ep, e.Dir)
	if e.Model != "" {
		held := "no readable recording"
		if len(e.Recorded) > 0 {
			held = "recordings of " + strings.Join(e.Recorded, ", ")
		}
		msg += fmt.Sprintf(", which holds no recording of model %q (it holds %s)", e.Model, held)
	}
	return msg
}

// fail marks a cassette's own failure (a file that cannot be read or
// written, a request not on file) as llm.KindCassette, which llm.IsInfra
// counts as infrastructure: the episode was not the agent's to lose. The
// error still unwraps to what is behind it, a *MissError included.
func fail(err error) error { return &llm.Error{Kind: llm.KindCassette, Err: err} }

// Key returns the key a call of model with req at repeat (llm.RepeatFrom
// of the call's context; ambibench run --repeats) is recorded under: at
// repeat 0, llm.Hash(model, req), as in every store written before
// repeats had keys of their own; at a repeat r > 0, a hash over that and
// r, so that each repeat of an episode, which sends the very request of
// repeat 0, keeps a reply of its own.
func Key(model string, req llm.Request, repeat int) string {
	return repeatKey(llm.Hash(model, req), repeat)
}

// repeatKey returns the key of the request hashing to hash at repeat.
func repeatKey(hash string, repeat int) string {
	if repeat == 0 {
		return hash
	}
	h := sha256.New()
	h.Write([]byte("ambibench-repeat-v1\x00"))
	h.Write([]byte(hash))
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(repeat))
	h.Write(n[:])
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// key returns the key of req for model at repeat, or an error when req
// cannot be written to a cassette file and read back as itself (a
// temperature JSON cannot hold, text that is not UTF-8).
func key(model string, req llm.Request, repeat int) (string, error) {
	if repeat < 0 {
		return "", fmt.Errorf("cassette: call at repeat %d, below 0", repeat)
	}
	if math.IsNaN(req.Temperature) || math.IsInf(req.Temperature, 0) {
		return "", fmt.Errorf("cassette: request has temperature %v, which JSON cannot hold", req.Temperature)
	}
	if err := badUTF8Request(req); err != nil {
		return "", fmt.Errorf("cassette: %w", err)
	}
	if err := badImages(req); err != nil {
		return "", fmt.Errorf("cassette: %w", err)
	}
	return Key(model, req, repeat), nil
}

// Recorder is the Model that [Record] returns.
type Recorder struct {
	counter
	dir  string
	st   *store
	next llm.Model
}

// Record returns a model, a *Recorder, that serves each request from its
// recording in dir (DIR/<key>.zst, or DIR/<key>.json of the first layout)
// when there is one, without calling next, and otherwise calls next and
// records a successful reply as DIR/<key>.zst, compressed with the
// dictionary dir names current when Record is called, or, when it names
// none, with the package's seed dictionary the recording resembles, if
// any, copied into DIR/dict first (failures are returned and not
// recorded). The key is [Key] of next.Name(), req and
// the call's repeat (llm.RepeatFrom), and
// Name is next.Name(), so that a [Replay] of the directory under the same
// name serves the same calls.
//
// dir is created if it does not exist. A file that exists but cannot be
// read as a cassette of that request fails the call with an error naming
// the file; it is neither served nor overwritten. Two concurrent calls
// with the same request may both reach next; the file then holds one of
// the replies.
func Record(dir string, next llm.Model) (llm.Model, error) {
	if next == nil {
		return nil, errors.New("cassette: recording needs a model")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cassette: recording into %s: %w", dir, err)
	}
	st, err := openStore(dir)
	if err != nil {
		return nil, fmt.Errorf("cassette: recording into %s: %w", dir, err)
	}
	return &Recorder{dir: dir, st: st, next: next}, nil
}

// Name returns the recorded model's name.
func (r *Recorder) Name() string { return r.next.Name() }

// Counts returns the calls served from the cassette (Hits) and passed to
// the recorded model (Misses) so far.
func (r *Recorder) Counts() Counts { return r.counts() }

// Generate serves req from the cassette, or from the recorded model and
// records the reply.
func (r *Recorder) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	model := r.next.Name()
	repeat := llm.RepeatFrom(ctx)
	k, err := key(model, req, repeat)
	if err != nil {
		return llm.Reply{}, fail(err)
	}
	reply, ok, err := r.st.load(model, k)
	if err == nil && ok && checkImages(r.dir, req) != nil {
		// A recorder holds the images' bytes: it mends a store that lost
		// one, and refuses only what it cannot mend.
		if err = storeImages(r.dir, req); err == nil {
			err = checkImages(r.dir, req)
		}
	}
	if err != nil {
		return llm.Reply{}, fail(err)
	}
	if ok {
		r.hits.Add(1)
		return reply, nil
	}
	// The images go to the store before the call is paid for, so that an
	// image that cannot be kept loses no reply.
	if err := storeImages(r.dir, req); err != nil {
		return llm.Reply{}, fail(fmt.Errorf("recording request %s: %w", k, err))
	}
	r.misses.Add(1)
	reply, err = r.next.Generate(ctx, req)
	if err != nil {
		return reply, err
	}
	if err := badUTF8Reply(reply); err != nil {
		return llm.Reply{}, fmt.Errorf("recording the reply to request %s: %w", k, err)
	}
	data, err := encode(model, k, repeat, req, reply)
	if err == nil {
		err = r.st.write(k, data)
	}
	if err != nil {
		return reply, fail(fmt.Errorf("recording the reply to request %s: %w", k, err))
	}
	return reply, nil
}

// Player is the Model that [Replay] returns.
type Player struct {
	counter
	dir, model string
	st         *store
	// named is a model given to Replay rather than read from the store;
	// its first miss lists the store's models once (absent), to say so
	// when the name is none of them.
	named  bool
	once   sync.Once
	absent []string // the store's models, when named is none of them
	lacks  bool
}

// Replay returns a model, a *Player, that answers each request from its
// recording in dir (DIR/<key>.zst or DIR/<key>.json), key being [Key] of
// model, req and the call's repeat (llm.RepeatFrom), and never calls
// anything else. model is the name of the model the cassette was recorded
// from (the Name of the model given to [Record]), and the Player's Name.
// When model is "", Replay reads it from the cassette's files, which must
// all be of one model (so a spec may say just "replay:DIR"): that reads
// every recording before the first call, seconds for a store of tens of
// thousands and far longer for millions. A model given by name
// ("replay:DIR=MODEL") opens at once; should the store hold no recording
// of it, its misses say so and name the models it does hold (the first
// miss before any call was served reads the store up to a recording of
// model, to know).
//
// A request with no file fails with a *[MissError]; a file that cannot be
// read as the cassette of that request fails with an error naming the
// file and what is wrong with it.
func Replay(dir, model string) (llm.Model, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("cassette: replaying: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("cassette: replaying %s: not a directory", dir)
	}
	st, err := openStore(dir)
	if err != nil {
		return nil, fmt.Errorf("cassette: replaying %s: %w", dir, err)
	}
	named := model != ""
	if !named {
		if model, err = recordedModel(st); err != nil {
			return nil, err
		}
	}
	return &Player{dir: dir, model: model, st: st, named: named}, nil
}

// recordedModel returns the one model whose replies dir holds.
//
// A file that cannot be read as a recording (empty, binary, cut short) is
// passed over here: one damaged recording should cost the episode that
// needs it, which then fails as an infrastructure error naming the file
// (see [Player.Generate]), not the whole replay. Only when no file can be
// read is there no name to take, and the error names the first file and
// what is wrong with it.
func recordedModel(st *store) (string, error) {
	dir := st.dir
	models, damaged, err := storeModels(st, "")
	if err != nil {
		return "", err
	}
	switch len(models) {
	case 0:
		if len(damaged) > 0 {
			return "", fmt.Errorf("cassette: replaying %s: none of its %d recordings can be read to take the model name from; the first: %w", dir, len(damaged), damaged[0])
		}
		return "", fmt.Errorf("cassette: replaying %s: it holds no recordings to take the model name from; name the model", dir)
	case 1:
		for m := range models {
			return m, nil
		}
	}
	names := slices.Sorted(maps.Keys(models))
	return "", fmt.Errorf("cassette: replaying %s: it holds recordings of %d models (%s); name the one to replay, as in replay:%s=%s",
		dir, len(names), strings.Join(names, ", "), dir, names[0])
}

// storeModels reads the recordings of st for the model each was recorded
// from: the models found, and the recordings that could not be read as
// one (damaged). It reads every recording, or, when stopAt is not "", stops
// at the first of model stopAt. Only a store that cannot be listed or a
// file that cannot be read at all is an error.
func storeModels(st *store, stopAt string) (models map[string]bool, damaged []error, err error) {
	entries, err := os.ReadDir(st.dir)
	if err != nil {
		return nil, nil, fmt.Errorf("cassette: replaying: %w", err)
	}
	models = map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || recordingKey(name) == "" {
			continue
		}
		p := filepath.Join(st.dir, name)
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, fmt.Errorf("cassette: reading the model name: %w", err)
		}
		data, err = st.unpack(p, data)
		if err != nil {
			damaged = append(damaged, err)
			continue
		}
		model, err := fileModel(p, data)
		if err != nil {
			damaged = append(damaged, err)
			continue
		}
		models[model] = true
		if model == stopAt {
			break
		}
	}
	return models, damaged, nil
}

// lacksModel reports, once for the Player, whether its store holds no
// recording of the model it was named, and which models it holds then:
// a misspelt name misses every request, and each miss should say why.
// A call served already shows the model is there (the key holds its
// name), and the store is read only up to its first recording of it.
func (p *Player) lacksModel() (bool, []string) {
	if p.hits.Load() > 0 {
		return false, nil
	}
	p.once.Do(func() {
		models, _, err := storeModels(p.st, p.model)
		if err != nil || models[p.model] {
			return
		}
		p.lacks, p.absent = true, slices.Sorted(maps.Keys(models))
	})
	return p.lacks, p.absent
}

// fileModel reads the model a cassette file at name was recorded from;
// the error names the file and what is wrong with it.
func fileModel(name string, data []byte) (string, error) {
	if err := emptyFile(name, data); err != nil {
		return "", err
	}
	var head struct {
		Model string `json:"model"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return "", fmt.Errorf("cassette file %s: not valid JSON at byte %d (not a recording: binary, or cut short?): %v", name, se.Offset, err)
		}
		return "", fmt.Errorf("cassette file %s: not a recording (want a JSON object with \"model\"): %v", name, err)
	}
	if head.Model == "" {
		return "", fmt.Errorf(`cassette file %s: no "model": want a JSON object with "model"`, name)
	}
	return head.Model, nil
}

// Name returns the name of the model the cassette was recorded from.
func (p *Player) Name() string { return p.model }

// Counts returns the calls served (Hits) and missed (Misses) so far.
func (p *Player) Counts() Counts { return p.counts() }

// Generate serves req from the cassette.
func (p *Player) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	repeat := llm.RepeatFrom(ctx)
	k, err := key(p.model, req, repeat)
	if err != nil {
		return llm.Reply{}, fail(err)
	}
	reply, ok, err := p.st.load(p.model, k)
	if err == nil && ok {
		err = checkImages(p.dir, req)
	}
	if err != nil {
		return llm.Reply{}, fail(err)
	}
	if !ok {
		p.misses.Add(1)
		miss := &MissError{Hash: k, Episode: llm.EpisodeFrom(ctx), Repeat: repeat, Dir: p.dir}
		if p.named {
			if lacks, held := p.lacksModel(); lacks {
				miss.Model, miss.Recorded = p.model, held
			}
		}
		return llm.Reply{}, fail(miss)
	}
	p.hits.Add(1)
	return reply, nil
}

// storeImages keeps each image of req once under dir, before the file
// that names them is written, so that no recording names an image the
// directory lacks.
func storeImages(dir string, req llm.Request) error {
	for i, m := range req.Messages {
		for j, im := range m.Images {
			if err := imagefile.Store(dir, im); err != nil {
				return fmt.Errorf("message %d, image %d: %w", i, j, err)
			}
		}
	}
	return nil
}

// checkImages refuses to serve a recording whose images are missing or
// damaged: what the model was shown is part of the record.
func checkImages(dir string, req llm.Request) error {
	for i, m := range req.Messages {
		for j, im := range m.Images {
			if err := imagefile.Check(dir, im); err != nil {
				return fmt.Errorf("message %d, image %d: %w", i, j, err)
			}
		}
	}
	return nil
}

// badImages reports an image whose name cannot be a file's.
func badImages(req llm.Request) error {
	for i, m := range req.Messages {
		for j, im := range m.Images {
			if err := im.Check(); err != nil {
				return fmt.Errorf("message %d, image %d: %w", i, j, err)
			}
		}
	}
	return nil
}
