package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/store"
)

// diathekeVerse is one verse line of diatheke's plain output: an optional
// indent (after a psalm title line), "Book C:V: " and the text.
var diathekeVerse = regexp.MustCompile(`^ *(?:I{1,3} )?[A-Z][A-Za-z ]+? \d+:\d+: (.*)$`)

// diathekeBible is the whole KJV as SWORD's own reader, diatheke, prints
// it, by verse id, with the ¶ mark (which selah keeps out of the text)
// and the stray "\nd " marker removed. diatheke prints the verses in canonical order, so the n-th
// verse line is the n-th verse of the versification.
func diathekeBible(t *testing.T) map[corpus.VerseID]string {
	t.Helper()
	out, err := exec.Command("diatheke", "-b", "engKJV2006eb", "-f", "plain", "-k", "Gen 1:1-Rev 22:21").Output()
	if err != nil {
		t.Fatalf("diatheke (run deploy/setup.sh): %v", err)
	}
	var ids []corpus.VerseID
	for _, b := range corpus.Books() {
		for ch := 1; ch <= b.Chapters(); ch++ {
			for v := 1; v <= b.Verses(ch); v++ {
				ids = append(ids, corpus.NewVerseID(b.Number, ch, v))
			}
		}
	}
	bible := make(map[corpus.VerseID]string, len(ids))
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for i := 0; sc.Scan(); {
		if m := diathekeVerse.FindStringSubmatch(sc.Text()); m != nil && i < len(ids) {
			// diatheke prints the USFM marker that opens the divine name
			// in 27 verses as text; ingest drops it (withoutUSFM).
			bible[ids[i]] = strings.Join(strings.Fields(strings.NewReplacer("¶", "", `\nd `, "").Replace(m[1])), " ")
			i++
		}
	}
	if len(bible) != corpus.VerseCount {
		t.Fatalf("diatheke printed %d verses", len(bible))
	}
	return bible
}

// TestScriptureAgainstDiatheke: /scripture returns exactly the KJV text,
// verse for verse: every chapter of the Bible through the API, plus the
// verses and ranges of testdata/scripture.txt, compared with what SWORD's
// diatheke prints. The text comes from the copy in memory, as the
// processes serve it.
func TestScriptureAgainstDiatheke(t *testing.T) {
	env := newQueueEnv(t, Config{})
	key := env.key(t, store.PlanInternal)
	if _, err := env.st.LoadPassages(context.Background()); err != nil {
		t.Fatal(err)
	}
	bible := diathekeBible(t)
	raw, err := os.ReadFile("testdata/scripture.txt")
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	for _, line := range strings.Split(string(raw), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			refs = append(refs, line)
		}
	}
	for _, b := range corpus.Books() {
		for ch := 1; ch <= b.Chapters(); ch++ {
			refs = append(refs, corpus.Reference{Book: b, StartChapter: ch, StartVerse: 1, EndChapter: ch, EndVerse: b.Verses(ch)}.String())
		}
	}
	verses := 0
	for _, ref := range refs {
		want, err := corpus.ParseReference(ref)
		if err != nil {
			t.Fatal(err)
		}
		res := send(t, env.srv, apiRequest("GET", "/api/v1/scripture?ref="+strings.ReplaceAll(ref, " ", "+"), key))
		var p api.PassageResponse
		if err := json.NewDecoder(res.Body).Decode(&p); err != nil || res.StatusCode != 200 {
			t.Fatalf("%s: %d %v", ref, res.StatusCode, err)
		}
		var texts []string
		for id := want.First(); id <= want.Last(); id++ {
			if text, ok := bible[id]; ok && want.Contains(id) {
				texts = append(texts, text)
			}
		}
		if p.Reference != want.String() || len(p.Verses) != len(texts) || p.VerseCount != len(texts) {
			t.Fatalf("%s: %s with %d verses, want %s with %d", ref, p.Reference, len(p.Verses), want, len(texts))
		}
		for i, v := range p.Verses {
			if v.Text != texts[i] {
				t.Errorf("%s:\n got %q\nwant %q", v.Reference, v.Text, texts[i])
			}
		}
		if p.Translation != "KJV" || p.Text != strings.Join(texts, " ") {
			t.Errorf("%s: joined text differs", ref)
		}
		verses += len(p.Verses)
	}
	if verses < corpus.VerseCount {
		t.Fatalf("checked %d verses, want the whole Bible", verses)
	}
}

// TestScripture checks the passage object and every refusal.
func TestScripture(t *testing.T) {
	env := newQueueEnv(t, Config{})
	key := env.key(t, store.PlanInternal)
	get := func(ref string) (*http.Response, api.PassageResponse) {
		res := send(t, env.srv, apiRequest("GET", "/api/v1/scripture?ref="+ref, key))
		var p api.PassageResponse
		if res.StatusCode == 200 {
			json.NewDecoder(res.Body).Decode(&p)
		}
		return res, p
	}
	res, p := get("ps+3:1-2")
	if res.StatusCode != 200 || p.Reference != "Psalms 3:1-2" || p.Book.Name != "Psalms" || p.Book.Chapters != 150 ||
		p.Verses[0].Title != "A Psalm of David, when he fled from Absalom his son." || strings.Contains(p.Text, "Absalom") ||
		p.Previous.Reference != "Psalms 2" || p.Next.Reference != "Psalms 4" || p.RequestID == "" {
		t.Fatalf("Psalms 3:1-2: %+v", p)
	}
	if _, p := get("Genesis+1"); p.Previous != nil || p.Next.Reference != "Genesis 2" {
		t.Fatalf("Genesis 1 links: %+v %+v", p.Previous, p.Next)
	}
	if _, p := get("Revelation+22:21"); p.Next != nil || p.Previous.Reference != "Revelation 21" {
		t.Fatalf("Revelation 22:21 links: %+v %+v", p.Previous, p.Next)
	}
	if _, p := get("Malachi+4"); p.Next.Reference != "Matthew 1" {
		t.Fatalf("Malachi 4 next: %+v", p.Next)
	}
	if res, p := get("Psalm+119"); res.StatusCode != 200 || p.VerseCount != 176 {
		t.Fatalf("the longest chapter: %d %d", res.StatusCode, p.VerseCount)
	}
	for _, c := range []struct {
		ref, code, mention string
		status             int
	}{
		{"", selah.EINVALIDREF, "required", 400},
		{"+++", selah.EINVALIDREF, "required", 400},
		{"Hezekiah+1:1", selah.EINVALIDREF, "Hezekiah", 400},
		{"John+3:16%2C18", selah.EINVALIDREF, "", 400},
		{"John+22", selah.EPASSAGENOTFOUND, "John has 21 chapters", 404},
		{"John+3:37", selah.EPASSAGENOTFOUND, "John 3 has 36 verses", 404},
		{"Jude+26", selah.EPASSAGENOTFOUND, "Jude has 25 verses", 404},
		{"Genesis+1-50", selah.EPASSAGETOOLARGE, "at most 200", 400},
		{strings.Repeat("a", 300), selah.EINVALIDREF, "", 400},
	} {
		res, _ := get(c.ref)
		e := errorOf(t, res)
		if res.StatusCode != c.status || e.Code != c.code || !strings.Contains(e.Message, c.mention) {
			t.Errorf("%q: %d %+v, want %d %s mentioning %q", c.ref, res.StatusCode, e, c.status, c.code, c.mention)
		}
	}
}

// TestTextServedFromMemory: with the text loaded, /scripture, /topics/{slug}
// and /books send no query for text or edition (the verses and modules
// tables are locked, so a query would wait past the test's timeout), and
// answer with the bodies and ETags the database gave.
func TestTextServedFromMemory(t *testing.T) {
	t.Parallel()
	env := newQueueEnv(t, Config{})
	key := env.key(t, store.PlanInternal)
	paths := []string{"/api/v1/scripture?ref=Psalms+3", "/api/v1/scripture?ref=John+3:16-18", "/api/v1/topics/anxiety", "/api/v1/books"}
	get := func(path string) (string, string) {
		t.Helper()
		res, err := env.srv.App().Test(apiRequest("GET", path, key), 20_000)
		if err != nil {
			t.Fatalf("%s: %v (waiting on the locked tables?)", path, err)
		}
		var body map[string]any
		json.NewDecoder(res.Body).Decode(&body)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d %v", path, res.StatusCode, body)
		}
		delete(body, "requestId")
		b, _ := json.Marshal(body)
		return string(b), res.Header.Get("ETag")
	}
	fromDB := map[string][2]string{}
	for _, p := range paths {
		b, tag := get(p)
		fromDB[p] = [2]string{b, tag}
	}

	ctx := context.Background()
	if _, err := env.st.LoadPassages(ctx); err != nil {
		t.Fatal(err)
	}
	tx, err := env.st.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `LOCK TABLE verses, corpus_modules IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if b, tag := get(p); b != fromDB[p][0] || tag != fromDB[p][1] {
			t.Errorf("%s from memory differs from the database's answer:\n%s %s\n%s %s", p, b, tag, fromDB[p][0], fromDB[p][1])
		}
	}
}
