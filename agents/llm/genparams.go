package llm

// GenParams are the generation settings a model spec may fix for every
// call, over what each request asks: reasoning models (OpenAI's o-series
// and gpt-5) refuse any temperature but their default, Gemini 3 is meant
// to run at 1.0, and structured output is a choice of protocol. Backends
// that call out (openai, gemini, anthropic) take them in their Options;
// the zero value sends what the request says, a seed included, and no
// response schema. (The anthropic backend has no temperature or seed to
// send, and uses only MaxTokens and ResponseSchema.)
type GenParams struct {
	// Temperature, if set, is sent instead of the request's.
	Temperature *float64
	// OmitTemperature sends no temperature, so the provider's default
	// applies. It wins over Temperature.
	OmitTemperature bool
	// Seed is the seed sent when the request has none (default 0). The
	// k-th sample of one request (Request.Sample) is sent seed+k, so that
	// a server that honours seeds still draws samples apart.
	Seed int64
	// OmitSeed sends no seed, for servers that refuse one.
	OmitSeed bool
	// MaxTokens, if positive, caps the output tokens of every call: it is
	// sent when the request sets no limit, and instead of a larger one.
	MaxTokens int
	// ResponseSchema sends a request's ResponseSchema as the provider's
	// structured output. Off (the default), the schema is not sent and
	// the prompt alone asks for JSON, as in the papers' protocol.
	ResponseSchema bool
}

// TemperatureFor is the temperature to send for req; ok is false when none
// is to be sent: the spec's choice first (none, or its temperature), then
// the request's (none when it leaves the temperature to the provider,
// Request.OmitTemperature).
func (p GenParams) TemperatureFor(req Request) (t float64, ok bool) {
	switch {
	case p.OmitTemperature:
		return 0, false
	case p.Temperature != nil:
		return *p.Temperature, true
	case req.OmitTemperature:
		return 0, false
	}
	return req.Temperature, true
}

// SeedFor is the seed to send for req: the request's own, or the base
// seed plus the sample number; ok is false when none is to be sent.
func (p GenParams) SeedFor(req Request) (seed int64, ok bool) {
	if p.OmitSeed {
		return 0, false
	}
	base := p.Seed
	if req.Seed != 0 {
		base = req.Seed
	}
	return base + int64(req.Sample), true
}

// MaxTokensFor is the output-token limit to send for req, 0 for none.
func (p GenParams) MaxTokensFor(req Request) int {
	n := req.MaxOutputTokens
	if p.MaxTokens > 0 && (n <= 0 || n > p.MaxTokens) {
		n = p.MaxTokens
	}
	return max(n, 0)
}

// SchemaFor is the response schema to send for req, nil for none.
func (p GenParams) SchemaFor(req Request) []byte {
	if !p.ResponseSchema || len(req.ResponseSchema) == 0 {
		return nil
	}
	return req.ResponseSchema
}
