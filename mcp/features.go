package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/topics"
	"github.com/selahdev/selah/web/client"
)

// envKeyArgument is the apiKey value that stands for the key in the
// server's SELAH_API_KEY, so that the key itself need not pass through the
// model.
const envKeyArgument = "env"

var errNoEnvKey = errors.New(`the apiKey argument is "env" but the MCP server has no SELAH_API_KEY in its environment: ` +
	"ask the user for their selah API key, or to set SELAH_API_KEY where the MCP client starts the server")

// keyFor resolves a tool's apiKey argument: the literal "env" means the
// server's own SELAH_API_KEY.
func (t *tools) keyFor(arg string) (string, error) {
	if strings.TrimSpace(arg) == envKeyArgument {
		if t.cfg.EnvAPIKey == "" {
			return "", errNoEnvKey
		}
		return t.cfg.EnvAPIKey, nil
	}
	return arg, nil
}

type (
	verifyIn struct {
		APIKey    string `json:"apiKey"`
		Quote     string `json:"quote"`
		Reference string `json:"reference,omitempty"`
	}
	usageIn struct {
		APIKey string `json:"apiKey"`
	}
	referencesIn struct {
		APIKey string `json:"apiKey"`
		Text   string `json:"text"`
	}
	wordIn struct {
		APIKey string `json:"apiKey"`
		Number string `json:"number"`
		Limit  int    `json:"limit,omitempty"`
		Offset int    `json:"offset,omitempty"`
	}
)

func (in verifyIn) apiKey() string     { return in.APIKey }
func (in usageIn) apiKey() string      { return in.APIKey }
func (in referencesIn) apiKey() string { return in.APIKey }
func (in wordIn) apiKey() string       { return in.APIKey }

func (t *tools) registerFeatures(s *sdk.Server) {
	readOnly := &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}
	addTool(s, t, &sdk.Tool{
		Name:  "verify_citation",
		Title: "Check a Bible quotation against the KJV",
		Description: "Check whether a quotation is in the King James Version (KJV) and where. Returns match (exact, normalized for case, " +
			"punctuation and old spellings, partial for a word or so different, or none), the reference where the text actually is " +
			"(a misattributed quote is traced to its real place), its exact KJV text, whether the claimed reference holds it, and a " +
			"similarity from 0 to 1. Use it before attributing words to the Bible; a saying that is not in the Bible comes back none. KJV only.",
		Annotations: readOnly,
		InputSchema: schemaFor[verifyIn](map[string]func(*jsonschema.Schema){
			"quote": stringProp("The quotation to check, 1 to 2000 characters.", 2000, "For God so loved the world"),
			"reference": func(p *jsonschema.Schema) {
				p.Description = "The reference the quote is attributed to, if any, e.g. \"John 3:17\"."
				p.MaxLength = jsonschema.Ptr(maxReferenceBytes)
			},
		}),
	}, func(ctx context.Context, c *client.Client, in verifyIn) (*client.VerifyResponse, error) {
		return c.Verify(ctx, client.VerifyRequest{Quote: in.Quote, Reference: in.Reference})
	}, verifyText)
	addTool(s, t, &sdk.Tool{
		Name:  "find_references",
		Title: "Find the Bible references in a text",
		Description: "List every Bible reference written in a text (\"Jn 3:16–18\", \"1 Cor 13:4-7\", \"First John 4:8\", \"Ps 23\"), " +
			"each with its canonical form, and the ones that name no KJV passage (\"John 3:99\") with the reason. " +
			"Use it to check the references in a draft before quoting them with lookup_passage. KJV versification.",
		Annotations: readOnly,
		InputSchema: schemaFor[referencesIn](map[string]func(*jsonschema.Schema){
			"text": func(p *jsonschema.Schema) {
				p.Description = "The text to read, at most 10,000 characters."
				p.MaxLength = jsonschema.Ptr(10_000)
			},
		}),
	}, func(ctx context.Context, c *client.Client, in referencesIn) (*client.ReferencesResponse, error) {
		return c.References(ctx, in.Text)
	}, referencesText)
	addTool(s, t, &sdk.Tool{
		Name:  "lookup_word",
		Title: "Look up a Hebrew or Greek word by Strong's number",
		Description: "Return one entry of Strong's Hebrew and Greek dictionaries by its number (\"G26\" is agape, \"H7965\" shalom): " +
			"the word in its script, transliteration, pronunciation, Strong's definition and the numbers it cites, the English words the " +
			"KJV's Strong's tags give it with their counts, and a page of the KJV verses that translate it, with their exact text. " +
			"ask_bible gives the numbers of the words a question is about (\"What does agape mean?\"). Counts as one request.",
		Annotations: readOnly,
		InputSchema: schemaFor[wordIn](map[string]func(*jsonschema.Schema){
			"number": func(p *jsonschema.Schema) {
				p.Description = "The Strong's number: G (Greek, New Testament) or H (Hebrew, Old) and the number, e.g. \"G26\", \"H7965\"."
				p.Pattern = "^[GgHh]0*[1-9][0-9]{0,4}[a-z]?$"
				p.Examples = []any{"G26", "H7965"}
			},
			"limit": countProp("How many verses to return, 1 to 100 (default 20).", 100, 20),
			"offset": func(p *jsonschema.Schema) {
				p.Description = "How many verses to skip, for the next page (default 0)."
				p.Minimum = jsonschema.Ptr(0.0)
			},
		}),
	}, func(ctx context.Context, c *client.Client, in wordIn) (*client.WordResponse, error) {
		return c.Word(ctx, client.WordRequest{Number: in.Number, Limit: in.Limit, Offset: in.Offset})
	}, wordText)
	addTool(s, t, &sdk.Tool{
		Name:  "usage",
		Title: "Show the key's plan, limits and what is left",
		Description: "Return the plan of the user's selah API key, its limits (requests per minute, concurrent requests, " +
			"Asks per UTC day and month), what is left of each now and when each resets. Use it before many calls, or after a " +
			"rate_limited or quota_exceeded error. Counts as one request. (selah serves the KJV.)",
		Annotations: readOnly,
		InputSchema: schemaFor[usageIn](nil),
	}, func(ctx context.Context, c *client.Client, in usageIn) (*client.UsageResponse, error) {
		return c.Usage(ctx)
	}, usageText)
}

func verifyText(v *client.VerifyResponse) string {
	var b strings.Builder
	if v.Reference == nil {
		fmt.Fprintf(&b, "Not found in the KJV (match: none, similarity %.2f): %q is not a quotation of the King James Bible.", v.Similarity, v.Quote)
	} else {
		fmt.Fprintf(&b, "Match: %s (similarity %.2f). Found at %s (KJV): %s", v.Match, v.Similarity, *v.Reference, *v.Text)
	}
	if v.ClaimedReference != nil {
		if v.ClaimedHolds != nil && *v.ClaimedHolds {
			fmt.Fprintf(&b, "\nThe claimed reference %s holds it.", *v.ClaimedReference)
		} else {
			fmt.Fprintf(&b, "\nThe claimed reference %s does NOT hold it.", *v.ClaimedReference)
		}
	}
	return b.String()
}

func wordText(r *client.WordResponse) string {
	var b strings.Builder
	w := r.Word
	lang := "Hebrew"
	if w.Language == "greek" {
		lang = "Greek"
	}
	fmt.Fprintf(&b, "Strong's %s (%s): %s %s", w.Strongs, lang, cmp.Or(w.Lemma, "-"), w.Transliteration)
	if w.Pronunciation != "" {
		fmt.Fprintf(&b, " (%s)", w.Pronunciation)
	}
	if w.Definition != "" {
		fmt.Fprintf(&b, "\nDefinition: %s.", w.Definition)
	}
	if len(w.Renderings) > 0 {
		fmt.Fprintf(&b, "\nStrong's KJV renderings: %s.", strings.Join(w.Renderings, ", "))
	}
	if len(w.Related) > 0 {
		fmt.Fprintf(&b, "\nCites: %s.", strings.Join(w.Related, ", "))
	}
	if len(r.KJVWords) > 0 {
		words := make([]string, len(r.KJVWords))
		for i, k := range r.KJVWords {
			words[i] = fmt.Sprintf("%s (%d)", k.Word, k.Count)
		}
		fmt.Fprintf(&b, "\nThe KJV translates it %d times, in %d verses, as: %s.", w.KJVUses, r.VerseCount, strings.Join(words, ", "))
	}
	if len(r.Verses) > 0 {
		fmt.Fprintf(&b, "\nVerses %d to %d of %d:", r.Offset+1, r.Offset+len(r.Verses), r.VerseCount)
		for _, v := range r.Verses {
			fmt.Fprintf(&b, "\n%s (KJV): %s", v.Reference, v.Text)
		}
	}
	return b.String()
}

func referencesText(r *client.ReferencesResponse) string {
	var b strings.Builder
	if len(r.References) == 0 && len(r.Invalid) == 0 {
		return "No Bible references found in the text."
	}
	for _, f := range r.References {
		fmt.Fprintf(&b, "- %q → %s\n", f.Text, f.Reference)
	}
	for _, f := range r.Invalid {
		fmt.Fprintf(&b, "- %q is not a KJV passage: %s\n", f.Text, f.Message)
	}
	return b.String()
}

func usageText(u *client.UsageResponse) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Plan: %s\n", u.Plan)
	line := func(name string, l api.LimitUsage) {
		if l.Limit == nil {
			fmt.Fprintf(&b, "- %s: unlimited\n", name)
			return
		}
		fmt.Fprintf(&b, "- %s: %d of %d left", name, deref(l.Remaining), *l.Limit)
		if l.InUse != nil {
			fmt.Fprintf(&b, " (%d in progress)", *l.InUse)
		}
		if l.ResetAt != nil {
			fmt.Fprintf(&b, ", whole again at %s", l.ResetAt.UTC().Format("2006-01-02 15:04:05 UTC"))
		}
		b.WriteString("\n")
	}
	line("requests per minute", u.RequestsPerMinute)
	line("concurrent requests", u.ConcurrentRequests)
	line("Asks today (UTC)", u.AsksToday)
	line("Asks this month (UTC)", u.AsksThisMonth)
	return b.String()
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// Resources. A resource read carries no tool arguments, so it cannot take
// the user's key the way tools do: resources use the key in the server's
// SELAH_API_KEY, and without it a read fails with a message that says so.
// The key is still the user's own, and counts against their plan.

// bookSlug is a book's name in a resource URI: lower case, hyphens for
// spaces ("john", "1-corinthians", "song-of-solomon"), as in the website's
// reader.
func bookSlug(b corpus.Book) string {
	return strings.ReplaceAll(strings.ToLower(b.Name), " ", "-")
}

func bookFromSlug(s string) (corpus.Book, bool) {
	s, _ = url.PathUnescape(s)
	return corpus.LookupBook(strings.ReplaceAll(s, "-", " "))
}

func (t *tools) registerResources(s *sdk.Server) {
	s.AddResource(&sdk.Resource{
		URI: "kjv://books", Name: "books", Title: "The 66 books of the KJV", MIMEType: "application/json",
		Description: "Every book with its testament, chapter count and verses per chapter (GET /api/v1/books).",
	}, t.readBooks)
	s.AddResourceTemplate(&sdk.ResourceTemplate{
		URITemplate: "kjv://topics/{slug}", Name: "topic", Title: "A KJV topic hub", MIMEType: "text/plain",
		Description: "A curated topic hub with the KJV text of its key passages, e.g. kjv://topics/anxiety.",
	}, t.readTopic)
	s.AddResourceTemplate(&sdk.ResourceTemplate{
		URITemplate: "kjv://{book}/{chapter}/{verse}", Name: "verse", Title: "A KJV verse", MIMEType: "text/plain",
		Description: "One verse of the KJV, e.g. kjv://john/3/16. The book is its name in lower case with hyphens (1-corinthians, song-of-solomon).",
	}, t.readPassage)
	s.AddResourceTemplate(&sdk.ResourceTemplate{
		URITemplate: "kjv://{book}/{chapter}", Name: "chapter", Title: "A KJV chapter", MIMEType: "text/plain",
		Description: "A whole chapter of the KJV, e.g. kjv://psalms/23. The book is its name in lower case with hyphens (1-corinthians, song-of-solomon).",
	}, t.readPassage)
}

// resourceClient is the API client of a resource read.
func (t *tools) resourceClient() (*client.Client, error) {
	if t.cfg.EnvAPIKey == "" {
		return nil, errors.New("reading selah resources needs SELAH_API_KEY in the MCP server's environment " +
			"(resources, unlike tools, carry no apiKey argument); set it where the MCP client starts the server")
	}
	return t.clientFor(t.cfg.EnvAPIKey)
}

func textResource(uri, mime, text string) *sdk.ReadResourceResult {
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: mime, Text: text}}}
}

func (t *tools) readBooks(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	c, err := t.resourceClient()
	if err != nil {
		return nil, err
	}
	b, err := c.Books(ctx)
	if err != nil {
		return nil, toolError(err)
	}
	raw, err := json.Marshal(b)
	if err != nil {
		return nil, err
	}
	return textResource(req.Params.URI, "application/json", string(raw)), nil
}

func (t *tools) readTopic(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	u, err := url.Parse(req.Params.URI)
	if err != nil || u.Scheme != "kjv" || u.Host != "topics" {
		return nil, sdk.ResourceNotFoundError(req.Params.URI)
	}
	slug := strings.Trim(u.Path, "/")
	c, err := t.resourceClient()
	if err != nil {
		return nil, err
	}
	tp, err := c.Topic(ctx, slug)
	var ae *client.Error
	if errors.As(err, &ae) && ae.Status == 404 {
		return nil, sdk.ResourceNotFoundError(req.Params.URI)
	}
	if err != nil {
		return nil, toolError(err)
	}
	return textResource(req.Params.URI, "text/plain", topicText(tp)), nil
}

// readPassage serves kjv://{book}/{chapter} and kjv://{book}/{chapter}/{verse}
// (and, if a client matches it here, kjv://topics/{slug}).
func (t *tools) readPassage(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	u, err := url.Parse(req.Params.URI)
	if err != nil || u.Scheme != "kjv" {
		return nil, sdk.ResourceNotFoundError(req.Params.URI)
	}
	if u.Host == "topics" {
		return t.readTopic(ctx, req)
	}
	b, ok := bookFromSlug(u.Host)
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if !ok || len(parts) < 1 || len(parts) > 2 {
		return nil, sdk.ResourceNotFoundError(req.Params.URI)
	}
	ref := b.Name + " "
	for i, p := range parts {
		if _, err := strconv.Atoi(p); err != nil {
			return nil, sdk.ResourceNotFoundError(req.Params.URI)
		}
		if i > 0 {
			ref += ":"
		}
		ref += p
	}
	if len(parts) == 1 && b.SingleChapter() {
		ref = fmt.Sprintf("%s %s:1-%d", b.Name, parts[0], b.Verses(1))
	}
	c, err := t.resourceClient()
	if err != nil {
		return nil, err
	}
	p, err := c.Scripture(ctx, ref)
	var ae *client.Error
	if errors.As(err, &ae) && (ae.Status == 404 || ae.Status == 400) {
		return nil, sdk.ResourceNotFoundError(req.Params.URI)
	}
	if err != nil {
		return nil, toolError(err)
	}
	return textResource(req.Params.URI, "text/plain", passageText(p)), nil
}

// complete offers book names (as URI slugs) for the {book} of the passage
// templates, topic slugs for kjv://topics/{slug} and the topical_study
// prompt, and book names for the reference of the passage prompt.
func complete(_ context.Context, req *sdk.CompleteRequest) (*sdk.CompleteResult, error) {
	p := req.Params
	prefix := strings.ToLower(p.Argument.Value)
	var values []string
	switch {
	case p.Ref != nil && p.Ref.Type == "ref/resource" && p.Argument.Name == "book":
		for _, b := range corpus.Books() {
			values = append(values, bookSlug(b))
		}
	case p.Argument.Name == "slug" || p.Argument.Name == "topic":
		for _, h := range topics.All() {
			values = append(values, h.Slug)
		}
	case p.Ref != nil && p.Ref.Type == "ref/prompt" && p.Argument.Name == "reference":
		for _, b := range corpus.Books() {
			values = append(values, b.Name)
		}
	}
	var out []string
	for _, v := range values {
		if strings.HasPrefix(strings.ToLower(v), prefix) {
			out = append(out, v)
		}
	}
	sort.Strings(out)
	total := len(out)
	if len(out) > 100 {
		out = out[:100]
	}
	return &sdk.CompleteResult{Completion: sdk.CompletionResultDetails{Values: append([]string{}, out...), Total: total, HasMore: total > len(out)}}, nil
}

// Prompts: studies that tell the model which tools to use and to quote
// only what they return.

func (t *tools) registerPrompts(s *sdk.Server) {
	s.AddPrompt(&sdk.Prompt{
		Name: "word_study", Title: "Word study in the KJV",
		Description: "Study how the KJV uses one word: where it occurs, what it means in context, with every verse quoted from selah.",
		Arguments:   []*sdk.PromptArgument{{Name: "word", Description: "The word to study, e.g. \"grace\".", Required: true}},
	}, promptOf(func(a map[string]string) string {
		return fmt.Sprintf("Do a word study of %q in the King James Version. Use search_scripture (several queries, limit 10) to find "+
			"where the word and its forms occur, lookup_passage to read the most telling verses in context, and verify_citation on any "+
			"verse you quote from memory. Group the uses by sense, quote each verse exactly as returned with its reference, and "+
			"say nothing about the Bible's wording that no tool returned. Pass the user's selah API key as apiKey (or \"env\" if the "+
			"server has SELAH_API_KEY).", a["word"])
	}))
	s.AddPrompt(&sdk.Prompt{
		Name: "topical_study", Title: "Topical study in the KJV",
		Description: "Gather what the KJV says on a theme from selah's topic hubs and search, quoting every verse.",
		Arguments:   []*sdk.PromptArgument{{Name: "topic", Description: "A theme or a topic slug, e.g. \"forgiveness\" or \"anxiety\".", Required: true}},
	}, promptOf(func(a map[string]string) string {
		return fmt.Sprintf("Make a topical study of %q from the King James Version. Start with list_topics and get_topic for the "+
			"closest hub (the resource kjv://topics/{slug} has the same content), add verses from search_scripture, and read key "+
			"passages in context with lookup_passage. Organize the study in a few headings, quote each verse exactly as returned "+
			"with its reference, and keep your own words apart from Scripture. Pass the user's selah API key as apiKey.", a["topic"])
	}))
	s.AddPrompt(&sdk.Prompt{
		Name: "what_does_the_text_say", Title: "What does the text say?",
		Description: "Read a passage of the KJV closely: what it says, before what it means.",
		Arguments:   []*sdk.PromptArgument{{Name: "reference", Description: "The passage, e.g. \"Romans 8:28-39\" or \"Psalm 23\".", Required: true}},
	}, promptOf(func(a map[string]string) string {
		return fmt.Sprintf("Read %s in the King James Version with lookup_passage (or the resource kjv://{book}/{chapter}). Quote it "+
			"as returned, then say plainly what the text says: who speaks, to whom, what is stated, commanded or promised, and how "+
			"the verses connect. Stay with the text; mark clearly anything that goes beyond it. Check any other verse you cite with "+
			"verify_citation. Pass the user's selah API key as apiKey.", a["reference"])
	}))
}

func promptOf(text func(map[string]string) string) sdk.PromptHandler {
	return func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		args := req.Params.Arguments
		for _, v := range args {
			if len(v) > 500 {
				return nil, errors.New("a prompt argument is longer than 500 characters")
			}
		}
		return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: text(args)}}}}, nil
	}
}
