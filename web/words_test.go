package web

import (
	"fmt"
	"strings"
	"testing"

	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/store"
)

// TestWord looks up Strong's entries through GET /words/{number} on the
// real corpus: the entry as ingest read it, the KJV's words for it
// counted, its verses a page at a time, and the errors.
func TestWord(t *testing.T) {
	t.Parallel()
	env := newQueueEnv(t, Config{})
	key := env.key(t, store.PlanDeveloper)
	get := func(t *testing.T, path string) api.WordResponse {
		t.Helper()
		res, body := apiDo(t, env.srv, "GET", path, key, "")
		wantAPIStatus(t, res, body, 200)
		var w api.WordResponse
		decodeInto(t, body, &w)
		return w
	}

	// Any way people write it: the same entry, numbered canonically.
	for _, n := range []string{"G26", "g26", "G0026"} {
		w := get(t, "/api/v1/words/"+n)
		if w.Word.Strongs != "G26" || w.Word.Language != "greek" || w.Word.Lemma != "ἀγάπη" || w.Word.Transliteration != "agápē" {
			t.Fatalf("%s = %+v", n, w.Word)
		}
	}
	agape := get(t, "/api/v1/words/G26?limit=3")
	if agape.Word.Definition != "love, i.e. affection or benevolence; specially (plural) a love-feast" ||
		fmt.Sprint(agape.Word.Related) != "[G25]" {
		t.Errorf("G26 entry = %+v", agape.Word)
	}
	// The KJV's own words for it, commonest first: "love" (with "the
	// love" and "love’s" read as love) before "charity".
	if len(agape.KJVWords) < 2 || agape.KJVWords[0].Word != "love" || agape.KJVWords[1].Word != "charity" ||
		agape.KJVWords[0].Count < agape.KJVWords[1].Count {
		t.Errorf("G26 KJV words = %+v", agape.KJVWords)
	}
	total := 0
	for _, k := range agape.KJVWords {
		total += k.Count
	}
	if total > agape.Word.KJVUses || agape.VerseCount > agape.Word.KJVUses || agape.VerseCount < 100 {
		t.Errorf("G26: %d words counted, %d uses, %d verses", total, agape.Word.KJVUses, agape.VerseCount)
	}
	if agape.Limit != 3 || len(agape.Verses) != 3 || agape.Verses[0].Reference != "Matthew 24:12" ||
		!strings.Contains(agape.Verses[0].Text, "the love of many shall wax cold") {
		t.Fatalf("G26 first page = %+v", agape.Verses)
	}
	// The next page follows on; past the end a page is empty.
	next := get(t, "/api/v1/words/G26?limit=3&offset=2")
	if next.Offset != 2 || next.Verses[0].Reference != agape.Verses[2].Reference {
		t.Errorf("G26 offset 2 starts at %s, want %s", next.Verses[0].Reference, agape.Verses[2].Reference)
	}
	if end := get(t, fmt.Sprintf("/api/v1/words/G26?offset=%d", agape.VerseCount)); len(end.Verses) != 0 || end.VerseCount != agape.VerseCount {
		t.Errorf("past the end: %+v", end.Verses)
	}
	// The Greek module's etymology after its markup is gone from the
	// definition, and the numbers the meaning cites stay in it.
	if w := get(t, "/api/v1/words/G77"); w.Word.Definition != "costless, i.e. gratuitous" || fmt.Sprint(w.Word.Related) != "[G1 G1160]" {
		t.Errorf("G77 = %q %v", w.Word.Definition, w.Word.Related)
	}
	if w := get(t, "/api/v1/words/G80"); !strings.HasSuffix(w.Word.Definition, "(much like G1)") {
		t.Errorf("G80 = %q", w.Word.Definition)
	}
	// Hebrew, with the module's "6" for a comma mended.
	if w := get(t, "/api/v1/words/H7965"); w.Word.Language != "hebrew" || !strings.Contains(w.Word.Definition, "happy, friendly") ||
		len(w.KJVWords) == 0 || w.KJVWords[0].Word != "peace" {
		t.Errorf("H7965 = %+v %+v", w.Word, w.KJVWords)
	}

	for _, c := range []struct {
		path, code string
		status     int
	}{
		{"/api/v1/words/x26", "invalid_request", 400},
		{"/api/v1/words/G26x7", "invalid_request", 400},
		{"/api/v1/words/26", "invalid_request", 400},
		{"/api/v1/words/G0", "invalid_request", 400},
		{"/api/v1/words/G26?limit=0", "invalid_request", 400},
		{"/api/v1/words/G26?limit=101", "invalid_request", 400},
		{"/api/v1/words/G26?offset=-1", "invalid_request", 400},
		{"/api/v1/words/G26?offset=ten", "invalid_request", 400},
		{"/api/v1/words/G9999", "word_not_found", 404},
		{"/api/v1/words/H8675", "word_not_found", 404},
	} {
		res, body := apiDo(t, env.srv, "GET", c.path, key, "")
		wantAPIStatus(t, res, body, c.status)
		if !strings.Contains(string(body), `"code":"`+c.code+`"`) {
			t.Errorf("%s: %s, want %s", c.path, body, c.code)
		}
	}
	if res, body := apiDo(t, env.srv, "GET", "/api/v1/words/G26", "", ""); res.StatusCode != 401 {
		t.Errorf("without a key: %d %s", res.StatusCode, body)
	}
	// Cacheable like a passage.
	res, body := apiDo(t, env.srv, "GET", "/api/v1/words/G26", key, "")
	wantAPIStatus(t, res, body, 200)
	etag := res.Header.Get("ETag")
	if res, body := apiDo(t, env.srv, "GET", "/api/v1/words/G26", key, "", "If-None-Match", etag); etag == "" || res.StatusCode != 304 {
		t.Errorf("If-None-Match %q: %d %s", etag, res.StatusCode, body)
	}
}

// TestSiteWord: the website's page of a Strong's entry, linked from
// answers, with its verses linked to the reader and paged.
func TestSiteWord(t *testing.T) {
	t.Parallel()
	env := newQueueEnv(t, Config{})
	b := (&siteEnv{srv: env.srv, st: env.st}).browser(t)
	p := b.get("/words/G26")
	wantStatus(t, p, 200)
	for _, want := range []string{"ἀγάπη", "agápē", "love, i.e. affection or benevolence", `href="/words/G25"`,
		`href="/read/matthew/24#v12"`, `href="?offset=100"`} {
		if !strings.Contains(p.body, want) {
			t.Errorf("G26 page lacks %q", want)
		}
	}
	second := b.get("/words/G26?offset=100")
	wantStatus(t, second, 200)
	if !strings.Contains(second.body, `href="?offset=0"`) || strings.Contains(second.body, `href="?offset=200"`) {
		t.Errorf("G26 second page's links: %s", second.body)
	}
	if p := b.get("/words/G9999"); p.status != 404 {
		t.Errorf("unknown number page: %d", p.status)
	}
	if p := b.get("/words/nope"); p.status != 400 {
		t.Errorf("malformed number page: %d", p.status)
	}
}
