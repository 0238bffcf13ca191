package mcp_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/selahdev/selah/mcp"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/webtest"
)

// connectEnv is connect with SELAH_API_KEY set to envKey in the server.
func connectEnv(t *testing.T, env *webtest.Env, envKey string) *session {
	t.Helper()
	logs := &webtest.LogBuffer{}
	srv := mcp.NewServer(mcp.Config{APIURL: env.URL, Version: "test", EnvAPIKey: envKey,
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

func TestFeatureTools(t *testing.T) {
	env := webtest.Start(t, nil)
	key, _ := env.Key(t, store.PlanInternal, true)
	s := connectEnv(t, env, key)

	tools, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.OutputSchema == nil || tool.Annotations == nil {
			t.Errorf("%s: output schema %v, annotations %v", tool.Name, tool.OutputSchema, tool.Annotations)
		}
		if tool.Name != "ask_bible" && (!tool.Annotations.ReadOnlyHint || !tool.Annotations.IdempotentHint) {
			t.Errorf("%s is not marked read-only and idempotent", tool.Name)
		}
	}

	res, text := s.call("verify_citation", map[string]any{"apiKey": key, "quote": "For God so loved the world", "reference": "John 3:17"})
	var v struct {
		Match        string  `json:"match"`
		Reference    *string `json:"reference"`
		ClaimedHolds *bool   `json:"claimedHolds"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &v)
	if res.IsError || v.Match != "exact" || v.Reference == nil || *v.Reference != "John 3:16" || v.ClaimedHolds == nil || *v.ClaimedHolds ||
		!strings.Contains(text, "does NOT hold it") {
		t.Fatalf("verify_citation: %s / %s", b, text)
	}
	// "env" stands for SELAH_API_KEY.
	res, text = s.call("verify_citation", map[string]any{"apiKey": "env", "quote": "God helps those who help themselves"})
	if res.IsError || !strings.Contains(text, "Not found in the KJV") {
		t.Fatalf("verify_citation with env: %s", text)
	}
	res, text = s.call("usage", map[string]any{"apiKey": "env"})
	if res.IsError || !strings.Contains(text, "Plan: internal") || !strings.Contains(text, "Asks today (UTC):") {
		t.Fatalf("usage: %s", text)
	}
	res, text = s.call("find_references", map[string]any{"apiKey": key, "text": "Read Jn 3:16–18 and 1 Cor 13:4–7, then Ps 23. Not John 3:99."})
	if res.IsError || !strings.Contains(text, "1 Corinthians 13:4-7") || !strings.Contains(text, "John 3 has 36 verses") {
		t.Fatalf("find_references: %s", text)
	}
	res, text = s.call("lookup_word", map[string]any{"apiKey": key, "number": "g26", "limit": 2})
	if res.IsError || !strings.Contains(text, "Strong's G26 (Greek): ἀγάπη agápē") || !strings.Contains(text, "Cites: G25.") ||
		!strings.Contains(text, "as: love (") || !strings.Contains(text, "Verses 1 to 2 of ") ||
		!strings.Contains(text, "Matthew 24:12 (KJV): And because iniquity shall abound, the love of many shall wax cold.") {
		t.Fatalf("lookup_word: %s", text)
	}
	res, text = s.call("lookup_word", map[string]any{"apiKey": key, "number": "G9999"})
	if !res.IsError || !strings.Contains(text, "no G9999") {
		t.Fatalf("lookup_word of no entry: %v %s", res.IsError, text)
	}
	s.noKeyLeaks(key)

	// Without SELAH_API_KEY, "env" is refused in words.
	bare := connectEnv(t, env, "")
	res, text = bare.call("usage", map[string]any{"apiKey": "env"})
	if !res.IsError || !strings.Contains(text, "SELAH_API_KEY") {
		t.Fatalf("env without SELAH_API_KEY: %v %s", res.IsError, text)
	}
}

func TestResourcesPromptsCompletion(t *testing.T) {
	env := webtest.Start(t, nil)
	key, _ := env.Key(t, store.PlanInternal, true)
	s := connectEnv(t, env, key)
	ctx := context.Background()

	tmpls, err := s.cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, tm := range tmpls.ResourceTemplates {
		uris = append(uris, tm.URITemplate)
	}
	for _, want := range []string{"kjv://{book}/{chapter}", "kjv://{book}/{chapter}/{verse}", "kjv://topics/{slug}"} {
		if !strings.Contains(strings.Join(uris, " "), want) {
			t.Errorf("templates %v lack %s", uris, want)
		}
	}
	for uri, want := range map[string]string{
		"kjv://john/3/16":          "For God so loved the world",
		"kjv://psalms/23":          "[1] The LORD is my shepherd",
		"kjv://1-corinthians/13/4": "Charity suffereth long",
		"kjv://jude/1":             "[25] To the only wise God",
		"kjv://topics/anxiety":     "Anxiety and Worry",
		"kjv://books":              `"name":"Song of Solomon"`,
	} {
		r, err := s.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		if err != nil || len(r.Contents) != 1 || !strings.Contains(r.Contents[0].Text, want) {
			t.Errorf("read %s = %v, %v; want %q", uri, r, err, want)
		}
	}
	for _, uri := range []string{"kjv://nobook/1", "kjv://john/99", "kjv://topics/no-such-topic"} {
		if _, err := s.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("read %s: no error", uri)
		}
	}
	bare := connectEnv(t, env, "")
	if _, err := bare.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "kjv://john/3/16"}); err == nil || !strings.Contains(err.Error(), "SELAH_API_KEY") {
		t.Errorf("resource without SELAH_API_KEY: %v", err)
	}

	c, err := s.cs.Complete(ctx, &sdk.CompleteParams{Ref: &sdk.CompleteReference{Type: "ref/resource", URI: "kjv://{book}/{chapter}"},
		Argument: sdk.CompleteParamsArgument{Name: "book", Value: "1-c"}})
	if err != nil || strings.Join(c.Completion.Values, ",") != "1-chronicles,1-corinthians" {
		t.Errorf("complete book 1-c = %v, %v", c, err)
	}
	c, err = s.cs.Complete(ctx, &sdk.CompleteParams{Ref: &sdk.CompleteReference{Type: "ref/resource", URI: "kjv://topics/{slug}"},
		Argument: sdk.CompleteParamsArgument{Name: "slug", Value: "anx"}})
	if err != nil || len(c.Completion.Values) != 1 || c.Completion.Values[0] != "anxiety" {
		t.Errorf("complete slug anx = %v, %v", c, err)
	}

	prompts, err := s.cs.ListPrompts(ctx, nil)
	if err != nil || len(prompts.Prompts) < 3 {
		t.Fatalf("prompts = %v, %v", prompts, err)
	}
	for _, p := range []struct{ name, arg, value string }{
		{"word_study", "word", "grace"}, {"topical_study", "topic", "forgiveness"}, {"what_does_the_text_say", "reference", "Psalm 23"},
	} {
		g, err := s.cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: p.name, Arguments: map[string]string{p.arg: p.value}})
		if err != nil || len(g.Messages) != 1 || !strings.Contains(g.Messages[0].Content.(*sdk.TextContent).Text, p.value) {
			t.Errorf("prompt %s = %v, %v", p.name, g, err)
		}
	}
}
