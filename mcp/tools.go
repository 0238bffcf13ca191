package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/web/client"
)

// maxReferenceBytes bounds a reference (web/openapi.yaml). It and the
// API's request bounds (selah.MaxQueryLength and the rest) go into the
// tools' input schemas so that a model sees them before it calls.
const maxReferenceBytes = 200

const apiKeyDescription = "The user's own selah API key: svc_live_ or svc_test_ followed by 49 letters and digits (58 characters), " +
	"or the literal \"env\" to use the key in the MCP server's SELAH_API_KEY (so the key need not pass through the conversation). " +
	"It is sent only as the Authorization header of this one call. Ask the user for it if you do not have it; " +
	"never invent one and never repeat it in your reply. Keys are created at /settings/api on the selah website."

// Tool inputs. Every tool takes apiKey. Its schema states only that it is
// a string: schema validation errors quote the value they reject, so the
// key's shape is checked by the handler, whose message never contains it.
type (
	passageIn struct {
		APIKey    string `json:"apiKey"`
		Reference string `json:"reference"`
	}
	searchIn struct {
		APIKey string `json:"apiKey"`
		Query  string `json:"query"`
		Limit  int    `json:"limit,omitempty"`
	}
	askIn struct {
		APIKey        string `json:"apiKey"`
		Question      string `json:"question"`
		MaxReferences int    `json:"maxReferences,omitempty"`
	}
	topicsIn struct {
		APIKey string `json:"apiKey"`
	}
	topicIn struct {
		APIKey string `json:"apiKey"`
		Slug   string `json:"slug"`
	}
)

// keyed is a tool's input: each carries the caller's apiKey argument.
type keyed interface{ apiKey() string }

func (in passageIn) apiKey() string { return in.APIKey }
func (in searchIn) apiKey() string  { return in.APIKey }
func (in askIn) apiKey() string     { return in.APIKey }
func (in topicsIn) apiKey() string  { return in.APIKey }
func (in topicIn) apiKey() string   { return in.APIKey }

type tools struct {
	cfg Config
	log *slog.Logger
}

func (t *tools) register(s *sdk.Server) {
	readOnly := &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}
	addTool(s, t, &sdk.Tool{
		Name:  "lookup_passage",
		Title: "Look up a KJV passage",
		Description: "Return the exact King James Version (KJV) text of a Bible passage, verse by verse, from selah's database " +
			"(never generated). The reference can be a verse (\"John 3:16\"), a range (\"Romans 8:28-39\", \"Genesis 1:1-2:3\") " +
			"or whole chapters (\"Psalm 23\"); book names may be abbreviated (\"1 Cor 13:4-7\", \"Ps 91\"). " +
			"One passage per call, at most 200 verses. Use it whenever you quote Scripture. KJV only.",
		Annotations: readOnly,
		InputSchema: schemaFor[passageIn](map[string]func(*jsonschema.Schema){
			"reference": stringProp("A KJV reference: book, chapter, colon, verse, e.g. \"John 3:16\", \"John 3:16-18\", \"Psalm 23\". At most 200 bytes.",
				maxReferenceBytes, "John 3:16", "Psalm 23", "1 Cor 13:4-7"),
		}),
	}, func(ctx context.Context, c *client.Client, in passageIn) (*client.PassageResponse, error) {
		return c.Scripture(ctx, in.Reference)
	}, passageText)
	addTool(s, t, &sdk.Tool{
		Name:  "search_scripture",
		Title: "Search the KJV",
		Description: "Find King James Version (KJV) verses about a topic, phrase or idea, best match first, with their references and exact text. " +
			"Retrieval only: it never writes an answer (use ask_bible for that). Combines keyword and meaning-based search, " +
			"e.g. \"do not worry about tomorrow\", \"love your enemies\", \"the Lord is my shepherd\". " +
			"A query that is itself a reference returns that passage first. KJV only.",
		Annotations: readOnly,
		InputSchema: schemaFor[searchIn](map[string]func(*jsonschema.Schema){
			"query": stringProp("What to look for: words, a paraphrase, a theme or a reference. 1 to 500 characters.",
				selah.MaxQueryLength, "do not worry about tomorrow"),
			"limit": countProp("How many verses to return at most, 1 to 20 (default 10).",
				selah.MaxSearchLimit, selah.DefaultSearchLimit),
		}),
	}, func(ctx context.Context, c *client.Client, in searchIn) (*client.SearchResponse, error) {
		return c.Search(ctx, client.SearchRequest{Query: in.Query, Limit: in.Limit})
	}, searchText)
	addTool(s, t, &sdk.Tool{
		Name:  "ask_bible",
		Title: "Ask a question, answered from the KJV",
		Description: "Answer a question concisely from the King James Version (KJV) Bible. The answer cites its verses, and the result lists " +
			"every cited reference with its exact KJV text, related topic hubs and a permalink. When nothing relevant is found the answer " +
			"says so and cites nothing. Quote the cited verses as given rather than paraphrasing them, and attribute the answer to selah. " +
			"Each successful call uses one of the key's daily and monthly Ask quota. " +
			"Example: \"What does the Bible say about forgiveness?\". KJV only.",
		Annotations: &sdk.ToolAnnotations{OpenWorldHint: new(false), DestructiveHint: new(false)},
		InputSchema: schemaFor[askIn](map[string]func(*jsonschema.Schema){
			"question": stringProp("The question, 1 to 1000 characters.",
				selah.MaxQuestionLength, "What does the Bible say about forgiveness?"),
			"maxReferences": countProp("How many passages the answer may cite at most, 1 to 8 (default 5).",
				selah.MaxMaxReferences, selah.DefaultMaxReferences),
		}),
	}, func(ctx context.Context, c *client.Client, in askIn) (*client.AskResponse, error) {
		return c.Ask(ctx, client.AskRequest{Question: in.Question, MaxReferences: in.MaxReferences})
	}, answerText)
	addTool(s, t, &sdk.Tool{
		Name:  "list_topics",
		Title: "List the KJV topic hubs",
		Description: "List selah's curated topic hubs: themes such as anxiety, faith or forgiveness, each with a slug, title, " +
			"summary and verse count. Pass a slug to get_topic for the hub's key KJV passages.",
		Annotations: readOnly,
		InputSchema: schemaFor[topicsIn](nil),
	}, func(ctx context.Context, c *client.Client, in topicsIn) (*client.TopicListResponse, error) {
		return c.Topics(ctx)
	}, topicsText)
	addTool(s, t, &sdk.Tool{
		Name:  "get_topic",
		Title: "Get a KJV topic hub",
		Description: "Return one curated topic hub by slug (as listed by list_topics, e.g. \"anxiety\", \"eternal-life\"): " +
			"its summary, the exact KJV text of its key passages in order, and related hubs.",
		Annotations: readOnly,
		InputSchema: schemaFor[topicIn](map[string]func(*jsonschema.Schema){
			"slug": func(p *jsonschema.Schema) {
				p.Description = "The hub's slug: lower-case words joined by hyphens, e.g. \"anxiety\"."
				p.Pattern = "^[a-z0-9]+(-[a-z0-9]+)*$"
				p.Examples = []any{"anxiety", "eternal-life"}
			},
		}),
	}, func(ctx context.Context, c *client.Client, in topicIn) (*client.TopicDetailResponse, error) {
		return c.Topic(ctx, in.Slug)
	}, topicText)
}

// stringProp sets a string property's description, its length (1 to max)
// and examples.
func stringProp(description string, max int, examples ...any) func(*jsonschema.Schema) {
	return func(p *jsonschema.Schema) {
		p.Description = description
		p.MinLength, p.MaxLength = jsonschema.Ptr(1), jsonschema.Ptr(max)
		p.Examples = examples
	}
}

// countProp sets an integer property's description, its range (1 to max)
// and its default.
func countProp(description string, max, def int) func(*jsonschema.Schema) {
	return func(p *jsonschema.Schema) {
		p.Description = description
		p.Minimum, p.Maximum = jsonschema.Ptr(1.0), jsonschema.Ptr(float64(max))
		p.Default = json.RawMessage(fmt.Sprint(def))
	}
}

// schemaFor is the input schema inferred from T, with the apiKey
// description and each property's bounds set by edit.
func schemaFor[T any](edit map[string]func(*jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err) // the input types are fixed: a failure is a bug found by any test
	}
	s.Properties["apiKey"].Description = apiKeyDescription
	for name, f := range edit {
		f(s.Properties[name])
	}
	return s
}

var (
	errMissingKey = errors.New("the apiKey argument is empty: pass the user's own selah API key (svc_live_… or svc_test_…); " +
		"ask the user for it, keys are created at /settings/api on the selah website")
	errMalformedKey = errors.New("the apiKey argument is not a selah API key: it must be svc_live_ or svc_test_ followed by " +
		"49 letters and digits (58 characters); ask the user to check it was copied completely")
)

// clientFor returns an API client for one call with the caller's key.
func (t *tools) clientFor(key string) (*client.Client, error) {
	key = strings.TrimSpace(key)
	if key == "" {
		return nil, errMissingKey
	}
	c, err := client.New(t.cfg.APIURL, key, client.WithHTTPClient(t.cfg.HTTPClient),
		client.WithUserAgent("selah-mcp/"+t.cfg.Version))
	if errors.Is(err, client.ErrMalformedKey) {
		return nil, errMalformedKey
	}
	if err != nil {
		return nil, fmt.Errorf("the MCP server is misconfigured: %w", err)
	}
	return c, nil
}

// call runs one API call for a tool and logs it without its arguments.
func call[T any](ctx context.Context, t *tools, tool, key string, f func(*client.Client) (*T, error)) (*T, error) {
	start := time.Now()
	key, err := t.keyFor(key)
	var c *client.Client
	if err == nil {
		c, err = t.clientFor(key)
	}
	if err == nil {
		var out *T
		if out, err = f(c); err == nil {
			t.log.Info("tool call", slog.String("tool", tool), slog.Duration("duration", time.Since(start)))
			return out, nil
		}
	}
	err = toolError(err)
	t.log.Info("tool call failed", slog.String("tool", tool), slog.Duration("duration", time.Since(start)),
		slog.String("error", err.Error()))
	return nil, err
}

// toolError is the message a model sees for a failed call: the API's code
// and message, what to do about it, and for limits when to retry.
func toolError(err error) error {
	var e *client.Error
	if !errors.As(err, &e) {
		if errors.Is(err, errMissingKey) || errors.Is(err, errMalformedKey) || errors.Is(err, errNoEnvKey) {
			return err
		}
		return fmt.Errorf("could not reach the selah API: %w", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "selah API error %d", e.Status)
	if e.Code != "" {
		fmt.Fprintf(&b, " %s", e.Code)
	}
	fmt.Fprintf(&b, ": %s", strings.TrimSpace(e.Message))
	switch e.Code {
	case "missing_api_key", "invalid_api_key":
		b.WriteString(" The apiKey argument must be the user's own selah API key; ask the user for it.")
	case "key_revoked", "key_disabled", "key_expired", "account_disabled":
		b.WriteString(" This key can no longer be used; ask the user for a current key.")
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " Retry after %d seconds.", int((e.RetryAfter+time.Second-1)/time.Second))
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, " (request id %s)", e.RequestID)
	}
	return errors.New(b.String())
}

// addTool registers a tool that makes one API call with the caller's key:
// the model gets text(response) as the result's text and the response as
// its structured content.
func addTool[In keyed, Out any](s *sdk.Server, t *tools, tool *sdk.Tool,
	do func(ctx context.Context, c *client.Client, in In) (*Out, error), text func(*Out) string) {
	sdk.AddTool(s, tool, func(ctx context.Context, _ *sdk.CallToolRequest, in In) (*sdk.CallToolResult, *Out, error) {
		out, err := call(ctx, t, tool.Name, in.apiKey(), func(c *client.Client) (*Out, error) { return do(ctx, c, in) })
		if err != nil {
			return nil, nil, err
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text(out)}}}, out, nil
	})
}
