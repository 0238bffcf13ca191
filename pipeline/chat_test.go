package pipeline_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/selahdev/selah/pipeline"
)

// chatRequest is the part of a chat completions request the fake reads.
type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	ResponseFormat struct {
		Type       string `json:"type"`
		JSONSchema struct {
			Name   string         `json:"name"`
			Strict bool           `json:"strict"`
			Schema map[string]any `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
}

// offered is one numbered verse as the fake model read it from the prompt.
type offered struct {
	N         int
	Reference string
	Text      string
}

var offeredLine = regexp.MustCompile(`(?m)^\[(\d+)\] (.+? \d+:\d+): (.*)$`)

// fakeChat is an OpenAI-compatible chat completions server whose model is
// a function of the offered verses: it returns the assistant message's
// content. status, when set, is answered instead; hang holds every
// request until the client gives up.
type fakeChat struct {
	t      *testing.T
	model  func(vs []offered) string
	status int
	hang   bool

	calls atomic.Int32
	mu    sync.Mutex
	last  chatRequest
}

func (f *fakeChat) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.calls.Add(1)
	if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	if r.Header.Get("Authorization") != "Bearer test-key" {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var req chatRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		f.t.Errorf("request body: %v", err)
	}
	f.mu.Lock()
	f.last = req
	f.mu.Unlock()
	if f.hang {
		<-r.Context().Done()
		return
	}
	if f.status != 0 {
		w.WriteHeader(f.status)
		w.Write([]byte(`{"error":{"message":"boom","type":"server_error"}}`))
		return
	}
	var vs []offered
	if n := len(req.Messages); n > 0 {
		for _, m := range offeredLine.FindAllStringSubmatch(req.Messages[n-1].Content, -1) {
			num, _ := strconv.Atoi(m[1])
			vs = append(vs, offered{N: num, Reference: m[2], Text: m[3]})
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "created": 1700000000, "model": req.Model,
		"choices": []any{map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": f.model(vs), "refusal": nil},
			"logprobs":      nil,
			"finish_reason": "stop",
		}},
		"usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150},
	})
}

// prompt is the user message of the last request the model received.
func (f *fakeChat) prompt() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.last.Messages[len(f.last.Messages)-1].Content
}

// serve starts f as the model's server for the test and returns a Chat
// generator talking to it, cfg's base URL and key filled in.
func (f *fakeChat) serve(cfg pipeline.ChatConfig) *pipeline.Chat {
	srv := httptest.NewServer(f)
	f.t.Cleanup(srv.Close)
	cfg.BaseURL, cfg.APIKey = srv.URL+"/v1", "test-key"
	chat, err := pipeline.NewChat(cfg)
	if err != nil {
		f.t.Fatal(err)
	}
	return chat
}

// fakeSpec configures a fakeChat in a test table.
type fakeSpec struct {
	model  func(vs []offered) string
	status int
	hang   bool
}

func draftJSON(answer, summary string, citations ...any) string {
	b, _ := json.Marshal(map[string]any{"answer": answer, "summary": summary, "citations": citations})
	return string(b)
}

// firstWords is the start of a verse, as a model would quote it.
func firstWords(text string, n int) string {
	w := strings.Fields(text)
	return strings.TrimRight(strings.Join(w[:min(n, len(w))], " "), ",;:.")
}

const worryQuestion = "How can I stop worrying?"

func TestChatAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		fake     fakeSpec
		retries  int
		timeout  time.Duration // 0: 30s
		fallback bool
		reason   string // part of FallbackReason
		check    func(t *testing.T, ans pipeline.Answer, vs []offered)
	}{
		{name: "good answer citing numbers", fake: fakeSpec{model: func(vs []offered) string {
			return draftJSON(fmt.Sprintf(`Hand your worries to God: "%s" (%s). He cares for you.`, firstWords(vs[0].Text, 6), vs[0].Reference),
				"God cares for you, so give him your worries.", 1, 7)
		}}, check: func(t *testing.T, ans pipeline.Answer, vs []offered) {
			if want := fmt.Sprintf(`Hand your worries to God: "%s" (%s).`, firstWords(vs[0].Text, 6), vs[0].Reference); !strings.HasPrefix(ans.Text, want) {
				t.Errorf("text %q", ans.Text)
			}
			if len(ans.References) != 2 || ans.References[0].Reference != vs[0].Reference || ans.References[1].Reference != vs[6].Reference {
				t.Errorf("references %+v", ans.References)
			}
		}},
		{name: "candidate numbers in the text become references", fake: fakeSpec{model: func(vs []offered) string {
			return draftJSON("God cares for you [1].", "Give God your cares [1].", 1)
		}}, check: func(t *testing.T, ans pipeline.Answer, vs []offered) {
			if ans.Text != "God cares for you ("+vs[0].Reference+")." || ans.Summary != "Give God your cares ("+vs[0].Reference+")." {
				t.Errorf("text %q summary %q", ans.Text, ans.Summary)
			}
		}},
		{name: "citations of verses not retrieved are dropped", fake: fakeSpec{model: func(vs []offered) string {
			// One past the last number offered: how many candidates a
			// question gets depends on its sources, so a fixed number
			// (42) became a candidate's when the word vectors changed.
			return draftJSON("God cares for you.", "Give God your cares.", 1, len(vs)+1, "Obadiah 1:4", "[2]")
		}}, check: func(t *testing.T, ans pipeline.Answer, vs []offered) {
			if len(ans.References) != 2 || ans.References[0].Reference != vs[0].Reference || ans.References[1].Reference != vs[1].Reference {
				t.Errorf("references %+v", ans.References)
			}
		}},
		{name: "a verse not retrieved named in the text", fake: fakeSpec{model: func(vs []offered) string {
			return draftJSON("As Obadiah 1:4 says, God brings down the proud.", "God cares.", 1, "Obadiah 1:4")
		}}, fallback: true, reason: "Obadiah 1:4"},
		{name: "misquote", fake: fakeSpec{model: func(vs []offered) string {
			return draftJSON(fmt.Sprintf(`"Cast all your anxiety on him because he cares for you" (%s).`, vs[0].Reference), "God cares.", 1)
		}}, fallback: true, reason: "misquote"},
		{name: "no citation", fake: fakeSpec{model: func(vs []offered) string {
			return draftJSON("Do not worry.", "Do not worry.")
		}}, fallback: true, reason: "no citation"},
		{name: "invalid JSON", fake: fakeSpec{model: func(vs []offered) string {
			return `Sure! {"answer": "Do not worry", "summary": `
		}}, fallback: true, reason: "invalid JSON"},
		{name: "JSON in a code fence", fake: fakeSpec{model: func(vs []offered) string {
			return "```json\n" + draftJSON("God cares for you.", "Give God your cares.", 1) + "\n```"
		}}},
		{name: "timeout", fake: fakeSpec{hang: true}, timeout: 200 * time.Millisecond, fallback: true},
		// The SDK waits out its backoff (about 0.5s) within the attempt's
		// timeout, so this one needs a timeout well over that to retry at
		// all, also on a loaded machine.
		{name: "server error after retries", fake: fakeSpec{status: http.StatusInternalServerError}, retries: 1, fallback: true, reason: "500"},
	}
	b := setup(t)
	st, r := b.st, b.r
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := &fakeChat{t: t, model: tt.fake.model, status: tt.fake.status, hang: tt.fake.hang}
			chat := fake.serve(pipeline.ChatConfig{Model: "test-model",
				Timeout: cmp.Or(tt.timeout, 30*time.Second), MaxRetries: cmp.Or(tt.retries, -1)})
			ans, err := pipeline.NewAnswerer(st, r, chat).Answer(context.Background(), worryQuestion, 3, pipeline.AnswerOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkGrounded(t, st, ans, 3)
			wantGen := "openai"
			if tt.fallback {
				wantGen = "extractive"
			}
			if ans.Generator != wantGen || ans.Fallback != tt.fallback || !strings.Contains(ans.FallbackReason, tt.reason) {
				t.Errorf("generator %q fallback %v (%s), want %q", ans.Generator, ans.Fallback, ans.FallbackReason, wantGen)
			}
			if tt.fallback && !strings.Contains(ans.Text, `Scripture says: "`) {
				t.Errorf("fallback text %q", ans.Text)
			}
			if want := int32(tt.retries + 1); fake.calls.Load() != want {
				t.Errorf("%d requests, want %d", fake.calls.Load(), want)
			}
			fake.mu.Lock()
			req := fake.last
			fake.mu.Unlock()
			checkChatRequest(t, req)
			if tt.check != nil {
				var vs []offered
				for _, m := range offeredLine.FindAllStringSubmatch(req.Messages[1].Content, -1) {
					n, _ := strconv.Atoi(m[1])
					vs = append(vs, offered{N: n, Reference: m[2], Text: m[3]})
				}
				tt.check(t, ans, vs)
			}
		})
	}
}

// offeredVerse is the first numbered verse of a user message: its number,
// reference and KJV text.
var offeredVerse = regexp.MustCompile(`(?m)^\[1\] (?:[123] )?[A-Z][a-z]+(?: of [A-Z][a-z]+)? \d+:\d+: [A-Z]`)

// checkChatRequest asserts the request speaks the structured-output API
// and offers numbered KJV verses.
func checkChatRequest(t *testing.T, req chatRequest) {
	t.Helper()
	if req.Model != "test-model" || len(req.Messages) != 2 || req.Messages[0].Role != "system" || req.Messages[1].Role != "user" {
		t.Fatalf("request %+v", req)
	}
	if !strings.Contains(req.Messages[0].Content, "only the numbered King James Version verses") {
		t.Errorf("system prompt %q", req.Messages[0].Content)
	}
	user := req.Messages[1].Content
	if !strings.Contains(user, worryQuestion) || !offeredVerse.MatchString(user) {
		t.Errorf("user message %q", user)
	}
	rf := req.ResponseFormat
	props, _ := rf.JSONSchema.Schema["properties"].(map[string]any)
	if rf.Type != "json_schema" || !rf.JSONSchema.Strict || rf.JSONSchema.Name == "" || len(props) != 3 || props["citations"] == nil {
		t.Errorf("response format %+v", rf)
	}
}

func TestForcedExtractiveSkipsTheModel(t *testing.T) {
	t.Parallel()
	fake := &fakeChat{t: t, model: func([]offered) string { return draftJSON("x", "y", 1) }}
	chat := fake.serve(pipeline.ChatConfig{})
	b := setup(t)
	a, st := b.answerer(chat), b.st
	if a.GeneratorName() != "openai" {
		t.Errorf("generator %q", a.GeneratorName())
	}
	ans, err := a.Answer(context.Background(), worryQuestion, 2, pipeline.AnswerOptions{Extractive: true})
	if err != nil {
		t.Fatal(err)
	}
	checkGrounded(t, st, ans, 2)
	if ans.Generator != "extractive" || ans.Fallback || fake.calls.Load() != 0 {
		t.Errorf("generator %q fallback %v, %d requests", ans.Generator, ans.Fallback, fake.calls.Load())
	}
}

func TestChatConfigFromEnv(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	c, err := pipeline.ChatConfigFromEnv(env(map[string]string{
		"SELAH_GENERATOR": " OpenAI ", "OPENAI_BASE_URL": "http://localhost:11434/v1", "OPENAI_API_KEY": "k",
		"OPENAI_CHAT_MODEL": "llama3.1", "OPENAI_CHAT_TIMEOUT": "3s", "OPENAI_CHAT_RETRIES": "-1",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := pipeline.ChatConfig{Kind: "openai", BaseURL: "http://localhost:11434/v1", APIKey: "k", Model: "llama3.1", Timeout: 3 * time.Second, MaxRetries: -1}
	if c != want {
		t.Errorf("config %+v, want %+v", c, want)
	}
	g, err := pipeline.NewGenerator(c)
	if err != nil || g.Name() != "openai" {
		t.Errorf("generator %v %v", g, err)
	}
	c, err = pipeline.ChatConfigFromEnv(env(nil))
	if err != nil || c != (pipeline.ChatConfig{}) {
		t.Errorf("empty environment: %+v %v", c, err)
	}
	if g, err := pipeline.NewGenerator(c); err != nil || g.Name() != "extractive" {
		t.Errorf("default generator %v %v", g, err)
	}
	for _, bad := range []map[string]string{
		{"SELAH_GENERATOR": "gpt"},
		{"OPENAI_CHAT_TIMEOUT": "soon"},
		{"OPENAI_CHAT_TIMEOUT": "-1s"},
		{"OPENAI_CHAT_RETRIES": "many"},
	} {
		if _, err := pipeline.ChatConfigFromEnv(env(bad)); err == nil {
			t.Errorf("accepted %v", bad)
		}
	}
}

// TestChatWriterFact: asked who wrote a book, the model is offered the
// verse naming its writer and told whom it names, and its answer is held
// to that verse.
func TestChatWriterFact(t *testing.T) {
	t.Parallel()
	f := &fakeChat{t: t, model: func(vs []offered) string {
		return draftJSON("Romans opens with Paul's name [1].", "Paul names himself as its writer [1].", 1)
	}}
	chat := f.serve(pipeline.ChatConfig{Model: "test-model"})
	ans, err := setup(t).answerer(chat).Answer(t.Context(), "Who wrote Romans?", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	prompt := f.prompt()
	if !strings.Contains(prompt, "- The book of Romans names Paul in its opening words [1]") || !strings.Contains(prompt, "[1] Romans 1:1: Paul, a servant") {
		t.Errorf("prompt lacks the writer fact or its verse:\n%s", prompt)
	}
	if ans.Fallback || ans.Generator != pipeline.GeneratorOpenAI || len(ans.References) != 1 || ans.References[0].Reference != "Romans 1:1" {
		t.Errorf("answer %q (fallback %v %s) cites %+v", ans.Text, ans.Fallback, ans.FallbackReason, ans.References)
	}
}

// TestChatExistenceQuestionWhole: a question asking whether the Bible
// speaks of a thing is retrieved by the thing (exists.go), and the model
// reads the question whole: it asks yes or no.
func TestChatExistenceQuestionWhole(t *testing.T) {
	t.Parallel()
	f := &fakeChat{t: t, model: func(vs []offered) string {
		return draftJSON("Yes: Nave's lists it [1].", "Yes [1].", 1)
	}}
	chat := f.serve(pipeline.ChatConfig{Model: "test-model"})
	const q = "Does the Bible mention unicorns?"
	if _, err := setup(t).answerer(chat).Answer(t.Context(), q, 3, pipeline.AnswerOptions{}); err != nil {
		t.Fatal(err)
	}
	prompt := f.prompt()
	if !strings.Contains(prompt, "Question: "+q+"\n") {
		t.Errorf("prompt does not ask the question whole:\n%.300s", prompt)
	}
}

// TestChatQuotationFacts: a model asked who said some words is told which
// verses hold them and whom the text names as speaking them, and reads
// the question whole.
func TestChatQuotationFacts(t *testing.T) {
	t.Parallel()
	f := &fakeChat{t: t, model: func(vs []offered) string {
		return draftJSON("Cain said it [1].", "Cain [1].", 1)
	}}
	chat := f.serve(pipeline.ChatConfig{Model: "test-model"})
	const q = "Who said am I my brother's keeper?"
	if _, err := setup(t).answerer(chat).Answer(t.Context(), q, 3, pipeline.AnswerOptions{}); err != nil {
		t.Fatal(err)
	}
	prompt := f.prompt()
	for _, want := range []string{"Question: " + q + "\n", "The words asked about are in Genesis 4:9", "the text names Cain as the one speaking them"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks %q:\n%.600s", want, prompt)
		}
	}
}

// TestChatReasonFacts: a why-question's model is told which verse gives
// the reason, and reads the question whole.
func TestChatReasonFacts(t *testing.T) {
	t.Parallel()
	f := &fakeChat{t: t, model: func(vs []offered) string {
		return draftJSON("Their sin was very grievous [1].", "Their sin [1].", 1)
	}}
	chat := f.serve(pipeline.ChatConfig{Model: "test-model"})
	const q = "why did god destroy sodom and gomorrah"
	if _, err := setup(t).answerer(chat).Answer(t.Context(), q, 3, pipeline.AnswerOptions{}); err != nil {
		t.Fatal(err)
	}
	prompt := f.prompt()
	for _, want := range []string{"Question: " + q + "\n", "The reason the question asks for is given in Genesis 18:20"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks %q:\n%.600s", want, prompt)
		}
	}
}

// TestChatWhenFacts: a when-question's model is told the verse stating
// the time.
func TestChatWhenFacts(t *testing.T) {
	t.Parallel()
	f := &fakeChat{t: t, model: func(vs []offered) string {
		return draftJSON("In the days of Herod the king [1].", "Herod's days [1].", 1)
	}}
	chat := f.serve(pipeline.ChatConfig{Model: "test-model"})
	const q = "when was jesus born"
	if _, err := setup(t).answerer(chat).Answer(t.Context(), q, 3, pipeline.AnswerOptions{}); err != nil {
		t.Fatal(err)
	}
	prompt := f.prompt()
	for _, want := range []string{"Question: " + q + "\n", "The time the question asks for is stated in Matthew 2:1"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks %q:\n%.600s", want, prompt)
		}
	}
}

// TestChatSummaryFacts: a question asking what a book is about has its
// model told the book's most-cited passages and what Nave's says they are.
func TestChatSummaryFacts(t *testing.T) {
	t.Parallel()
	f := &fakeChat{t: t, model: func(vs []offered) string {
		return draftJSON("Ruth's devotion to Naomi [1].", "Her devotion [1].", 1)
	}}
	chat := f.serve(pipeline.ChatConfig{Model: "test-model"})
	const q = "summarize the book of ruth"
	if _, err := setup(t).answerer(chat).Answer(t.Context(), q, 3, pipeline.AnswerOptions{}); err != nil {
		t.Fatal(err)
	}
	prompt := f.prompt()
	for _, want := range []string{"Question: " + q + "\n",
		"- One of the verses of the book of Ruth most cited on the Bible's themes: Ruth 1:16-17 [1] [2], cited on Loyalty; Nave's Topical Bible, Ruth: Her devotion to Naomi"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks %q:\n%.900s", want, prompt)
		}
	}
}

// TestChatKinFacts: a family question's model is told the relation
// Nave's states and the verses stating it.
func TestChatKinFacts(t *testing.T) {
	t.Parallel()
	f := &fakeChat{t: t, model: func(vs []offered) string {
		return draftJSON("Kish was his father [1].", "Kish [1].", 1)
	}}
	chat := f.serve(pipeline.ChatConfig{Model: "test-model"})
	const q = "Who was King Saul's father?"
	if _, err := setup(t).answerer(chat).Answer(t.Context(), q, 3, pipeline.AnswerOptions{}); err != nil {
		t.Fatal(err)
	}
	prompt := f.prompt()
	for _, want := range []string{"Question: " + q + "\n", "- Nave's Topical Bible: Kish was the father of Saul [1]"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks %q:\n%.600s", want, prompt)
		}
	}
}

// TestChatFateFacts: a question about a person's end has its model told
// the person's Nave's entry telling it and the verses saying it.
func TestChatFateFacts(t *testing.T) {
	t.Parallel()
	f := &fakeChat{t: t, model: func(vs []offered) string {
		return draftJSON("Judas hanged himself [1].", "Judas [1].", 1)
	}}
	chat := f.serve(pipeline.ChatConfig{Model: "test-model"})
	const q = "how did judas die"
	if _, err := setup(t).answerer(chat).Answer(t.Context(), q, 3, pipeline.AnswerOptions{}); err != nil {
		t.Fatal(err)
	}
	prompt := f.prompt()
	for _, want := range []string{"Question: " + q + "\n", "- Nave's Topical Bible, Judas: 1. Surnamed “Iscariot;” — Hangs himself [1]"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks %q:\n%.900s", want, prompt)
		}
	}
}

// TestChatNicknameFacts: a question asking about a name the KJV never
// writes has its model told the name and the passage cited for it.
func TestChatNicknameFacts(t *testing.T) {
	t.Parallel()
	f := &fakeChat{t: t, model: func(vs []offered) string {
		return draftJSON("Jesus sends his disciples to all nations [1].", "The disciples are sent [1].", 1)
	}}
	chat := f.serve(pipeline.ChatConfig{Model: "test-model"})
	if _, err := setup(t).answerer(chat).Answer(t.Context(), "What is the Great Commission?", 3, pipeline.AnswerOptions{}); err != nil {
		t.Fatal(err)
	}
	prompt := f.prompt()
	want := "The question asks about the Great Commission; Matthew 28:18-20 [1] [2] [3] is cited for it"
	if !strings.Contains(prompt, want) || strings.Contains(prompt, "The question names") {
		t.Errorf("prompt lacks %q:\n%.600s", want, prompt)
	}
}
