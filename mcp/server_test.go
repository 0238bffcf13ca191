package mcp_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/selahdev/selah/apikey"
	"github.com/selahdev/selah/mcp"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/webtest"
)

// session is an MCP client connected over the in-memory transport to the
// server under test, which calls a live selah deployment.
type session struct {
	t    *testing.T
	cs   *sdk.ClientSession
	logs *webtest.LogBuffer
	// seen is every result the client received, for the key scan.
	mu   sync.Mutex
	seen []string
}

func connect(t *testing.T, env *webtest.Env) *session {
	t.Helper()
	logs := &webtest.LogBuffer{}
	srv := mcp.NewServer(mcp.Config{APIURL: env.URL, Version: "test",
		Logger: slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	ctx := context.Background()
	ct, st := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "selah-test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return &session{t: t, cs: cs, logs: logs}
}

// call calls a tool; a protocol error fails the test, since every failure
// a tool knows of must come back as a tool error the model can read.
func (s *session) call(tool string, args map[string]any) (*sdk.CallToolResult, string) {
	s.t.Helper()
	res, err := s.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s: protocol error: %v", tool, err)
	}
	b, _ := json.Marshal(res)
	s.mu.Lock()
	s.seen = append(s.seen, string(b))
	s.mu.Unlock()
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	return res, text.String()
}

// keyLike matches anything shaped like a selah API key.
var keyLike = regexp.MustCompile(`svc_(?:live|test)_[0-9A-Za-z]{4,}`)

// noKeyLeaks fails if a key, or anything key-shaped, appears in a result
// the client received or in a log line of the server.
func (s *session) noKeyLeaks(keys ...string) {
	s.t.Helper()
	s.mu.Lock()
	all := strings.Join(s.seen, "\n") + "\n" + s.logs.String()
	s.mu.Unlock()
	for _, k := range keys {
		if strings.Contains(all, k) {
			s.t.Fatal("an API key appears in the tool results or logs")
		}
	}
	if m := keyLike.FindString(all); m != "" {
		s.t.Fatalf("something key-shaped appears in the tool results or logs: %.14s…", m)
	}
}

func TestToolsList(t *testing.T) {
	env := webtest.Start(t, nil)
	s := connect(t, env)
	res, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"lookup_passage": true, "search_scripture": true, "ask_bible": true, "list_topics": true, "get_topic": true,
		"verify_citation": true, "find_references": true, "usage": true, "lookup_word": true}
	for _, tool := range res.Tools {
		if !want[tool.Name] {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		delete(want, tool.Name)
		var schema struct {
			Required   []string                   `json:"required"`
			Properties map[string]json.RawMessage `json:"properties"`
		}
		b, _ := json.Marshal(tool.InputSchema)
		json.Unmarshal(b, &schema)
		if !strings.Contains(strings.Join(schema.Required, ","), "apiKey") || !strings.Contains(string(schema.Properties["apiKey"]), "svc_live_") {
			t.Errorf("%s: apiKey is not a described, required argument: %s", tool.Name, b)
		}
		if !strings.Contains(tool.Description, "KJV") || tool.OutputSchema == nil {
			t.Errorf("%s: description %q, output schema %v", tool.Name, tool.Description, tool.OutputSchema)
		}
	}
	if len(want) > 0 {
		t.Errorf("missing tools %v", want)
	}
	// The bounds of the API are in the schemas.
	for _, tool := range res.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		for name, bounds := range map[string][]string{
			"search_scripture": {`"maxLength":500`, `"maximum":20`, `"minimum":1`},
			"ask_bible":        {`"maxLength":1000`, `"maximum":8`, `"default":5`},
			"lookup_passage":   {`"maxLength":200`},
			"lookup_word":      {`"maximum":100`, `"pattern":"^[GgHh]`},
		} {
			if tool.Name != name {
				continue
			}
			for _, w := range bounds {
				if !strings.Contains(string(b), w) {
					t.Errorf("%s input schema lacks %s: %s", name, w, b)
				}
			}
		}
	}
}

func TestToolsSucceed(t *testing.T) {
	env := webtest.Start(t, nil)
	s := connect(t, env)
	key, _ := env.Key(t, store.PlanInternal, true)
	for _, tc := range []struct {
		tool       string
		args       map[string]any
		text, json []string
	}{
		{"lookup_passage", map[string]any{"reference": "John 3:16"},
			[]string{"John 3:16 (KJV)", "[16] For God so loved the world"}, []string{`"translation":"KJV"`, `"verseCount":1`}},
		{"lookup_passage", map[string]any{"reference": "Ps 23:1-2"},
			[]string{"Psalms 23:1-2 (KJV)", "A Psalm of David.", "[1] The LORD is my shepherd"}, []string{`"verseCount":2`}},
		{"search_scripture", map[string]any{"query": "the Lord is my shepherd", "limit": 3},
			[]string{"3 KJV verses", "1. Psalms 23:1: The LORD is my shepherd"}, []string{`"results":[`}},
		{"ask_bible", map[string]any{"question": "What does the Bible say about worry?", "maxReferences": 2},
			[]string{"Cited passages (KJV):", "Answer by selah (extractive): http", "Asks left for this key today"},
			[]string{`"generator":"extractive"`, `"references":[{`}},
		{"ask_bible", map[string]any{"question": "What does agape mean?"},
			[]string{"Strong's dictionary:", "- G26 ἀγάπη (agápē, greek): love"}, []string{`"words":[{`, `"strongs":"G26"`}},
		{"list_topics", map[string]any{},
			[]string{"topic hubs (pass a slug to get_topic)", "- anxiety: Anxiety and Worry"}, []string{`"slug":"anxiety"`}},
		{"get_topic", map[string]any{"slug": "anxiety"},
			[]string{"Anxiety and Worry (anxiety)", "Key passages (KJV):", "- 1 Peter 5:7: Casting all your care upon him"}, []string{`"passages":[`}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			tc.args["apiKey"] = key
			res, text := s.call(tc.tool, tc.args)
			if res.IsError {
				t.Fatalf("tool error: %s", text)
			}
			for _, w := range tc.text {
				if !strings.Contains(text, w) {
					t.Errorf("text lacks %q:\n%s", w, text)
				}
			}
			b, _ := json.Marshal(res.StructuredContent)
			for _, w := range append(tc.json, `"requestId":"req_`) {
				if !strings.Contains(string(b), w) {
					t.Errorf("structuredContent lacks %s: %.300s", w, b)
				}
			}
		})
	}
	s.noKeyLeaks(key)
}

// TestToolsRefuseBadKeys: a missing, empty, malformed, unknown or revoked
// key is a tool error saying what is wrong, never a protocol error.
func TestToolsRefuseBadKeys(t *testing.T) {
	env := webtest.Start(t, nil)
	s := connect(t, env)
	revoked, revokedID := env.Key(t, store.PlanInternal, false)
	unknown, _ := apikey.Generate(false)
	malformed := revoked[:len(revoked)-3] // a key cut short when copied
	env.Revoke(t, revokedID)

	cases := []struct {
		name string
		key  any // nil: no apiKey argument at all
		want string
	}{
		{"missing", nil, "apiKey"},
		{"empty", "", "the apiKey argument is empty"},
		{"malformed", malformed, "not a selah API key"},
		{"wrong type", 12345678901, "apiKey"},
		{"unknown", unknown, "401 invalid_api_key"},
		{"revoked", revoked, "403 key_revoked"},
	}
	for _, tool := range []string{"lookup_passage", "search_scripture", "ask_bible", "list_topics", "get_topic"} {
		for _, tc := range cases {
			t.Run(tool+"/"+tc.name, func(t *testing.T) {
				var args map[string]any
				switch tool {
				case "lookup_passage":
					args = map[string]any{"reference": "John 3:16"}
				case "search_scripture":
					args = map[string]any{"query": "grace"}
				case "ask_bible":
					args = map[string]any{"question": "What is grace?"}
				case "list_topics":
					args = map[string]any{}
				case "get_topic":
					args = map[string]any{"slug": "faith"}
				}
				if tc.key != nil {
					args["apiKey"] = tc.key
				}
				// The server caches key lookups for 500 ms: a revocation
				// shows within a second, so poll for up to two.
				deadline := time.Now().Add(2 * time.Second)
				for {
					res, text := s.call(tool, args)
					if !res.IsError {
						t.Fatalf("no error: %s", text)
					}
					if strings.Contains(text, tc.want) {
						if res.StructuredContent != nil {
							t.Errorf("a failed call has structuredContent")
						}
						return
					}
					if time.Now().After(deadline) {
						t.Fatalf("error %q, want it to mention %q", text, tc.want)
					}
					time.Sleep(100 * time.Millisecond)
				}
			})
		}
	}
	s.noKeyLeaks(revoked, unknown, malformed)
}

// TestToolsReportRateLimit: a free plan allows 5 requests a minute; the
// sixth call is a tool error with the code and when to retry.
func TestToolsReportRateLimit(t *testing.T) {
	env := webtest.Start(t, nil)
	s := connect(t, env)
	key, _ := env.Key(t, store.PlanFree, false)
	for i := 0; i < 5; i++ {
		if res, text := s.call("list_topics", map[string]any{"apiKey": key}); res.IsError {
			t.Fatalf("call %d: %s", i+1, text)
		}
	}
	res, text := s.call("lookup_passage", map[string]any{"apiKey": key, "reference": "John 3:16"})
	if !res.IsError || !strings.Contains(text, "429 rate_limited") || !regexp.MustCompile(`Retry after \d+ seconds\.`).MatchString(text) {
		t.Fatalf("6th call: %s", text)
	}
	s.noKeyLeaks(key)
}
