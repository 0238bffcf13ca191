package wordnet

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// dir is where Debian's wordnet-base puts WordNet 3.0; deploy/setup.sh
// installs it.
const dir = "/usr/share/wordnet"

var (
	openOnce sync.Once
	shared   *WordNet
	openErr  error
)

// open reads the real database once for all tests (about a second).
func open(t *testing.T) *WordNet {
	t.Helper()
	openOnce.Do(func() { shared, openErr = Open(dir) })
	if openErr != nil {
		t.Fatalf("open WordNet (run deploy/setup.sh): %v", openErr)
	}
	return shared
}

// TestGrief checks a lookup against the files as printed by `wn grief
// -over` and the data lines themselves: two noun senses, most frequent
// first, with their synonyms, hypernym and gloss.
func TestGrief(t *testing.T) {
	t.Parallel()
	w := open(t)
	ls := w.Lookup("grief")
	if len(ls) != 1 || ls[0].POS != Noun || ls[0].Lemma != "grief" || len(ls[0].Senses) != 2 {
		t.Fatalf("Lookup(grief) = %+v", ls)
	}
	s1, s2 := ls[0].Senses[0], ls[0].Senses[1]
	if s1.Offset != 7535010 || s2.Offset != 5833683 {
		t.Errorf("sense order %08d %08d, want 07535010 05833683 (index.noun)", s1.Offset, s2.Offset)
	}
	if want := []string{"heartache", "heartbreak", "brokenheartedness"}; !slices.Equal(s1.Synonyms, want) {
		t.Errorf("sense 1 synonyms %q, want %q", s1.Synonyms, want)
	}
	if !slices.Equal(s1.Hypernyms, []string{"sorrow"}) {
		t.Errorf("sense 1 hypernyms %q, want [sorrow]", s1.Hypernyms)
	}
	if s1.Gloss != "intense sorrow caused by loss of a loved one (especially by death)" {
		t.Errorf("sense 1 gloss %q", s1.Gloss)
	}
	// The derivation pointer of sense 1 belongs to brokenheartedness, not
	// to grief: a lexical pointer counts only for its own word.
	if len(s1.Derived) != 0 {
		t.Errorf("grief sense 1 derived %q, want none", s1.Derived)
	}
	if !slices.Equal(s2.Synonyms, []string{"sorrow"}) || !strings.HasPrefix(s2.Gloss, "something that causes great unhappiness") {
		t.Errorf("sense 2 = %q %q", s2.Synonyms, s2.Gloss)
	}
	if got := w.Senses("grief", 1); len(got) != 1 || got[0].Offset != 7535010 {
		t.Errorf("Senses(grief, 1) = %d senses", len(got))
	}
}

// TestDerivedAndVerbs: sorrow (noun, sense 1) derives the verb "sorrow"
// by its own lexical pointer; "grieving" reaches the verb grieve by the
// detachment rule ing -> "".
func TestDerivedAndVerbs(t *testing.T) {
	t.Parallel()
	w := open(t)
	s := w.Senses("sorrow", 1)
	if len(s) < 2 || s[0].POS != Noun || s[1].POS != Verb {
		t.Fatalf("Senses(sorrow, 1) = %+v", s)
	}
	if !slices.Equal(s[0].Derived, []string{"sorrow"}) {
		t.Errorf("sorrow (n) derived %q, want [sorrow] (the verb)", s[0].Derived)
	}
	if !slices.Contains(s[1].Synonyms, "grieve") {
		t.Errorf("sorrow (v) synonyms %q, want grieve", s[1].Synonyms)
	}
	if got := w.BaseForms("grieving"); !slices.Contains(got, "grieve") {
		t.Errorf("BaseForms(grieving) = %q", got)
	}
}

// TestSimilar: an adjective satellite carries its head's words
// ("unforgivable" narrows "unpardonable"); a head does not carry its
// satellites.
func TestSimilar(t *testing.T) {
	t.Parallel()
	w := open(t)
	s := w.Senses("unforgivable", 1)
	if len(s) != 1 || !s[0].Satellite || !slices.Contains(s[0].Similar, "unpardonable") {
		t.Fatalf("Senses(unforgivable, 1) = %+v, want a satellite similar to unpardonable", s)
	}
	h := w.Senses("unpardonable", 1)
	if len(h) != 1 || h[0].Satellite || len(h[0].Similar) > 0 {
		t.Errorf("Senses(unpardonable, 1) = %+v, want a head with no Similar", h)
	}
}

// TestVerbFrames: a verb sense carries its sentence frames, the
// synset's and those for its own word: "assign" (sense 1) takes an
// object, "return" (sense 1, "go or come back") stands alone.
func TestVerbFrames(t *testing.T) {
	t.Parallel()
	w := open(t)
	frames := func(lemma string) []int {
		for _, l := range w.Lookup(lemma) {
			if l.POS == Verb && len(l.Senses) > 0 {
				return l.Senses[0].Frames
			}
		}
		t.Fatalf("no verb %q", lemma)
		return nil
	}
	if f := frames("assign"); !slices.Contains(f, 15) || slices.Contains(f, 2) {
		t.Errorf("assign frames %v, want 15 (Somebody ----s something to somebody) and not 2", f)
	}
	if f := frames("return"); !slices.Contains(f, 2) {
		t.Errorf("return frames %v, want 2 (Somebody ----s)", f)
	}
	for _, l := range w.Lookup("sorrow") {
		for _, se := range l.Senses {
			if l.POS != Verb && len(se.Frames) > 0 {
				t.Errorf("sorrow (%v) has frames %v: only verbs do", l.POS, se.Frames)
			}
		}
	}
}

// TestExceptions: irregular forms come from the *.exc lists.
func TestExceptions(t *testing.T) {
	t.Parallel()
	w := open(t)
	for word, want := range map[string]string{
		"children": "child", "geese": "goose", "went": "go", "better": "good", "loved": "love",
		"Children": "child", "hearts": "heart", "churches": "church", "women": "woman",
	} {
		if got := w.BaseForms(word); !slices.Contains(got, want) {
			t.Errorf("BaseForms(%q) = %q, want %q among them", word, got, want)
		}
	}
	if got := w.Lookup("xqzzy"); got != nil {
		t.Errorf("Lookup(unknown) = %+v", got)
	}
	if got := w.Lookup("  "); got != nil {
		t.Errorf("Lookup(blank) = %+v", got)
	}
	// A collocation's words are read one by one, as morphy does.
	for word, want := range map[string]string{
		"passed away": "pass away", "laid off": "lay off", "burned out": "burn out",
		"blowing up": "blow up",
	} {
		if got := w.BaseForms(word); !slices.Contains(got, want) {
			t.Errorf("BaseForms(%q) = %q, want %q among them", word, got, want)
		}
	}
	// Collocations are matched with spaces for underscores.
	if got := w.Lookup("holy spirit"); len(got) == 0 || got[0].Lemma != "holy spirit" {
		t.Errorf("Lookup(holy spirit) = %+v", got)
	}
}

// TestCounts: every synset of WordNet 3.0 is read (117,659 by the
// database's own statistics: 82,115 nouns, 13,767 verbs, 18,156
// adjectives, 3,621 adverbs).
func TestCounts(t *testing.T) {
	t.Parallel()
	w := open(t)
	if w.Len() != 117659 {
		t.Errorf("%d synsets, want 117659", w.Len())
	}
	n, glosses := 0, 0
	err := w.EachSynset(func(s *Synset) error {
		n++
		if s.Gloss != "" {
			glosses++
		}
		if len(s.Words) == 0 {
			t.Errorf("%s %08d has no words", s.POS, s.Offset)
		}
		return nil
	})
	if err != nil || n != 117659 || glosses != n {
		t.Errorf("EachSynset: %d synsets, %d glosses, %v", n, glosses, err)
	}
}

// TestDamaged: a missing or damaged file is an error, not a panic or a
// silent gap.
func TestDamaged(t *testing.T) {
	t.Parallel()
	if _, err := Open(t.TempDir()); err == nil {
		t.Error("Open(empty dir) succeeded")
	}
	tmp := t.TempDir()
	for _, f := range []string{"index.noun", "index.verb", "index.adj", "index.adv", "data.noun",
		"data.verb", "data.adj", "data.adv", "noun.exc", "verb.exc", "adj.exc", "adv.exc"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "index.verb" {
			// Point one lemma at a synset that does not exist.
			b = []byte(strings.Replace(string(b), "01797365", "01797366", 1))
		}
		if err := os.WriteFile(filepath.Join(tmp, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Open(tmp); err == nil || !strings.Contains(err.Error(), "missing synset") {
		t.Errorf("Open(damaged index) = %v", err)
	}
}

// TestPhysical: WordNet's top split of the nouns, read through the
// hypernyms: a ferret, a pipe and the stocks of punishment are things;
// anger, debt and forgiveness are abstractions.
func TestPhysical(t *testing.T) {
	t.Parallel()
	w := open(t)
	first := func(word string) *Synset {
		for _, l := range w.Lookup(word) {
			if l.POS == Noun && len(l.Senses) > 0 {
				return l.Senses[0].Synset
			}
		}
		t.Fatalf("no noun sense of %q", word)
		return nil
	}
	for _, word := range []string{"ferret", "pipe", "lamp", "mouse", "oil", "person"} {
		if !w.Physical(first(word)) {
			t.Errorf("%s (sense 1) not physical", word)
		}
	}
	for _, word := range []string{"anger", "debt", "forgiveness", "hope", "gossip", "procrastination"} {
		if w.Physical(first(word)) {
			t.Errorf("%s (sense 1) physical", word)
		}
	}
	// "stocks" is first the capital of a corporation (an abstraction); the
	// frame of punishment is a later sense, and a thing.
	var frame *Synset
	for _, s := range w.Senses("stocks", 0) {
		if strings.Contains(s.Gloss, "punishment") {
			frame = s.Synset
		}
	}
	if frame == nil || !w.Physical(frame) || w.Physical(first("stock")) {
		t.Errorf("stocks: frame %v physical, stock (sense 1) abstract wanted", frame)
	}
	if w.Physical(nil) {
		t.Error("Physical(nil)")
	}
}

// TestLeads: WordNet's troponyms and causes of a verb sense lead to it —
// "stoned" (kill by throwing stones at), "slew" (slay, a kind of kill,
// which causes die) — and a noun derived from one does ("death",
// "burial"); a sense past the first few does not ("went": go is die only
// in a late sense).
func TestLeads(t *testing.T) {
	t.Parallel()
	w := open(t)
	for _, tt := range []struct {
		word, root string
		sense      int
		want       bool
	}{
		{"died", "die", 1, true},
		{"slew", "die", 1, true},
		{"stoned", "die", 1, true},
		{"hanged", "die", 1, true},
		{"death", "die", 1, true},
		{"slain", "kill", 1, true},
		{"burial", "bury", 2, true},
		{"buried", "bury", 2, true},
		{"went", "die", 1, false},
		{"slept", "die", 1, false},
		{"buried", "die", 1, false},
		{"died", "nosuchverb", 1, false},
	} {
		if got := w.Leads(tt.word, tt.root, tt.sense, 3); got != tt.want {
			t.Errorf("Leads(%q, %q, %d, 3) = %v, want %v", tt.word, tt.root, tt.sense, got, tt.want)
		}
	}
}

func TestKindOf(t *testing.T) {
	t.Parallel()
	w := open(t)
	for _, tt := range []struct {
		word, kind string
		want       bool
	}{
		{"hour", "hour", true},
		{"hours", "hour", true},
		{"midnight", "hour", true},
		{"nisan", "month", true},
		{"years", "year", true},
		{"day", "hour", false},
		{"month", "year", false},
		{"morning", "nosuchnoun", false},
	} {
		if got := w.KindOf(tt.word, tt.kind, 3); got != tt.want {
			t.Errorf("KindOf(%q, %q, 3) = %v, want %v", tt.word, tt.kind, got, tt.want)
		}
	}
}
