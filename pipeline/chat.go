package pipeline

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/selahdev/selah/corpus"
)

// Chat drafts answers with an OpenAI-compatible chat completions API
// (OpenAI, or Ollama and vLLM through their /v1 endpoints), asking for a
// JSON-schema structured output. Every attempt has a timeout; failed
// attempts (5xx, 429, connection errors) are retried a bounded number of
// times, while an attempt that times out is not (the SDK returns at once:
// a server that hangs costs one Timeout, not several, before the user gets
// the extractive answer). Any failure is an error, and the Answerer
// answers with the extractive answer instead.
type Chat struct {
	client    openai.Client
	model     string
	maxTokens int
	deadline  time.Duration // bound on one call, retries included
}

// NewChat returns a chat generator for cfg (whose Kind is ignored).
func NewChat(cfg ChatConfig) (*Chat, error) {
	cfg.Kind = GeneratorOpenAI
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := &Chat{
		model:     cmp.Or(cfg.Model, DefaultChatModel),
		maxTokens: cmp.Or(cfg.MaxTokens, DefaultChatMaxTokens),
	}
	timeout := cmp.Or(cfg.Timeout, DefaultChatTimeout)
	retries := cfg.MaxRetries
	switch {
	case retries == 0:
		retries = DefaultChatRetries
	case retries < 0:
		retries = 0
	}
	// Backoff between attempts is at most maxRetryDelay each.
	const maxRetryDelay = 2 * time.Second
	c.deadline = time.Duration(retries+1)*timeout + time.Duration(retries)*maxRetryDelay
	opts := []option.RequestOption{
		option.WithMaxRetries(retries),
		option.WithRequestTimeout(timeout),
		option.WithMaxRetryDelay(maxRetryDelay),
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	c.client = openai.NewClient(opts...)
	return c, nil
}

// Name is "openai".
func (c *Chat) Name() string { return GeneratorOpenAI }

// chatSystemPrompt is the model's brief. It never reaches a user: a draft
// that echoes it is refused (see echoesPrompt), and the rules it states
// are enforced after generation anyway (ground.go).
const chatSystemPrompt = `You answer questions about the Bible using only the numbered King James Version verses given with the question.

Rules:
- Answer in plain modern English, in two to four sentences, speaking to the question directly.
- Use only what the given verses and facts say. Do not use other verses, other translations or outside knowledge.
- Every sentence of the answer ends with the reference(s) of the verses it rests on, for example (Ruth 4:13).
- When you quote a verse, copy its words exactly from the given text, in double quotation marks, and follow the quotation with the verse's reference as given, for example (John 3:16).
- Never mention the verses' numbers in the answer or the summary; name verses only by their references.
- "summary" is one sentence.
- "citations" lists the numbers of the verses your answer relies on, most important first: at least one and at most the number allowed.`

// chatSchema is the structured output asked for.
var chatSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"answer":    map[string]any{"type": "string"},
		"summary":   map[string]any{"type": "string"},
		"citations": map[string]any{"type": "array", "items": map[string]any{"type": "integer"}},
	},
	"required":             []string{"answer", "summary", "citations"},
	"additionalProperties": false,
}

// maxListings is how many of Question.Listings the model is shown.
const maxListings = 3

// chatUserMessage lists the question and the numbered candidates.
func chatUserMessage(q Question) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Question: %s\n\n", cmp.Or(q.Asked, q.Text))
	// The facts the composer writes its sentences from: Nave's Topical
	// Bible entries and hub summaries, each tied to the candidates it
	// lists, so a model says what they say and cites the same verses.
	num := make(map[corpus.VerseID]int, len(q.Candidates))
	for _, c := range q.Candidates {
		num[c.Verse.ID] = c.N
	}
	cited := func(ids []corpus.VerseID) string {
		var ns []string
		for _, id := range ids {
			if n, ok := num[id]; ok && len(ns) < 6 {
				ns = append(ns, fmt.Sprintf("[%d]", n))
			}
		}
		return strings.Join(ns, " ")
	}
	for _, p := range q.Passages {
		// The passage the question names is what it asks about; the
		// verses offered are its own.
		if q.Named != "" {
			fmt.Fprintf(&b, "The question asks about %s; %s %s is cited for it: answer from it and cite it.\n\n", q.Named, spanReference(p.Verses), cited(p.Verses))
			continue
		}
		fmt.Fprintf(&b, "The question names %s %s: answer from it and cite it.\n\n", spanReference(p.Verses), cited(p.Verses))
	}
	var facts []string
	for _, p := range q.Passages {
		for _, f := range p.Filed {
			facts = append(facts, fmt.Sprintf("- Nave's Topical Bible lists %s under %s", spanReference(p.Verses), f))
		}
	}
	if w := q.Writer; w != nil {
		if c := cited([]corpus.VerseID{w.Verse}); c != "" {
			facts = append(facts, fmt.Sprintf("- %s names %s in its opening words %s; say whom the text names, not who tradition says wrote it",
				upperFirst(w.Work), w.Name, c))
		}
	}
	if f := q.Quote; f != nil {
		if c := cited(f.Verses); c != "" {
			fact := fmt.Sprintf("- The words asked about are in %s %s", spanReference(f.Verses), c)
			if f.Speaker != "" {
				fact += "; the text names " + f.Speaker + " as the one speaking them"
			}
			facts = append(facts, fact)
		}
	}
	if f := q.Reason; f != nil {
		if c := cited(f.Verses); c != "" {
			facts = append(facts, fmt.Sprintf("- The reason the question asks for is given in %s %s", spanReference(f.Verses), c))
		}
	}
	if f := q.When; f != nil {
		if c := cited(f.Verses); c != "" {
			facts = append(facts, fmt.Sprintf("- The time the question asks for is stated in %s %s", spanReference(f.Verses), c))
		}
	}
	if f := q.Summary; f != nil {
		for _, p := range f.Passages {
			c := cited(p.Verses)
			if c == "" {
				continue
			}
			fact := fmt.Sprintf("- One of the verses of the book of %s most cited on the Bible's themes: %s %s, cited on %s", f.Book, spanReference(p.Verses), c, topicLabel(p.Theme))
			if len(p.Described) > 0 {
				d := p.Described[0]
				fact += fmt.Sprintf("; Nave's Topical Bible, %s: %s", topicSubject(d.Topic), d.Entry)
			}
			facts = append(facts, fact)
		}
	}
	if f := q.Fate; f != nil {
		for _, fact := range f.Facts {
			if c := cited(fact.Verses); c != "" {
				facts = append(facts, fmt.Sprintf("- Nave's Topical Bible, %s: %s %s", topicSubject(fact.Topic), fact.Entry, c))
			}
		}
	}
	if k := q.Kin; k != nil {
		for _, s := range k.Sentences {
			if c := cited(s.Verses); c != "" {
				facts = append(facts, fmt.Sprintf("- Nave's Topical Bible: %s %s", s.Text, c))
			}
		}
	}
	for _, w := range q.Words {
		if c := cited(w.Verses); c != "" {
			facts = append(facts, fmt.Sprintf("- Strong's dictionary: %s %s (%s), %s; the KJV translates it in %s",
				w.Lemma.Number, w.Lemma.Transliteration, cmp.Or(w.Lemma.Lemma, "-"), lexGloss(w.Lemma.Meaning()), c))
		}
	}
	for _, f := range q.Facts {
		if c := cited(f.Verses); c != "" && f.Entry != "" {
			facts = append(facts, fmt.Sprintf("- %s: %s %s", f.Topic, f.Entry, c))
		}
	}
	for _, l := range q.Listings[:min(len(q.Listings), maxListings)] {
		if c := cited(l.Verses); c != "" {
			facts = append(facts, fmt.Sprintf("- %s (a Nave's topic) lists %s", l.Topic, c))
		}
	}
	for _, h := range q.Hubs {
		if c := cited(h.Verses); c != "" {
			facts = append(facts, fmt.Sprintf("- %s: %s %s", h.Title, firstSentence(h.Summary), c))
		}
	}
	if len(facts) > 0 {
		fmt.Fprintf(&b, "Facts (Strong's dictionary, Nave's Topical Bible and topic guides, with the verses they rest on):\n%s\n\n", strings.Join(facts, "\n"))
	}
	b.WriteString("Verses (KJV):\n")
	for _, c := range q.Candidates {
		fmt.Fprintf(&b, "[%d] %s: %s\n", c.N, c.Reference(), strings.TrimSpace(c.Verse.Text))
	}
	fmt.Fprintf(&b, "\nCite at most %d verse(s); adjacent verses together count as one.", q.MaxRefs)
	return b.String()
}

// Generate asks the model for a draft.
func (c *Chat) Generate(ctx context.Context, q Question) (Draft, error) {
	params := openai.ChatCompletionNewParams{
		Model: shared.ChatModel(c.model),
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage(chatSystemPrompt),
			openai.UserMessage(chatUserMessage(q)),
		},
		ResponseFormat: openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
				JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
					Name:   "kjv_answer",
					Strict: openai.Bool(true),
					Schema: chatSchema,
				},
			},
		},
		MaxCompletionTokens: openai.Int(int64(c.maxTokens)),
	}
	callCtx, cancel := context.WithTimeout(ctx, c.deadline)
	defer cancel()
	res, err := c.client.Chat.Completions.New(callCtx, params)
	if err != nil {
		var apiErr *openai.Error
		if errors.As(err, &apiErr) {
			return Draft{}, fmt.Errorf("pipeline: openai chat: status %d: %w", apiErr.StatusCode, err)
		}
		return Draft{}, fmt.Errorf("pipeline: openai chat: %w", err)
	}
	if len(res.Choices) == 0 {
		return Draft{}, fmt.Errorf("pipeline: openai chat: no choices")
	}
	ch := res.Choices[0]
	switch {
	case ch.Message.Refusal != "":
		return Draft{}, fmt.Errorf("pipeline: openai chat: the model refused")
	case ch.FinishReason == "length":
		return Draft{}, fmt.Errorf("pipeline: openai chat: completion cut off at %d tokens", c.maxTokens)
	}
	d, err := parseDraft(ch.Message.Content)
	if err != nil {
		return Draft{}, fmt.Errorf("pipeline: openai chat: %w", err)
	}
	if echoesPrompt(d) {
		return Draft{}, fmt.Errorf("pipeline: openai chat: the draft repeats its instructions")
	}
	return d, nil
}

// chatOutput is the structured output. Citations are decoded leniently:
// servers without strict schemas return "3", "[3]" or "John 3:16" as often
// as 3.
type chatOutput struct {
	Answer    string            `json:"answer"`
	Summary   string            `json:"summary"`
	Citations []json.RawMessage `json:"citations"`
}

// parseDraft reads the model's JSON, tolerating a Markdown code fence
// around it.
func parseDraft(content string) (Draft, error) {
	s := strings.TrimSpace(content)
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(strings.TrimPrefix(s, "```json"), "```")
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
	}
	dec := json.NewDecoder(strings.NewReader(s))
	var out chatOutput
	if err := dec.Decode(&out); err != nil {
		return Draft{}, fmt.Errorf("invalid JSON output: %w", err)
	}
	if dec.More() {
		return Draft{}, fmt.Errorf("invalid JSON output: trailing data")
	}
	d := Draft{Answer: out.Answer, Summary: out.Summary}
	for _, raw := range out.Citations {
		raw = bytes.TrimSpace(raw)
		var n int
		if json.Unmarshal(raw, &n) == nil {
			d.Citations = append(d.Citations, n)
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			continue // an object or a float: no pointer to anything
		}
		s = strings.Trim(strings.TrimSpace(s), "[]")
		if n, err := strconv.Atoi(s); err == nil {
			d.Citations = append(d.Citations, n)
		} else if s != "" {
			d.References = append(d.References, s)
		}
	}
	return d, nil
}

// echoesPrompt reports whether the draft repeats the system prompt's
// wording, which must never reach a user.
func echoesPrompt(d Draft) bool {
	for _, line := range strings.Split(chatSystemPrompt, "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(line, "- "))
		if len(line) < 40 {
			continue
		}
		if strings.Contains(d.Answer, line) || strings.Contains(d.Summary, line) {
			return true
		}
	}
	return false
}
