package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/jobs"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/pipeline/pipelinetest"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/worker"
)

func postAsk(key, body string) *http.Request {
	req := httptest.NewRequest("POST", "/api/v1/ask", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	return req
}

// asker is the real ask handler over the test corpus with generator g
// (nil: extractive).
func (env *queueEnv) asker(t testing.TB, g pipeline.Generator) worker.Handler {
	t.Helper()
	a := pipeline.NewAnswerer(env.st, pipelinetest.Retriever(t, env.st), g)
	return (&worker.Asker{Store: env.st, Answerer: a}).Handle
}

func decodeAsk(t testing.TB, res *http.Response) api.AskResponse {
	t.Helper()
	var out api.AskResponse
	b, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("ask body %s: %v", b, err)
	}
	// On the wire generatedAt is RFC 3339 in UTC, whole seconds.
	var wire struct {
		GeneratedAt string `json:"generatedAt"`
	}
	json.Unmarshal(b, &wire)
	if _, err := time.Parse(time.RFC3339, wire.GeneratedAt); err != nil || !regexp.MustCompile(`:\d\dZ$`).MatchString(wire.GeneratedAt) {
		t.Errorf("generatedAt %q", wire.GeneratedAt)
	}
	return out
}

// checkAskResponse checks an answer's shape and that every reference's
// text is the database's KJV text.
func checkAskResponse(t testing.TB, st *store.Store, res *http.Response, ans api.AskResponse) {
	t.Helper()
	if ans.Answer == "" || ans.Summary == "" || ans.RequestID != res.Header.Get("X-Request-Id") {
		t.Errorf("answer %+v", ans)
	}
	if ans.GeneratedAt.IsZero() {
		t.Errorf("generatedAt %v", ans.GeneratedAt)
	}
	if !regexp.MustCompile(`/answers/ans_[0-9A-Z]+$`).MatchString(ans.CanonicalURL) {
		t.Errorf("canonicalUrl %q", ans.CanonicalURL)
	}
	for _, r := range ans.References {
		ref, err := corpus.ParseReference(r.Reference)
		if err != nil || r.Translation != "KJV" || r.URL != api.ScriptureURL(ref.String()) {
			t.Errorf("reference %+v: %v", r, err)
			continue
		}
		vs, err := st.VerseRange(context.Background(), ref.First(), ref.Last())
		if err != nil {
			t.Fatal(err)
		}
		if want := joinText(vs); r.Text != want {
			t.Errorf("%s text %q, database %q", r.Reference, r.Text, want)
		}
	}
	for _, tp := range ans.Topics {
		if tp.Slug == "" || tp.Title == "" || tp.URL != api.TopicURL(tp.Slug) {
			t.Errorf("topic %+v", tp)
		}
	}
}

// TestAskQuota: the free plan's 10 Asks a UTC day are counted exactly and
// only on success; the 11th gets 429 quota_exceeded with Retry-After up to
// UTC midnight. The free plan's per-minute limit (5) is raised for the
// test, in the database where admins edit it, so that 11 Asks fit in one
// run; its Ask quotas stay 10 a day and 100 a month.
func TestAskQuota(t *testing.T) {
	now := time.Date(2026, 11, 23, 23, 59, 0, 0, time.UTC)
	env := newQueueEnvAt(t, Config{}, func() time.Time { return now })
	ctx := context.Background()
	plans, err := env.st.Plans(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range plans {
		if p.Name == store.PlanFree {
			if p.AsksPerDay != 10 || p.AsksPerMonth != 100 || p.ConcurrentRequests != 1 {
				t.Fatalf("free plan %+v", p)
			}
			p.RequestsPerMinute = 1000
			if err := env.st.UpdatePlanLimits(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	key := env.key(t, store.PlanFree)

	// Without workers the Ask fails: nothing is charged.
	res := send(t, env.srv, postAsk(key, `{"question":"Why pray?"}`))
	if res.StatusCode != 503 || errorOf(t, res).Code != selah.EWORKERSUNAVAILABLE {
		t.Fatalf("no workers: %d", res.StatusCode)
	}
	if d, m := headerInt(t, res, HeaderQuotaDaily), headerInt(t, res, HeaderQuotaMonthly); d != 10 || m != 100 {
		t.Fatalf("after a failed ask: daily %d monthly %d", d, m)
	}
	// A worker whose job fails: not charged either.
	broken := env.startWorkerFor(t, jobs.QueueAsk, func(context.Context, string, []byte) (any, error) {
		return nil, selah.Errorf(selah.EEMBEDDERUNAVAILABLE, "The embedder is down.")
	})
	res = send(t, env.srv, postAsk(key, `{"question":"Why pray?"}`))
	if res.StatusCode != 503 || errorOf(t, res).Code != selah.EEMBEDDERUNAVAILABLE || headerInt(t, res, HeaderQuotaDaily) != 10 {
		t.Fatalf("failed job: %d", res.StatusCode)
	}
	broken.Shutdown()

	env.startWorkerFor(t, jobs.QueueAsk, env.asker(t, nil))
	for i := 1; i <= 10; i++ {
		res := send(t, env.srv, postAsk(key, `{"question":"How can I stop worrying?","maxReferences":2}`))
		if res.StatusCode != 200 {
			t.Fatalf("ask %d: %d %+v", i, res.StatusCode, errorOf(t, res))
		}
		if d := headerInt(t, res, HeaderQuotaDaily); d != 10-i {
			t.Fatalf("ask %d: %s = %d", i, HeaderQuotaDaily, d)
		}
		if m := headerInt(t, res, HeaderQuotaMonthly); m != 100-i {
			t.Fatalf("ask %d: %s = %d", i, HeaderQuotaMonthly, m)
		}
		headerInt(t, res, HeaderRateLimitLimit)
		checkAskResponse(t, env.st, res, decodeAsk(t, res))
	}
	res = send(t, env.srv, postAsk(key, `{"question":"How can I stop worrying?"}`))
	if res.StatusCode != 429 || errorOf(t, res).Code != selah.EQUOTA {
		t.Fatalf("11th ask: %d", res.StatusCode)
	}
	checkRetryAfter(t, res, 60, 60) // 23:59 to midnight
	if d := headerInt(t, res, HeaderQuotaDaily); d != 0 {
		t.Fatalf("after the quota: daily %d", d)
	}
	// Other endpoints are not Asks: still served.
	if res := send(t, env.srv, apiRequest("GET", john316, key)); res.StatusCode != 200 {
		t.Fatalf("scripture after the Ask quota: %d", res.StatusCode)
	}
	// After midnight UTC the day's quota is back.
	now = now.Add(2 * time.Minute)
	res = send(t, env.srv, postAsk(key, `{"question":"How can I stop worrying?"}`))
	if res.StatusCode != 200 || headerInt(t, res, HeaderQuotaDaily) != 9 || headerInt(t, res, HeaderQuotaMonthly) != 89 {
		t.Fatalf("next day: %d daily %s monthly %s", res.StatusCode, res.Header.Get(HeaderQuotaDaily), res.Header.Get(HeaderQuotaMonthly))
	}
}

// TestAskAnswer checks a full answer, its canonical page (HTML and JSON),
// and that the page holds nothing about the asker.
func TestAskAnswer(t *testing.T) {
	env := newQueueEnv(t, Config{PublicURL: "https://selah.example/"})
	env.startWorkerFor(t, jobs.QueueAsk, env.asker(t, nil))
	key := env.key(t, store.PlanInternal)
	res := send(t, env.srv, postAsk(key, `{"question":"What does the Bible say about forgiving others?","maxReferences":3}`))
	if res.StatusCode != 200 {
		t.Fatalf("ask: %d %+v", res.StatusCode, errorOf(t, res))
	}
	ans := decodeAsk(t, res)
	checkAskResponse(t, env.st, res, ans)
	if len(ans.References) == 0 || len(ans.References) > 3 || len(ans.Topics) == 0 || ans.Generator != pipeline.GeneratorExtractive {
		t.Fatalf("answer %+v", ans)
	}
	if !strings.HasPrefix(ans.CanonicalURL, "https://selah.example/answers/") {
		t.Fatalf("canonicalUrl %q", ans.CanonicalURL)
	}
	path := strings.TrimPrefix(ans.CanonicalURL, "https://selah.example")

	req := httptest.NewRequest("GET", path, nil)
	req.Header.Set("Accept", "text/html")
	res = send(t, env.srv, req)
	page, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || !strings.Contains(string(page), "forgiving others") || !strings.Contains(string(page), ans.References[0].Reference) {
		t.Fatalf("answer page %d: %s", res.StatusCode, page)
	}
	if strings.Contains(string(page), "@example.com") || strings.Contains(string(page), key[:20]) {
		t.Fatal("the answer page shows something of the asker")
	}
	req = httptest.NewRequest("GET", path, nil)
	req.Header.Set("Accept", "application/json")
	res = send(t, env.srv, req)
	var ap api.AnswerPage
	if err := json.NewDecoder(res.Body).Decode(&ap); err != nil || res.StatusCode != 200 {
		t.Fatalf("answer JSON %d: %v", res.StatusCode, err)
	}
	if ap.Question != "What does the Bible say about forgiving others?" || ap.Answer != ans.Answer || len(ap.References) != len(ans.References) ||
		ap.References[0].Text != ans.References[0].Text || ap.CanonicalURL != ans.CanonicalURL {
		t.Fatalf("answer JSON %+v", ap)
	}
	req = httptest.NewRequest("GET", "/answers/ans_NOSUCHANSWER00000000000000", nil)
	req.Header.Set("Accept", "application/json")
	if res := send(t, env.srv, req); res.StatusCode != 404 || errorOf(t, res).Code != selah.ENOTFOUND {
		t.Fatalf("unknown answer: %d", res.StatusCode)
	}

	if ans.Words == nil || len(ans.Words) != 0 || ap.Words == nil || len(ap.Words) != 0 {
		t.Fatalf("a question about no word: words %v, page %v; want []", ans.Words, ap.Words)
	}

	// A question about a word's meaning carries the Strong's entries its
	// answer explains, and its page keeps them.
	res = send(t, env.srv, postAsk(key, `{"question":"What does agape mean?"}`))
	if res.StatusCode != 200 {
		t.Fatalf("word ask: %d %+v", res.StatusCode, errorOf(t, res))
	}
	word := decodeAsk(t, res)
	checkAskResponse(t, env.st, res, word)
	if len(word.Words) != 1 || word.Words[0].Strongs != "G26" || word.Words[0].Lemma != "ἀγάπη" || word.Words[0].Language != "greek" ||
		!strings.HasPrefix(word.Words[0].Definition, "love") || word.Words[0].KJVUses < 100 || !slices.Equal(word.Words[0].Related, []string{"G25"}) {
		t.Fatalf("agape: words %+v", word.Words)
	}
	req = httptest.NewRequest("GET", strings.TrimPrefix(word.CanonicalURL, "https://selah.example"), nil)
	req.Header.Set("Accept", "application/json")
	res = send(t, env.srv, req)
	var wp api.AnswerPage
	if err := json.NewDecoder(res.Body).Decode(&wp); err != nil || res.StatusCode != 200 || !reflect.DeepEqual(wp.Words, word.Words) {
		t.Fatalf("word answer JSON %d %v: words %+v, want %+v", res.StatusCode, err, wp.Words, word.Words)
	}
	req = httptest.NewRequest("GET", strings.TrimPrefix(word.CanonicalURL, "https://selah.example"), nil)
	req.Header.Set("Accept", "text/html")
	res = send(t, env.srv, req)
	if page, _ := io.ReadAll(res.Body); res.StatusCode != 200 || !strings.Contains(string(page), "ἀγάπη") || !strings.Contains(string(page), `<a href="/words/G26">Strong's G26</a>`) {
		t.Fatalf("word answer page %d: %s", res.StatusCode, page)
	}

	// A question nothing speaks to: said plainly, nothing cited.
	res = send(t, env.srv, postAsk(key, `{"question":"What is the capital of France?"}`))
	if res.StatusCode != 200 {
		t.Fatalf("off-topic ask: %d", res.StatusCode)
	}
	if none := decodeAsk(t, res); none.Answer != pipeline.NoPassageText || len(none.References) != 0 || len(none.Topics) != 0 {
		t.Fatalf("off-topic answer %+v", none)
	}
}

// fakeModel is an OpenAI-compatible chat completions endpoint whose model
// answers with content (a JSON string the generator parses).
func fakeModel(t testing.TB, content func() string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-test", "object": "chat.completion", "created": 1700000000, "model": "fake",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": content()}}},
			"usage": map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
		})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestAskGroundsAMisbehavingModel: whatever the model does — cite a verse
// that was not retrieved, misquote, answer with invalid JSON — the API
// answers 200 with references that are retrieved verses and the
// database's text (the extractive answer stands in). A test key never
// reaches the model.
func TestAskGroundsAMisbehavingModel(t *testing.T) {
	env := newQueueEnv(t, Config{})
	var reply string
	calls := 0
	model := fakeModel(t, func() string { calls++; return reply })
	g, err := pipeline.NewChat(pipeline.ChatConfig{Kind: pipeline.GeneratorOpenAI, BaseURL: model.URL + "/v1", APIKey: "sk-test",
		Model: "fake", Timeout: 2 * time.Second, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	env.startWorkerFor(t, jobs.QueueAsk, env.asker(t, g))
	key := env.key(t, store.PlanInternal)
	for _, c := range []struct{ name, reply string }{
		{"cites a verse not retrieved", `{"answer":"Read Obadiah 1:4 (Obadiah 1:4).","summary":"Obadiah.","citations":[99]}`},
		{"misquotes", `{"answer":"\"Cast all your anxiety on him because he cares for you\" [1].","summary":"Trust.","citations":[1]}`},
		{"invalid JSON", `Sure! Here is my answer: trust God.`},
	} {
		t.Run(c.name, func(t *testing.T) {
			reply = c.reply
			res := send(t, env.srv, postAsk(key, `{"question":"How can I stop worrying?"}`))
			if res.StatusCode != 200 {
				t.Fatalf("status %d", res.StatusCode)
			}
			ans := decodeAsk(t, res)
			checkAskResponse(t, env.st, res, ans)
			if ans.Generator != pipeline.GeneratorExtractive || len(ans.References) == 0 || strings.Contains(ans.Answer, "Obadiah") || strings.Contains(ans.Answer, "anxiety on him") {
				t.Fatalf("answer %+v", ans)
			}
		})
	}
	before := calls
	res := send(t, env.srv, postAsk(env.keyOf(t, store.PlanInternal, true), `{"question":"How can I stop worrying?"}`))
	if res.StatusCode != 200 || decodeAsk(t, res).Generator != pipeline.GeneratorExtractive || calls != before {
		t.Fatalf("test key: %d, model calls %d -> %d", res.StatusCode, before, calls)
	}
}

// TestAskRequestValidation: bad Ask bodies are 400 invalid_request naming
// the field, and use no quota.
func TestAskRequestValidation(t *testing.T) {
	env := newQueueEnv(t, Config{})
	key := env.key(t, store.PlanDeveloper)
	for _, c := range []struct{ name, body, mention string }{
		{"missing question", `{"maxReferences":3}`, `"question"`},
		{"blank question", `{"question":" "}`, `"question"`},
		{"question too long", `{"question":"` + strings.Repeat("a", 1001) + `"}`, `"question"`},
		{"question not a string", `{"question":["a"]}`, `"question"`},
		{"maxReferences 0", `{"question":"a","maxReferences":0}`, `"maxReferences"`},
		{"maxReferences 9", `{"question":"a","maxReferences":9}`, `"maxReferences"`},
		{"maxReferences string", `{"question":"a","maxReferences":"5"}`, `"maxReferences"`},
		{"unknown field", `{"question":"a","model":"gpt"}`, `"model"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := send(t, env.srv, postAsk(key, c.body))
			e := errorOf(t, res)
			if res.StatusCode != 400 || e.Code != selah.EINVALID || !strings.Contains(e.Message, c.mention) {
				t.Fatalf("status %d error %+v", res.StatusCode, e)
			}
			if d := headerInt(t, res, HeaderQuotaDaily); d != 200 {
				t.Fatalf("quota after a bad request: %d", d)
			}
		})
	}
}

// TestTopics: the hub list and a hub's detail, with KJV text from the
// database; unknown hubs are 404 topic_not_found; a key is required.
func TestTopics(t *testing.T) {
	env := newQueueEnv(t, Config{})
	key := env.key(t, store.PlanInternal)
	res := send(t, env.srv, apiRequest("GET", "/api/v1/topics", key))
	var list api.TopicListResponse
	if err := json.NewDecoder(res.Body).Decode(&list); err != nil || res.StatusCode != 200 {
		t.Fatalf("list: %d %v", res.StatusCode, err)
	}
	if list.Count < 60 || list.Count != len(list.Topics) || list.RequestID == "" {
		t.Fatalf("list %d topics", list.Count)
	}
	for _, tp := range list.Topics {
		if tp.Slug == "" || tp.Title == "" || tp.Summary == "" || tp.VerseCount == 0 || tp.URL != api.TopicURL(tp.Slug) {
			t.Fatalf("topic %+v", tp)
		}
	}
	res = send(t, env.srv, apiRequest("GET", "/api/v1/topics/love", key))
	var love api.TopicDetailResponse
	if err := json.NewDecoder(res.Body).Decode(&love); err != nil || res.StatusCode != 200 {
		t.Fatalf("detail: %d %v", res.StatusCode, err)
	}
	if love.Slug != "love" || len(love.Passages) < 8 || len(love.Related) == 0 {
		t.Fatalf("love %+v", love)
	}
	for _, p := range love.Passages {
		ref, err := corpus.ParseReference(p.Reference)
		if err != nil {
			t.Fatal(err)
		}
		vs, _ := env.st.VerseRange(context.Background(), ref.First(), ref.Last())
		if p.Text != joinText(vs) || p.Translation != "KJV" {
			t.Errorf("%s: %q", p.Reference, p.Text)
		}
	}
	for _, slug := range []string{"nope", "LOVE", "..%2F", url.PathEscape("love love")} {
		res := send(t, env.srv, apiRequest("GET", "/api/v1/topics/"+slug, key))
		if res.StatusCode != 404 || errorOf(t, res).Code != selah.ETOPICNOTFOUND {
			t.Errorf("%s: %d", slug, res.StatusCode)
		}
	}
	if res := send(t, env.srv, apiRequest("GET", "/api/v1/topics", "")); res.StatusCode != 401 {
		t.Fatalf("without a key: %d", res.StatusCode)
	}
}

// TestSiteAsk: the website's ask page uses the same pipeline under its own
// per-address daily quota, separate from API keys, and redirects to the
// answer's page.
func TestSiteAsk(t *testing.T) {
	env := newQueueEnv(t, Config{SiteAsksPerDay: 2})
	env.startWorkerFor(t, jobs.QueueAsk, env.asker(t, nil))
	b := (&siteEnv{srv: env.srv, st: env.st}).browser(t)
	form := b.get("/ask")
	wantStatus(t, form, 200)
	ask := func() sitePage {
		return b.submit("/ask", "/ask", url.Values{"question": {"Is it wrong to be angry?"}})
	}
	for i := 0; i < 2; i++ {
		p := ask()
		if p.status != 303 || !strings.HasPrefix(p.location(), "/answers/ans_") {
			t.Fatalf("ask %d: %d %s", i+1, p.status, p.location())
		}
		page := b.get(p.location())
		wantStatus(t, page, 200)
		if !strings.Contains(page.body, "Is it wrong to be angry?") {
			t.Fatalf("answer page: %s", page.body)
		}
	}
	p := ask()
	if p.status != 429 || !strings.Contains(p.body, "daily limit") {
		t.Fatalf("third ask: %d", p.status)
	}
	// API keys do not draw on the website's quota, nor it on theirs.
	key := env.key(t, store.PlanInternal)
	if res := send(t, env.srv, postAsk(key, `{"question":"Is it wrong to be angry?"}`)); res.StatusCode != 200 {
		t.Fatalf("API ask after the site quota: %d", res.StatusCode)
	}
	// An empty question is refused with the form shown again.
	if p := b.submit("/ask", "/ask", url.Values{"question": {"  "}}); p.status != 400 {
		t.Fatalf("empty question: %d", p.status)
	}
}

// TestSiteTopics: the website shows the hubs with their KJV text.
func TestSiteTopics(t *testing.T) {
	env := newQueueEnv(t, Config{})
	b := (&siteEnv{srv: env.srv, st: env.st}).browser(t)
	list := b.get("/topics")
	wantStatus(t, list, 200)
	if !strings.Contains(list.body, `href="/topics/love"`) {
		t.Fatalf("topic list: %s", list.body)
	}
	love := b.get("/topics/love")
	wantStatus(t, love, 200)
	if !strings.Contains(love.body, "Charity suffereth long") {
		t.Fatalf("love page: %s", love.body)
	}
	if p := b.get("/topics/nope"); p.status != 404 {
		t.Fatalf("unknown topic page: %d", p.status)
	}
}
