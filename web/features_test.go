package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/jobs"
	"github.com/selahdev/selah/store"
)

// apiDo sends one API request with key and returns the response and its
// body. headers are extra request headers, name then value.
func apiDo(t *testing.T, srv *Server, method, path, key, body string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, rd)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := srv.App().Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

func decodeInto(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
}

func wantAPIStatus(t *testing.T, res *http.Response, body []byte, status int) {
	t.Helper()
	if res.StatusCode != status {
		t.Fatalf("status %d, want %d: %s", res.StatusCode, status, body)
	}
}

// TestCacheablePassages: /scripture, /topics/{slug} and /books carry a
// strong ETag of their content, the cache policy and the corpus edition;
// If-None-Match gives 304 without a body, and a 304 still counts toward the
// per-minute limit.
func TestCacheablePassages(t *testing.T) {
	t.Parallel()
	env := newQueueEnv(t, Config{})
	key := env.key(t, store.PlanDeveloper)
	for _, path := range []string{"/api/v1/scripture?ref=John+3:16", "/api/v1/topics/anxiety", "/api/v1/books"} {
		t.Run(path, func(t *testing.T) {
			// The free plan refills one request every 12 s, so a 304 that
			// is counted shows in X-RateLimit-Remaining.
			key := env.key(t, store.PlanFree)
			res, body := apiDo(t, env.srv, "GET", path, key, "")
			wantAPIStatus(t, res, body, 200)
			tag := res.Header.Get("ETag")
			if !strings.HasPrefix(tag, `"`) || len(tag) != 34 {
				t.Fatalf("ETag = %q, want a strong tag", tag)
			}
			if cc := res.Header.Get("Cache-Control"); cc != "private, max-age=86400" {
				t.Errorf("Cache-Control = %q", cc)
			}
			if ed, sum := res.Header.Get("X-Corpus-Edition"), res.Header.Get("X-Corpus-Checksum"); !strings.Contains(ed, "KJV") || len(sum) < 16 {
				t.Errorf("corpus edition %q, checksum %q", ed, sum)
			}
			// The same content has the same tag, whatever the request id.
			res2, body2 := apiDo(t, env.srv, "GET", path, key, "")
			wantAPIStatus(t, res2, body2, 200)
			if res2.Header.Get("ETag") != tag {
				t.Fatalf("ETag changed between two identical requests: %q, %q", tag, res2.Header.Get("ETag"))
			}
			before, _ := strconv.Atoi(res2.Header.Get("X-RateLimit-Remaining"))
			res3, body3 := apiDo(t, env.srv, "GET", path, key, "", "If-None-Match", `"other", `+tag)
			if res3.StatusCode != http.StatusNotModified || len(body3) != 0 {
				t.Fatalf("If-None-Match = %d with %d bytes, want 304 and no body", res3.StatusCode, len(body3))
			}
			if res3.Header.Get("ETag") != tag {
				t.Errorf("304 ETag = %q", res3.Header.Get("ETag"))
			}
			after, _ := strconv.Atoi(res3.Header.Get("X-RateLimit-Remaining"))
			if after >= before {
				t.Errorf("X-RateLimit-Remaining %d after a 304, %d before: the 304 was not counted", after, before)
			}
			// A stale tag gets the content.
			res4, body4 := apiDo(t, env.srv, "GET", path, key, "", "If-None-Match", `"stale"`)
			wantAPIStatus(t, res4, body4, 200)
		})
	}
	a, _ := apiDo(t, env.srv, "GET", "/api/v1/scripture?ref=John+3:16", key, "")
	b, _ := apiDo(t, env.srv, "GET", "/api/v1/scripture?ref=John+3:17", key, "")
	if a.Header.Get("ETag") == b.Header.Get("ETag") {
		t.Fatal("two passages share an ETag")
	}
}

func TestBooks(t *testing.T) {
	t.Parallel()
	env := newQueueEnv(t, Config{})
	key := env.key(t, store.PlanDeveloper)
	res, body := apiDo(t, env.srv, "GET", "/api/v1/books", key, "")
	wantAPIStatus(t, res, body, 200)
	var got api.BooksResponse
	decodeInto(t, body, &got)
	if got.Count != 66 || len(got.Books) != 66 {
		t.Fatalf("%d books", len(got.Books))
	}
	chapters, verses := 0, 0
	for _, b := range got.Books {
		chapters += b.Chapters
		verses += b.VerseCount
		if len(b.Verses) != b.Chapters {
			t.Errorf("%s: %d chapter lengths for %d chapters", b.Name, len(b.Verses), b.Chapters)
		}
	}
	if chapters != 1189 || verses != 31102 {
		t.Errorf("%d chapters, %d verses", chapters, verses)
	}
	john := got.Books[42]
	if john.Name != "John" || john.Testament != "NT" || john.Chapters != 21 || john.Verses[2] != 36 {
		t.Errorf("John = %+v", john)
	}
	if got.Books[0].Testament != "OT" || got.Books[0].OSIS != "Gen" {
		t.Errorf("Genesis = %+v", got.Books[0])
	}
	if res, body := apiDo(t, env.srv, "GET", "/api/v1/books", "", ""); res.StatusCode != 401 {
		t.Errorf("without a key: %d %s", res.StatusCode, body)
	}
}

func TestVerifyEndpoint(t *testing.T) {
	t.Parallel()
	env := newQueueEnv(t, Config{})
	key := env.key(t, store.PlanInternal)
	for _, tc := range []struct {
		name, body string
		match      string
		ref        string // "" for null
		claimed    string
		holds      *bool
	}{
		{"misattributed", `{"quote":"For God so loved the world…","reference":"John 3:17"}`, "exact", "John 3:16", "John 3:17", new(false)},
		{"claim holds", `{"quote":"Jesus wept.","reference":"Jn 11:35"}`, "exact", "John 11:35", "John 11:35", new(true)},
		{"normalized", `{"quote":"the lord is my shepherd i shall not want"}`, "normalized", "Psalms 23:1", "", nil},
		{"partial", `{"quote":"The LORD is shepherd; I shall not want."}`, "partial", "Psalms 23:1", "", nil},
		{"not in the Bible", `{"quote":"God helps those who help themselves","reference":"Proverbs 3:5"}`, "none", "", "Proverbs 3:5", new(false)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := apiDo(t, env.srv, "POST", "/api/v1/verify", key, tc.body)
			wantAPIStatus(t, res, body, 200)
			var got api.VerifyResponse
			decodeInto(t, body, &got)
			if got.Match != tc.match {
				t.Errorf("match = %s, want %s", got.Match, tc.match)
			}
			if ref := deref(got.Reference); ref != tc.ref {
				t.Errorf("reference = %q, want %q", ref, tc.ref)
			}
			if (got.Text == nil) != (tc.ref == "") || (got.URL == nil) != (tc.ref == "") {
				t.Errorf("text %v, url %v for reference %q", got.Text, got.URL, tc.ref)
			}
			if deref(got.ClaimedReference) != tc.claimed {
				t.Errorf("claimedReference = %q, want %q", deref(got.ClaimedReference), tc.claimed)
			}
			if (got.ClaimedHolds == nil) != (tc.holds == nil) || (got.ClaimedHolds != nil && *got.ClaimedHolds != *tc.holds) {
				t.Errorf("claimedHolds = %v, want %v", got.ClaimedHolds, tc.holds)
			}
			if got.Similarity < 0 || got.Similarity > 1 || (tc.match == "exact" && got.Similarity != 1) {
				t.Errorf("similarity = %v", got.Similarity)
			}
		})
	}
	for _, tc := range []struct{ name, body, code string }{
		{"no quote", `{"reference":"John 3:16"}`, "invalid_request"},
		{"empty quote", `{"quote":"  "}`, "invalid_request"},
		{"quote too long", `{"quote":"` + strings.Repeat("a ", 1001) + `"}`, "invalid_request"},
		{"unknown field", `{"quote":"Jesus wept","ref":"John 11:35"}`, "invalid_request"},
		{"bad reference", `{"quote":"Jesus wept","reference":"Hezekiah 3:16"}`, "invalid_reference"},
		{"no such verse", `{"quote":"Jesus wept","reference":"John 11:99"}`, "passage_not_found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := apiDo(t, env.srv, "POST", "/api/v1/verify", key, tc.body)
			var e ErrorBody
			decodeInto(t, body, &e)
			if e.Error.Code != tc.code || res.StatusCode != StatusOf(tc.code) {
				t.Fatalf("%d %s, want %s", res.StatusCode, body, tc.code)
			}
		})
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func TestReferencesEndpoint(t *testing.T) {
	t.Parallel()
	env := newQueueEnv(t, Config{})
	key := env.key(t, store.PlanInternal)
	// The emoji is two UTF-16 code units and four bytes: spans count code
	// units, as JavaScript does.
	text := "😀 Read Jn 3:16–18 and 1\u00a0Cor 13:4–7, then Ps 23. Not John 3:99."
	b, _ := json.Marshal(map[string]string{"text": text})
	res, body := apiDo(t, env.srv, "POST", "/api/v1/references", key, string(b))
	wantAPIStatus(t, res, body, 200)
	var got api.ReferencesResponse
	decodeInto(t, body, &got)
	want := []string{"John 3:16-18", "1 Corinthians 13:4-7", "Psalms 23"}
	if len(got.References) != len(want) {
		t.Fatalf("references %+v", got.References)
	}
	u16 := utf16Of(text)
	for i, r := range got.References {
		if r.Reference != want[i] {
			t.Errorf("reference %d = %q, want %q", i, r.Reference, want[i])
		}
		if s := string(runesOfUTF16(u16[r.Start:r.End])); s != r.Text {
			t.Errorf("span %d-%d is %q, text %q", r.Start, r.End, s, r.Text)
		}
		if !strings.HasPrefix(r.URL, "/api/v1/scripture?ref=") {
			t.Errorf("url %q", r.URL)
		}
	}
	if got.References[0].Start != 8 {
		t.Errorf("first span starts at %d, want 8 (UTF-16 code units)", got.References[0].Start)
	}
	if len(got.Invalid) != 1 || got.Invalid[0].Text != "John 3:99" || got.Invalid[0].Code != "passage_not_found" ||
		!strings.Contains(got.Invalid[0].Message, "36 verses") {
		t.Errorf("invalid = %+v", got.Invalid)
	}

	res, body = apiDo(t, env.srv, "POST", "/api/v1/references", key, `{"text":""}`)
	wantAPIStatus(t, res, body, 200)
	decodeInto(t, body, &got)
	if len(got.References) != 0 || len(got.Invalid) != 0 {
		t.Errorf("empty text found %+v", got)
	}
	long, _ := json.Marshal(map[string]string{"text": strings.Repeat("é", 10_001)})
	res, body = apiDo(t, env.srv, "POST", "/api/v1/references", key, string(long))
	wantAPIStatus(t, res, body, 400)
	res, body = apiDo(t, env.srv, "POST", "/api/v1/references", key, `{}`)
	wantAPIStatus(t, res, body, 400)
}

func utf16Of(s string) []uint16 {
	var out []uint16
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			out = append(out, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
			continue
		}
		out = append(out, uint16(r))
	}
	return out
}

func runesOfUTF16(u []uint16) []rune {
	var out []rune
	for i := 0; i < len(u); i++ {
		if u[i] >= 0xD800 && u[i] < 0xDC00 && i+1 < len(u) {
			out = append(out, 0x10000+(rune(u[i])-0xD800)<<10+(rune(u[i+1])-0xDC00))
			i++
			continue
		}
		out = append(out, rune(u[i]))
	}
	return out
}

// TestUsageEndpoint: GET /usage gives the free plan's limits and what is
// left, counting the request itself, with reset times.
func TestUsageEndpoint(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 22, 30, 0, 0, time.UTC)
	env := newQueueEnvAt(t, Config{}, func() time.Time { return now })
	key := env.key(t, store.PlanFree)
	res, body := apiDo(t, env.srv, "GET", "/api/v1/scripture?ref=John+3:16", key, "")
	wantAPIStatus(t, res, body, 200)
	res, body = apiDo(t, env.srv, "GET", "/api/v1/usage", key, "")
	wantAPIStatus(t, res, body, 200)
	var u api.UsageResponse
	decodeInto(t, body, &u)
	check := func(name string, lu api.LimitUsage, limit, remaining int) {
		t.Helper()
		if lu.Limit == nil || *lu.Limit != limit || lu.Remaining == nil || *lu.Remaining != remaining {
			t.Errorf("%s = %+v, want limit %d remaining %d", name, lu, limit, remaining)
		}
	}
	if u.Plan != "free" {
		t.Errorf("plan %q", u.Plan)
	}
	check("requestsPerMinute", u.RequestsPerMinute, 5, 3)
	if hdr := res.Header.Get("X-RateLimit-Remaining"); hdr != "3" {
		t.Errorf("X-RateLimit-Remaining = %q, body says 3", hdr)
	}
	check("concurrentRequests", u.ConcurrentRequests, 1, 0)
	if u.ConcurrentRequests.InUse == nil || *u.ConcurrentRequests.InUse != 1 {
		t.Errorf("inUse = %v, want this request", u.ConcurrentRequests.InUse)
	}
	check("asksToday", u.AsksToday, 10, 10)
	check("asksThisMonth", u.AsksThisMonth, 100, 100)
	if u.AsksToday.ResetAt == nil || !u.AsksToday.ResetAt.Equal(time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)) ||
		*u.AsksToday.ResetSeconds != 5400 {
		t.Errorf("asksToday resets %v in %v", u.AsksToday.ResetAt, u.AsksToday.ResetSeconds)
	}
	if u.AsksThisMonth.ResetAt == nil || !u.AsksThisMonth.ResetAt.Equal(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("asksThisMonth resets %v", u.AsksThisMonth.ResetAt)
	}
	if u.RequestsPerMinute.ResetSeconds == nil || *u.RequestsPerMinute.ResetSeconds < 1 {
		t.Errorf("requestsPerMinute resets in %v", u.RequestsPerMinute.ResetSeconds)
	}
}

// TestSiteRoughEdges: the website's favicon, robots.txt, 404 page for
// people, "Ask about this" on topic pages, link-preview tags on answer
// pages, the usage figures on /settings/api, and post/redirect/get for a
// new key.
func TestSiteRoughEdges(t *testing.T) {
	t.Parallel()
	env := newSiteEnv(t, Config{}, nil)
	b := env.browser(t)

	req := httptest.NewRequest("GET", "/favicon.ico", nil)
	res, err := env.srv.App().Test(req, -1)
	if err != nil || res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/x-icon" {
		t.Fatalf("favicon: %v %v", res, err)
	}
	res, _ = env.srv.App().Test(httptest.NewRequest("GET", "/robots.txt", nil), -1)
	if rb, _ := io.ReadAll(res.Body); res.StatusCode != 200 || !strings.Contains(string(rb), "Disallow: /settings/") {
		t.Fatalf("robots.txt: %d %s", res.StatusCode, rb)
	}

	// A mistyped page is an HTML page for people, with or without an
	// Accept header; the API and JSON clients keep the JSON error.
	for _, accept := range []string{"", "text/html"} {
		req := httptest.NewRequest("GET", "/topcis", nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		res, _ := env.srv.App().Test(req, -1)
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != 404 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
			!strings.Contains(string(body), "no page at this address") || strings.Contains(string(body), "endpoint") {
			t.Errorf("404 with Accept %q: %d %s", accept, res.StatusCode, body)
		}
	}
	res, _ = env.srv.App().Test(httptest.NewRequest("GET", "/api/v1/nope", nil), -1)
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Errorf("API 404 Content-Type %q", res.Header.Get("Content-Type"))
	}

	var p sitePage
	// The keys page shows the account's limits.
	b.mustSignUp(siteEmail("edges"))
	p = b.get("/settings/api")
	for _, w := range []string{"Limits and usage", "Requests per minute", "5 of 5 left", "0 in progress of 1", "10 of 10 left", "100 of 100 left"} {
		if !strings.Contains(p.body, w) {
			t.Errorf("keys page lacks %q", w)
		}
	}

	// Post/redirect/get: the form redirects; the key is shown once;
	// reloading shows no key and makes none.
	p = b.submit("/settings/api", "/settings/api/keys", url.Values{"name": {"prg"}, "mode": {"live"}})
	if p.status != http.StatusSeeOther || !strings.HasPrefix(p.location(), "/settings/api/keys/new?t=") {
		t.Fatalf("create key: %d %q", p.status, p.location())
	}
	shown := b.get(p.location())
	wantStatus(t, shown, http.StatusOK)
	if keys := siteKeyPattern.FindAllString(shown.body, -1); len(keys) != 1 {
		t.Fatalf("the key page shows %q", keys)
	}
	again := b.get(p.location())
	if again.status != http.StatusGone || siteKeyPattern.MatchString(again.body) || !strings.Contains(again.body, "shown once") {
		t.Fatalf("reload: %d\n%s", again.status, again.body)
	}
	if n := strings.Count(again.body, `<tr id="key_`); n != 1 {
		t.Errorf("%d keys listed after a reload, want 1", n)
	}
	// Another account cannot take a key's page.
	p = b.submit("/settings/api", "/settings/api/keys", url.Values{"name": {"prg2"}, "mode": {"live"}})
	other := env.browser(t)
	other.mustSignUp(siteEmail("edges-other"))
	if q := other.get(p.location()); q.status != http.StatusGone || siteKeyPattern.MatchString(q.body) {
		t.Fatalf("another account got %d:\n%s", q.status, q.body)
	}
}

// TestTopicAskAbout: a topic page offers "Ask about this", and the answer
// it leads to has description and Open Graph tags for link previews.
func TestTopicAskAbout(t *testing.T) {
	t.Parallel()
	env := newQueueEnv(t, Config{})
	env.startWorkerFor(t, jobs.QueueAsk, env.asker(t, nil))
	b := (&siteEnv{srv: env.srv, st: env.st}).browser(t)
	p := b.get("/topics/anxiety")
	wantStatus(t, p, http.StatusOK)
	for _, w := range []string{`<label for="ask-about">Ask about this</label>`, `action="/ask"`, `value="What does the Bible say about anxiety and worry?"`} {
		if !strings.Contains(p.body, w) {
			t.Errorf("topic page lacks %q", w)
		}
	}
	// Asking from it lands on an answer page with link-preview tags.
	p = b.submit("/topics/anxiety", "/ask", url.Values{"question": {"What does the Bible say about anxiety and worry?"}})
	if p.status != http.StatusSeeOther || !strings.HasPrefix(p.location(), "/answers/") {
		t.Fatalf("ask from a topic: %d %q %s", p.status, p.location(), p.body)
	}
	p = b.get(p.location())
	wantStatus(t, p, http.StatusOK)
	for _, w := range []string{`<meta name="description" content="`, `<meta property="og:title" content="What does the Bible say about anxiety and worry?">`,
		`<meta property="og:url" content="http://selah.test/answers/ans_`, `<meta property="og:description" content="`, `rel="canonical"`} {
		if !strings.Contains(p.body, w) {
			t.Errorf("answer page lacks %q", w)
		}
	}

}
