package serve_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/gemini"
	"github.com/ambibench/ambibench/agents/llm/openai"
	"github.com/ambibench/ambibench/agents/llm/serve"
)

// picture draws a w×h gradient, the same every time.
func picture(w, h int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{uint8(40 * x), uint8(60 * y), 200, 255})
		}
	}
	return img
}

// pngOf and jpegOf encode a picture of w×h pixels.
func pngOf(w, h int) []byte {
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.NoCompression}).Encode(&buf, picture(w, h)); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func jpegOf(w, h int) []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, picture(w, h), nil); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// img is an llm.Image of the bytes b, named by a digest of the client's
// own (which the server never sees).
func img(digest, mime string, w, h int, b []byte) llm.Image {
	return llm.Image{Digest: digest, MIME: mime, Width: w, Height: h, Data: func() ([]byte, error) { return b, nil }}
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// serverDigest is the name the server gives an image: the first 32 hex
// digits of the SHA-256 of its bytes.
func serverDigest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:serve.DigestDigits]
}

// seenImage is what of an image is compared: everything but Data, and
// the bytes Data makes.
type seenImage struct {
	Digest, MIME  string
	Width, Height int
	Bytes         []byte
}

// seenMessage is a message with its images compared by what they hold.
type seenMessage struct {
	Role       llm.Role
	Text, Name string
	Images     []seenImage
}

// seen is what of req's messages is compared; with serverDigests, each
// image is named as the server names it.
func seen(t *testing.T, req llm.Request, serverDigests bool) []seenMessage {
	t.Helper()
	var out []seenMessage
	for _, m := range req.Messages {
		sm := seenMessage{Role: m.Role, Text: m.Text, Name: m.Name}
		for _, im := range m.Images {
			b, err := im.Bytes()
			if err != nil {
				t.Fatalf("image %s: %v", im.Digest, err)
			}
			d := im.Digest
			if serverDigests {
				d = serverDigest(b)
			}
			sm.Images = append(sm.Images, seenImage{d, im.MIME, im.Width, im.Height, b})
		}
		out = append(out, sm)
	}
	return out
}

var (
	png4x3  = pngOf(4, 3)
	png1x1  = pngOf(1, 1)
	jpeg5x2 = jpegOf(5, 2)
)

// imageRequests are requests with images that package openai and package
// gemini send and serve decodes back, image for image.
var imageRequests = []struct {
	name, why string
	req       llm.Request
}{
	{"text then an image", "the tabletop's own call: a prompt, then the camera's view",
		llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Which bowl is nearer?", Images: []llm.Image{img("00112233445566778899aabbccddeeff", llm.ImagePNG, 4, 3, png4x3)}}}}},
	{"images alone", "a turn without text has no text part, and arrives with none",
		llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Images: []llm.Image{img("0011223344556677", llm.ImagePNG, 1, 1, png1x1)}}}}},
	{"png and jpeg in order", "each image keeps its type, size and place",
		llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Compare.", Images: []llm.Image{
			img("aaaaaaaaaaaaaaaa", llm.ImageJPEG, 5, 2, jpeg5x2), img("bbbbbbbbbbbbbbbb", llm.ImagePNG, 4, 3, png4x3), img("cccccccccccccccc", llm.ImagePNG, 1, 1, png1x1),
		}}}}},
	{"the same image twice", "the server names an image by its bytes: twice sent, twice the same digest",
		llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Again.", Images: []llm.Image{
			img("1111111111111111", llm.ImagePNG, 4, 3, png4x3), img("2222222222222222", llm.ImagePNG, 4, 3, png4x3),
		}}}}},
	{"images in two turns", "each user turn keeps its own images, around an assistant turn without any",
		llm.Request{Messages: []llm.Message{
			{Role: llm.RoleUser, Text: "Before.", Images: []llm.Image{img("0123456789abcdef", llm.ImagePNG, 4, 3, png4x3)}},
			{Role: llm.RoleAssistant, Text: "I see two bowls."},
			{Role: llm.RoleUser, Text: "After.", Images: []llm.Image{img("fedcba9876543210", llm.ImageJPEG, 5, 2, jpeg5x2)}},
		}}},
}

// TestImagesRoundTripOpenAI: images that package openai sends come back
// out of serve's decoder with their type, size and bytes, named by the
// digest of their bytes; with or without a detail.
func TestImagesRoundTripOpenAI(t *testing.T) {
	for _, detail := range []string{"", openai.DetailLow, openai.DetailHigh, openai.DetailAuto} {
		for _, tc := range imageRequests {
			t.Run(tc.name+"/detail="+detail, func(t *testing.T) {
				m := &fake{reply: llm.Reply{Text: "ok", FinishReason: llm.FinishStop}}
				srv := httptest.NewServer(serve.Handler(m))
				defer srv.Close()
				client, err := openai.New("served", openai.Options{BaseURL: srv.URL + "/v1", ImageDetail: detail})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := client.Generate(context.Background(), tc.req); err != nil {
					t.Fatalf("%s: %v", tc.why, err)
				}
				if len(m.got) != 1 {
					t.Fatalf("%d calls, want 1", len(m.got))
				}
				if g, w := seen(t, m.got[0], false), seen(t, tc.req, true); !reflect.DeepEqual(g, w) {
					t.Errorf("%s: the model got\n%s\nwant\n%s", tc.why, dump(g), dump(w))
				}
				for _, msg := range m.got[0].Messages {
					for _, im := range msg.Images {
						if err := im.Check(); err != nil {
							t.Errorf("decoded image: %v", err)
						}
					}
				}
			})
		}
	}
}

// TestImagesRoundTripGemini: the same through package gemini and serve's
// Gemini decoder, with or without a media resolution.
func TestImagesRoundTripGemini(t *testing.T) {
	for _, media := range []string{"", gemini.MediaLow, gemini.MediaMedium, gemini.MediaHigh} {
		for _, tc := range imageRequests {
			t.Run(tc.name+"/media_resolution="+media, func(t *testing.T) {
				m := &fake{reply: llm.Reply{Text: "ok", FinishReason: llm.FinishStop}}
				srv := httptest.NewServer(serve.Handler(m))
				defer srv.Close()
				client, err := gemini.New("served", gemini.Options{APIKey: "k", BaseURL: srv.URL, MediaResolution: media})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := client.Generate(context.Background(), tc.req); err != nil {
					t.Fatalf("%s: %v", tc.why, err)
				}
				if len(m.got) != 1 {
					t.Fatalf("%d calls, want 1", len(m.got))
				}
				if g, w := seen(t, m.got[0], false), seen(t, tc.req, true); !reflect.DeepEqual(g, w) {
					t.Errorf("%s: the model got\n%s\nwant\n%s", tc.why, dump(g), dump(w))
				}
			})
		}
	}
}

// TestImageDecode: how serve reads the image parts of requests that no
// ambibench backend writes, but a plain client may.
func TestImageDecode(t *testing.T) {
	pngURL := "data:image/png;base64," + b64(png4x3)
	inline := `{"inlineData":{"mimeType":"image/png","data":"` + b64(png4x3) + `"}}`
	one := []seenImage{{serverDigest(png4x3), llm.ImagePNG, 4, 3, png4x3}}
	user := func(text string, ims []seenImage) seenMessage {
		return seenMessage{Role: llm.RoleUser, Text: text, Images: ims}
	}
	tests := []struct {
		name, why string
		gemini    bool
		body      string
		want      []seenMessage
	}{
		{"image first", "an OpenAI client that puts the image before the question: two messages, so that the order is kept",
			false, `{"messages":[{"role":"user","name":"op","content":[{"type":"image_url","image_url":{"url":"` + pngURL + `"}},{"type":"text","text":"What is this?"}]}]}`,
			[]seenMessage{{Role: llm.RoleUser, Name: "op", Images: one}, {Role: llm.RoleUser, Name: "op", Text: "What is this?"}}},
		{"text parts joined before an image", "text parts are joined as before, and the image follows them",
			false, `{"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"},{"type":"image_url","image_url":{"url":"` + pngURL + `","detail":"high"}}]}]}`,
			[]seenMessage{user("ab", one)}},
		{"data URL spelled loosely", "the scheme, the type and base64 are case-insensitive, as RFC 2397 has them",
			false, `{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"DATA:Image/PNG;BASE64,` + b64(png4x3) + `"}}]}]}`,
			[]seenMessage{user("", one)}},
		{"gemini image first", "a Gemini client that puts the image before the question: two messages",
			true, `{"contents":[{"role":"user","parts":[` + inline + `,{"text":"What is this?"}]}]}`,
			[]seenMessage{user("", one), user("What is this?", nil)}},
		{"gemini URL-safe base64", "protobuf's JSON takes bytes in the URL-safe alphabet, unpadded, too",
			true, `{"contents":[{"parts":[{"text":"x"},{"inlineData":{"mimeType":"image/png","data":"` + base64.RawURLEncoding.EncodeToString(png4x3) + `"}}]}]}`,
			[]seenMessage{user("x", one)}},
		{"gemini images around a function response", "a function response ends the user message, and images after it start another",
			true, `{"contents":[{"role":"user","parts":[{"text":"a"},` + inline + `,{"functionResponse":{"name":"f","response":{"output":"r"}}},` + inline + `]}]}`,
			[]seenMessage{user("a", one), {Role: llm.RoleTool, Name: "f", Text: "r"}, user("", one)}},
	}
	for _, tc := range tests {
		var req llm.Request
		var err error
		if tc.gemini {
			req, err = serve.DecodeGeminiRequest([]byte(tc.body))
		} else {
			req, err = serve.DecodeRequest([]byte(tc.body))
		}
		if err != nil {
			t.Errorf("%s (%s): %v", tc.name, tc.why, err)
			continue
		}
		if got := seen(t, req, false); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s (%s):\ngot  %s\nwant %s", tc.name, tc.why, dump(got), dump(tc.want))
		}
	}
}

// TestImageBadRequests: every way an image part can be wrong is a 400
// that names the message, the part and the fault, never a panic, and
// the model is not called.
func TestImageBadRequests(t *testing.T) {
	url := func(u string) string {
		return `{"messages":[{"role":"user","content":[{"type":"text","text":"look"},{"type":"image_url","image_url":{"url":"` + u + `"}}]}]}`
	}
	const p = "messages[0].content[1].image_url.url"
	part := func(inline string) string {
		return `{"contents":[{"role":"user","parts":[{"text":"look"},{"inlineData":` + inline + `}]}]}`
	}
	const gp = "contents[0].parts[1].inlineData"
	tests := []struct {
		name, why string
		gemini    bool
		body      string
		field     string
		text      string
	}{
		{"http URL", "serve-sim never fetches an image", false, url("http://example.com/a.png"), p, "never fetches"},
		{"https URL", "nor over TLS", false, url("https://example.com/a.png"), p, "never fetches"},
		{"other scheme", "only data URLs", false, url("file:///tmp/a.png"), p, "not a data URL"},
		{"no scheme", "a bare path is no URL", false, url("a.png"), p, "not a data URL"},
		{"empty URL", "an image part needs its URL", false, url(""), p, "required"},
		{"no comma", "a data URL without its data", false, url("data:image/png;base64"), p, "no comma"},
		{"not base64-encoded", "percent-encoded data URLs are not taken", false, url("data:image/png,%89PNG"), p, "not base64-encoded"},
		{"payload not base64", "the payload must be base64", false, url("data:image/png;base64,***"), p, "not base64"},
		{"unpadded payload", "a data URL's base64 is padded", false, url("data:image/png;base64," + strings.TrimRight(b64(png1x1), "=")), p, "not base64"},
		{"no type", "a data URL must say its image type", false, url("data:;base64," + b64(png4x3)), p, "names no image type"},
		{"gif", "only PNG and JPEG", false, url("data:image/gif;base64,R0lGODlhAQABAAAAACw="), p, `unsupported image type "image/gif"`},
		{"text type", "a data URL of text is no image", false, url("data:text/plain;base64,aGk="), p, `unsupported image type "text/plain"`},
		{"empty payload", "no bytes is no image", false, url("data:image/png;base64,"), p, "no image bytes"},
		{"not an image", "bytes that no decoder reads", false, url("data:image/png;base64," + b64([]byte("hello, world"))), p, "not a decodable png image"},
		{"truncated header", "a PNG cut inside its header", false, url("data:image/png;base64," + b64(png4x3[:20])), p, "not a decodable png image"},
		{"type mismatch", "JPEG bytes said to be PNG", false, url("data:image/png;base64," + b64(jpeg5x2)), p, "the bytes are a jpeg image, but the type says image/png"},
		{"no image_url", "an image part needs its object", false, `{"messages":[{"role":"user","content":[{"type":"image_url"}]}]}`, "messages[0].content[0].image_url", "required"},
		{"image_url a string", "image_url is an object", false, `{"messages":[{"role":"user","content":[{"type":"image_url","image_url":"data:image/png;base64,"}]}]}`, "messages[0].content[0].image_url", "expected an object"},
		{"assistant image", "only user messages carry images", false, `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,` + b64(png4x3) + `"}}]}]}`, "messages[1].content[0]", `only user messages carry images; this one has role "assistant"`},
		{"system image", "nor system messages", false, `{"messages":[{"role":"system","content":[{"type":"text","text":"s"},{"type":"image_url","image_url":{"url":"data:image/png;base64,` + b64(png4x3) + `"}}]},{"role":"user","content":"hi"}]}`, "messages[0].content[1]", `role "system"`},
		{"tool image", "nor tool results", false, `{"messages":[{"role":"tool","tool_call_id":"a","content":[{"type":"image_url","image_url":{"url":"x"}}]}]}`, "messages[0].content[0]", `role "tool"`},
		{"index named", "the message and the part are named wherever they are", false, `{"messages":[{"role":"user","content":"a"},{"role":"user","content":[{"type":"text","text":"b"},{"type":"image_url","image_url":{"url":"data:image/png;base64,` + b64(png4x3) + `"}},{"type":"image_url","image_url":{"url":"https://x"}}]}]}`, "messages[1].content[2].image_url.url", "never fetches"},

		{"gemini gif", "only PNG and JPEG", true, part(`{"mimeType":"image/gif","data":"R0lGODlhAQABAAAAACw="}`), gp + ".mimeType", `unsupported image type "image/gif"`},
		{"gemini no type", "the type is required", true, part(`{"data":"` + b64(png4x3) + `"}`), gp + ".mimeType", "required"},
		{"gemini no data", "the bytes are required", true, part(`{"mimeType":"image/png"}`), gp + ".data", "required"},
		{"gemini empty data", "no bytes is no image", true, part(`{"mimeType":"image/png","data":""}`), gp + ".data", "no image bytes"},
		{"gemini not base64", "the data must be base64", true, part(`{"mimeType":"image/png","data":"*not*"}`), gp + ".data", "not base64"},
		{"gemini data not a string", "the data is a base64 string", true, part(`{"mimeType":"image/png","data":[1,2]}`), gp + ".data", "expected a string"},
		{"gemini not an image", "bytes that no decoder reads", true, part(`{"mimeType":"image/jpeg","data":"` + b64([]byte("hello, world")) + `"}`), gp + ".data", "not a decodable jpeg image"},
		{"gemini type mismatch", "PNG bytes said to be JPEG", true, part(`{"mimeType":"image/jpeg","data":"` + b64(png4x3) + `"}`), gp + ".data", "the bytes are a png image, but the type says image/jpeg"},
		{"gemini model image", "only user turns carry images", true, `{"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"inlineData":{"mimeType":"image/png","data":"` + b64(png4x3) + `"}}]}]}`, "contents[1].parts[0].inlineData", "only user turns carry images"},
		{"gemini system image", "the system instruction is text", true, `{"contents":[{"parts":[{"text":"hi"}]}],"systemInstruction":{"parts":[{"inlineData":{"mimeType":"image/png","data":"` + b64(png4x3) + `"}}]}}`, "systemInstruction.parts[0]", "text parts only"},
		{"gemini image and text", "a part holds one thing", true, `{"contents":[{"parts":[{"text":"a","inlineData":{"mimeType":"image/png","data":"` + b64(png4x3) + `"}}]}]}`, "contents[0].parts[0]", "not several"},
		{"gemini file", "serve-sim never fetches a file", true, `{"contents":[{"parts":[{"fileData":{"mimeType":"image/png","fileUri":"https://x/a.png"}}]}]}`, "contents[0].parts[0].fileData", "never fetches"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &fake{}
			h := serve.Handler(m)
			var msg, field string
			if tc.gemini {
				rec := postGemini(h, geminiPath, tc.body)
				if rec.Code != http.StatusBadRequest {
					t.Errorf("status %d, want 400 (%s)", rec.Code, rec.Body)
				}
				e := decodeGoogleError(t, rec)
				msg = e.Error.Message
				for _, d := range e.Error.Details {
					if v, _ := d["fieldViolations"].([]any); len(v) == 1 {
						fv, _ := v[0].(map[string]any)
						field, _ = fv["field"].(string)
					}
				}
			} else {
				rec := post(h, tc.body)
				if rec.Code != http.StatusBadRequest {
					t.Errorf("status %d, want 400 (%s)", rec.Code, rec.Body)
				}
				e := decodeError(t, rec)
				msg = e.Error.Message
				if e.Error.Param != nil {
					field = *e.Error.Param
				}
			}
			if field != tc.field || !strings.HasPrefix(msg, tc.field+": ") || !strings.Contains(msg, tc.text) {
				t.Errorf("%s: field %q, message %q; want the field %q named and %q said", tc.why, field, msg, tc.field, tc.text)
			}
			if len(msg) > 400 {
				t.Errorf("%s: a message of %d bytes: the payload is echoed", tc.why, len(msg))
			}
			if m.calls() != 0 {
				t.Error("the model was called")
			}
		})
	}
}

// imageFuzzSeeds are bodies with image parts for the decoders' fuzz
// targets: good images of both types, and each kind of fault.
func imageFuzzSeeds() (chat, gem []string) {
	for _, u := range []string{
		"data:image/png;base64," + b64(png1x1), "data:image/jpeg;base64," + b64(jpeg5x2),
		"data:image/png;base64," + b64(png4x3[:30]), "data:image/png;base64," + b64(jpeg5x2),
		"data:image/png," + b64(png1x1), "data:image/gif;base64,R0lGODlhAQABAAAAACw=", "data:image/png;base64,%%%",
		"https://example.com/a.png", "data:", "",
	} {
		chat = append(chat, fmt.Sprintf(`{"messages":[{"role":"user","content":[{"type":"text","text":"t"},{"type":"image_url","image_url":{"url":%q,"detail":"low"}},{"type":"text","text":"u"}]}]}`, u))
	}
	chat = append(chat, `{"messages":[{"role":"assistant","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,`+b64(png1x1)+`"}}]}]}`)
	for _, d := range []struct{ mime, data string }{
		{"image/png", b64(png1x1)}, {"image/jpeg", b64(jpeg5x2)}, {"image/png", base64.RawURLEncoding.EncodeToString(png4x3)},
		{"image/png", b64(png4x3[:30])}, {"image/jpeg", b64(png1x1)}, {"image/webp", "UklGRg=="}, {"image/png", "***"}, {"", ""},
	} {
		gem = append(gem, fmt.Sprintf(`{"contents":[{"role":"user","parts":[{"inlineData":{"mimeType":%q,"data":%q}},{"text":"t"}]}]}`, d.mime, d.data))
	}
	gem = append(gem, `{"contents":[{"role":"model","parts":[{"inlineData":{"mimeType":"image/png","data":"`+b64(png1x1)+`"}}]}]}`)
	return chat, gem
}

// checkImages is what the fuzz targets ask of every image a decoder
// gives: a valid name, type and size, and bytes that are an image of that
// size and hash to its digest.
func checkImages(t *testing.T, req llm.Request) {
	t.Helper()
	for i, m := range req.Messages {
		if m.Role != llm.RoleUser && len(m.Images) > 0 {
			t.Errorf("message %d: a %s message with images", i, m.Role)
		}
		for j, im := range m.Images {
			if err := im.Check(); err != nil {
				t.Errorf("message %d image %d: %v", i, j, err)
			}
			b, err := im.Bytes()
			if err != nil {
				t.Fatalf("message %d image %d: %v", i, j, err)
			}
			if d := serverDigest(b); d != im.Digest {
				t.Errorf("message %d image %d: digest %s, its bytes hash to %s", i, j, im.Digest, d)
			}
			cfg, _, err := image.DecodeConfig(bytes.NewReader(b))
			if err != nil || cfg.Width != im.Width || cfg.Height != im.Height {
				t.Errorf("message %d image %d: %d×%d, its bytes say %d×%d (%v)", i, j, im.Width, im.Height, cfg.Width, cfg.Height, err)
			}
		}
	}
}
