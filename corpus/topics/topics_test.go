package topics

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/sword"
)

// library is where Debian's sword-dict-naves package puts Nave's Topical
// Bible; deploy/setup.sh installs it before the tests run.
const library = "/usr/share/sword"

// readHubs parses the embedded file directly, so a defect fails the test
// with the error rather than panicking in load.
func readHubs(t *testing.T) *catalog {
	t.Helper()
	b, err := files.ReadFile("hubs.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// generic are stemmed words too common in questions to a Bible service to
// name a hub alone.
var generic = map[string]bool{"god": true, "lord": true, "jesus": true, "christ": true, "bibl": true, "vers": true}

// TestHubs checks the shape of every hub: parse has already checked slugs,
// references and links; this checks the editorial rules.
func TestHubs(t *testing.T) {
	c := readHubs(t)
	if len(c.hubs) < 64 {
		t.Errorf("%d hubs, want at least 64", len(c.hubs))
	}
	for _, h := range c.hubs {
		t.Run(h.Slug, func(t *testing.T) {
			if !slugRE.MatchString(h.Slug) {
				t.Errorf("slug %q is not kebab-case", h.Slug)
			}
			if n := len(h.Verses); n < 8 || n > 15 {
				t.Errorf("%d verses, want 8 to 15", n)
			}
			for i, v := range h.Verses {
				// Canonical form, so clients can show the strings as they are.
				if got := h.refs[i].String(); got != v {
					t.Errorf("verse %q is written %q canonically", v, got)
				}
				if slices.Index(h.Verses, v) != i {
					t.Errorf("verse %q listed twice", v)
				}
			}
			for _, id := range h.ids {
				if !id.Valid() {
					t.Errorf("verse id %d is not a KJV verse", id)
				}
			}
			if n := len(h.Related); n < 2 || n > 5 {
				t.Errorf("%d related hubs, want 2 to 5", n)
			}
			for _, r := range h.Related {
				if r == h.Slug {
					t.Errorf("related to itself")
				}
				if _, ok := c.bySlug[r]; !ok {
					t.Errorf("related hub %q does not exist", r)
				}
			}
			if n := strings.Count(h.Summary, ". ") + 1; n > 3 || len(h.Summary) > 300 || !strings.HasSuffix(h.Summary, ".") {
				t.Errorf("summary is not one to three sentences: %q", h.Summary)
			}
			if len(h.Nave) == 0 || len(h.Keywords) == 0 {
				t.Error("no Nave sources or no keywords")
			}
			for _, k := range h.Keywords {
				switch w := analyze(k); {
				case len(w) == 0:
					t.Errorf("keyword %q is only stop words and can never match", k)
				case len(w) == 1 && generic[w[0]]:
					// "god's will" is [god]: it would match every question
					// that names God.
					t.Errorf("keyword %q comes down to the generic word %q", k, w[0])
				}
			}
		})
	}
}

// TestHubsAgainstNave checks the curation against the Nave module: every
// hub verse is listed under at least one of the hub's Nave sources, unless
// the hub names it as an extra with a reason; extras are really missing
// from those sources; and every source gives the hub at least one verse.
func TestHubsAgainstNave(t *testing.T) {
	nave, err := sword.OpenLexicon(library, "Nave")
	if err != nil {
		t.Fatalf("open Nave (run deploy/setup.sh): %v", err)
	}
	c := readHubs(t)
	extras := 0
	for _, h := range c.hubs {
		t.Run(h.Slug, func(t *testing.T) {
			listed := map[corpus.VerseID]bool{}
			for _, src := range h.Nave {
				ids := naveSource(t, nave, src)
				used := false
				for _, id := range ids {
					listed[id] = true
					used = used || slices.Contains(h.ids, id)
				}
				if !used {
					t.Errorf("Nave source %q gives the hub no verse", src)
				}
			}
			for i, v := range h.Verses {
				missing := slices.ContainsFunc(h.refs[i].VerseIDs(), func(id corpus.VerseID) bool { return !listed[id] })
				isExtra := slices.ContainsFunc(h.Extra, func(e Extra) bool { return e.Ref == v })
				switch {
				case missing && !isExtra:
					t.Errorf("%s is not listed under %q", v, h.Nave)
				case !missing && isExtra:
					t.Errorf("%s is listed under %q, so it is no extra", v, h.Nave)
				}
			}
			extras += len(h.Extra)
		})
	}
	// Extras are the exception: a handful of famous verses Nave files
	// elsewhere or omits.
	if extras > 6 {
		t.Errorf("%d extras; keep them rare", extras)
	}
}

// naveSource returns the verses of a hub's Nave source: a whole entry
// ("FORGIVENESS") or one section of it ("GOD / MERCY OF").
func naveSource(t *testing.T, nave *sword.Lexicon, src string) []corpus.VerseID {
	t.Helper()
	key, section, hasSection := strings.Cut(src, " / ")
	raw, err := nave.Entry(key)
	if err != nil {
		t.Fatalf("Nave source %q: %v", src, err)
	}
	if hasSection {
		var ok bool
		if raw, ok = sword.SubtopicRaw(raw, section); !ok {
			t.Fatalf("Nave entry %s has no section %q", key, section)
		}
	}
	ids, _ := sword.ScriptureRefs(raw)
	return ids
}

func TestParseInvalid(t *testing.T) {
	b, err := os.ReadFile("testdata/invalid.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name string
		Hubs json.RawMessage
		Err  string
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			_, err := parse(c.Hubs)
			if err == nil || !strings.Contains(err.Error(), c.Err) {
				t.Errorf("parse: %v, want an error containing %q", err, c.Err)
			}
		})
	}
}

func TestAllAndBySlug(t *testing.T) {
	all := All()
	if !slices.IsSortedFunc(all, func(a, b Hub) int { return strings.Compare(a.Title, b.Title) }) {
		t.Error("All is not ordered by title")
	}
	for _, h := range all {
		got, ok := BySlug(h.Slug)
		if !ok || got.Title != h.Title || !slices.Equal(got.VerseIDs(), h.VerseIDs()) {
			t.Errorf("BySlug(%q) = %v, %v", h.Slug, got.Title, ok)
		}
	}
	if _, ok := BySlug("no-such-hub"); ok {
		t.Error("BySlug found a missing hub")
	}

	h, _ := BySlug("love")
	ids := h.VerseIDs()
	// 1 Corinthians 13:4-7 comes first and expands to four verses.
	want := []corpus.VerseID{46013004, 46013005, 46013006, 46013007, 43003016}
	if !slices.Equal(ids[:5], want) {
		t.Errorf("love VerseIDs start %v, want %v", ids[:5], want)
	}
	if refs := h.References(); len(refs) != len(h.Verses) || refs[0].String() != h.Verses[0] {
		t.Errorf("References = %v", refs)
	}
	// Callers get copies: changing one does not change the catalog.
	h.Verses[0], h.Keywords[0] = "changed", "changed"
	ids[0] = 0
	again, _ := BySlug("love")
	if again.Verses[0] == "changed" || again.Keywords[0] == "changed" || again.VerseIDs()[0] == 0 {
		t.Error("a caller changed the catalog")
	}
}

// TestKeys checks the embedded key passages: the file parses, every topic
// is a title of Nave's module, and each list is a teacher's short list
// (at most eight passages of at most a chapter each).
func TestKeys(t *testing.T) {
	t.Parallel()
	keys := parseEmbedded(t, "keys.json", parseKeys)
	if len(keys) < 500 {
		t.Errorf("%d key lists, want the 800-odd theme topics written", len(keys))
	}
	nave, err := sword.OpenLexicon(library, "Nave")
	if err != nil {
		t.Fatalf("open Nave (run deploy/setup.sh): %v", err)
	}
	for title, k := range keys {
		if _, err := nave.Entry(title); err != nil {
			t.Errorf("%s is no Nave's topic: %v", title, err)
		}
		if len(k.refs) > 8 {
			t.Errorf("%s: %d passages, want at most 8", title, len(k.refs))
		}
		for _, r := range k.refs {
			if ids := r.VerseIDs(); len(ids) > 12 || ids[0].Chapter() != ids[len(ids)-1].Chapter() {
				t.Errorf("%s: %s is no short passage", title, r)
			}
		}
	}
	care, ok := KeyFor("care")
	if !ok || len(care.References()) == 0 {
		t.Fatalf("KeyFor(care) = %v, %v", care, ok)
	}
}

func TestParseKeysInvalid(t *testing.T) {
	t.Parallel()
	for name, in := range map[string]string{
		"not json":      `{`,
		"unknown field": `[{"topic":"CARE","verses":["John 3:16"],"why":"x"}]`,
		"lower case":    `[{"topic":"care","verses":["John 3:16"]}]`,
		"no verses":     `[{"topic":"CARE","verses":[]}]`,
		"bad verse":     `[{"topic":"CARE","verses":["John 99:1"]}]`,
		"twice":         `[{"topic":"CARE","verses":["John 3:16"]},{"topic":"CARE","verses":["John 3:17"]}]`,
		"verse twice":   `[{"topic":"CARE","verses":["John 3:16","Jn 3:16"]}]`,
	} {
		if _, err := parseKeys([]byte(in)); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

// TestNicknames checks the embedded nicknames: the file parses, and each
// entry is a teacher's short list (at most six passages of at most twenty
// verses of one chapter). That the KJV writes none of the names is
// checked against the text in package pipeline.
func TestNicknames(t *testing.T) {
	t.Parallel()
	ns := parseEmbedded(t, "nicknames.json", parseNicknames)
	if len(ns) < 100 {
		t.Errorf("%d nicknames, want the 200-odd written", len(ns))
	}
	for _, n := range ns {
		if len(n.refs) > 6 {
			t.Errorf("%s: %d passages, want at most 6", n.Name, len(n.refs))
		}
		for _, r := range n.refs {
			if ids := r.VerseIDs(); len(ids) > 20 || ids[0].Chapter() != ids[len(ids)-1].Chapter() {
				t.Errorf("%s: %s is no short passage", n.Name, r)
			}
		}
	}
	all := Nicknames()
	if len(all) != len(ns) || len(all[0].References()) == 0 {
		t.Fatalf("Nicknames() = %d entries, first %v", len(all), all[0])
	}
}

func TestParseNicknamesInvalid(t *testing.T) {
	t.Parallel()
	for name, in := range map[string]string{
		"not json":      `[`,
		"unknown field": `[{"name":"the Beatitudes","passages":["Matthew 5:3-12"],"why":"x"}]`,
		"no name":       `[{"name":"","passages":["Matthew 5:3-12"]}]`,
		"padded":        `[{"name":" the Beatitudes","passages":["Matthew 5:3-12"]}]`,
		"no word":       `[{"name":"666","passages":["Revelation 13:18"]}]`,
		"no passages":   `[{"name":"the Beatitudes","passages":[]}]`,
		"bad passage":   `[{"name":"the Beatitudes","passages":["Matthew 99:1"]}]`,
		"name twice":    `[{"name":"the Beatitudes","passages":["Matthew 5:3"]},{"name":"The beatitudes","passages":["Luke 6:20"]}]`,
		"alias twice":   `[{"name":"the Decalogue","aliases":["the decalogue"],"passages":["Exodus 20:1-17"]}]`,
		"passage twice": `[{"name":"the Beatitudes","passages":["Matthew 5:3-12","Matt 5:3-12"]}]`,
	} {
		if _, err := parseNicknames([]byte(in)); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

// parseEmbedded reads and parses an embedded file, failing the test on
// an error.
func parseEmbedded[T any](t *testing.T, name string, parse func([]byte) (T, error)) T {
	t.Helper()
	b, err := files.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	v, err := parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
