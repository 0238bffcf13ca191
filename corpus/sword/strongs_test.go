package sword

import (
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
)

var (
	strongsOnce sync.Once
	strongs     *Strongs
	strongsErr  error
)

func openStrongs(t *testing.T) *Strongs {
	t.Helper()
	strongsOnce.Do(func() { strongs, strongsErr = OpenStrongs(library) })
	if strongsErr != nil {
		t.Fatalf("open Strong's (run deploy/setup.sh): %v", strongsErr)
	}
	return strongs
}

// TestStrongsGlosses checks entries against the raw text as diatheke
// prints it: the meaning before ":--" (": -" in Hebrew) without the
// etymology, and the KJV renderings after it.
func TestStrongsGlosses(t *testing.T) {
	t.Parallel()
	s := openStrongs(t)
	for _, c := range []struct {
		num, gloss string
		rend       []string
	}{
		// Greek: "perhaps from ἄγαν (much)" stands outside <def>.
		{"G25", "to love (in a social or moral sense)", []string{"(be-)love(-ed)"}},
		// Greek with <orig>from the same as G730;</orig>.
		{"G703", "properly, manliness (valor), i.e. excellence (intrinsic or attributed)", []string{"praise", "virtue"}},
		{"G3", "a destroying angel", []string{"Abaddon"}},
		// Hebrew: "A primitive root;" dropped; the module's braces are
		// Strong's commas.
		{"H157", "to have affection for (sexually or otherwise)", []string{"(be-) love (-d, -ly, -r,) like", "friend"}},
		{"H7225", "the first, in place, time, order or rank (specifically a firstfruit)",
			[]string{"beginning", "chief (-est,) first (-fruits, part, time,) principal thing"}},
		{"H3068", "(the) self Existent or eternal; Jehovah, Jewish national name of God", []string{"Jehovah", "the Lord"}},
		// Only a cross-reference: no meaning of its own.
		{"H703", "", []string{"four"}},
	} {
		for _, key := range []string{c.num, "strong:" + c.num[:1] + fmt.Sprintf("%04s", c.num[1:]), strings.ToLower(c.num)} {
			e, err := s.Lookup(key)
			if err != nil {
				t.Errorf("Lookup(%q): %v", key, err)
				continue
			}
			if e.Number != c.num || e.Gloss != c.gloss || !slices.Equal(e.Renderings, c.rend) {
				t.Errorf("Lookup(%q) = %q %q %q\nwant %q %q %q", key, e.Number, e.Gloss, e.Renderings, c.num, c.gloss, c.rend)
			}
		}
	}
	for _, bad := range []string{"G0", "G99999", "X25", "G", "", "G25x7", "lemma.TR:G25"} {
		if _, err := s.Lookup(bad); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Lookup(%q) = %v, want not found", bad, err)
		}
	}
	// Every number of both dictionaries: 8,674 Hebrew, 5,624 Greek.
	if s.Len() != 8674+5624 {
		t.Errorf("%d entries, want %d", s.Len(), 8674+5624)
	}
	glossed := 0
	s.Each(func(e StrongsEntry) error {
		if e.Gloss != "" {
			glossed++
		}
		return nil
	})
	// Most entries have a meaning; the rest are cross-references (Chaldee
	// forms "corresponding to" a Hebrew word) with renderings only.
	if glossed < 12000 {
		t.Errorf("%d entries have a gloss, want most of %d", glossed, s.Len())
	}
}

// TestStrongsDefinitions checks the definition readers see beside the
// gloss the word vectors were trained on: the numbers the meaning cites
// kept, the Greek module's etymology past <orig> dropped, the Hebrew
// module's "6" for a comma mended, and every number the entry cites.
func TestStrongsDefinitions(t *testing.T) {
	t.Parallel()
	s := openStrongs(t)
	for _, c := range []struct {
		num, gloss, def string
		related         []string
	}{
		// "<orig>from G1 (as negative particle);</orig> and G1160; costless".
		{"G77", "and ; costless, i.e. gratuitous", "costless, i.e. gratuitous", []string{"G1", "G1160"}},
		{"G80", "a brother (literally or figuratively) near or remote (much like )",
			"a brother (literally or figuratively) near or remote (much like G1)", []string{"G1"}},
		// The module's <orig> is cut short: "compare G34) (to bring tidings);".
		{"G32", `compare ) (to bring tidings); a messenger; especially an "angel"; by implication, a pastor`,
			`a messenger; especially an "angel"; by implication, a pastor`, []string{"G34"}},
		{"G26", "love, i.e. affection or benevolence; specially (plural) a love-feast",
			"love, i.e. affection or benevolence; specially (plural) a love-feast", []string{"G25"}},
		{"H7965", "safe, that is, (figuratively) well, happy 6 friendly; also (abstractly) welfare, that is, health, prosperity, peace",
			"safe, that is, (figuratively) well, happy, friendly; also (abstractly) welfare, that is, health, prosperity, peace", []string{"H7999"}},
		// A cross-reference only: no meaning, the number it points to.
		{"H703", "", "", []string{"H702"}},
		{"H157", "to have affection for (sexually or otherwise)", "to have affection for (sexually or otherwise)", nil},
	} {
		e, err := s.Lookup(c.num)
		if err != nil {
			t.Fatal(err)
		}
		if e.Gloss != c.gloss || e.Definition != c.def || !slices.Equal(e.Related, c.related) {
			t.Errorf("%s = gloss %q, definition %q, related %q\nwant %q, %q, %q", c.num, e.Gloss, e.Definition, e.Related, c.gloss, c.def, c.related)
		}
	}
	// Dropping etymology never leaves a meaning empty.
	s.Each(func(e StrongsEntry) error {
		if e.Gloss != "" && e.Definition == "" {
			t.Errorf("%s: gloss %q, no definition", e.Number, e.Gloss)
		}
		return nil
	})
}

// TestStrongsHeadwords checks the word, transliteration and pronunciation
// of entries: the Hebrew module's script and letters mended from UTF-8
// read as Windows-1252 ("shÃ¢lÃ´m"), a form Strong prints twice given
// once, a word of two kept whole.
func TestStrongsHeadwords(t *testing.T) {
	t.Parallel()
	s := openStrongs(t)
	for _, c := range []struct{ num, lemma, translit, pron string }{
		{"G26", "ἀγάπη", "agápē", "ag-ah'-pay"},
		// Not the "ágan" of its etymology.
		{"G25", "ἀγαπάω", "agapáō", "ag-ap-ah'-o"},
		{"G3134", "μαρὰν ἀθά", "maràn athá", "mar'-an ath'-ah"},
		{"H7965", "שׁלם", "shâlôm", "shaw-lome'"},
		{"H85", "אברהם", "'abrâhâm", "ab-raw-hawm'"},
	} {
		e, err := s.Lookup(c.num)
		if err != nil {
			t.Fatal(err)
		}
		if e.Lemma != c.lemma || e.Transliteration != c.translit || e.Pronunciation != c.pron {
			t.Errorf("%s = %q %q %q, want %q %q %q", c.num, e.Lemma, e.Transliteration, e.Pronunciation, c.lemma, c.translit, c.pron)
		}
	}
	translit := 0
	s.Each(func(e StrongsEntry) error {
		if e.Transliteration != "" {
			translit++
		}
		if e.Lemma != "" && e.Number[0] == 'H' && !readableHebrew(e.Lemma) {
			t.Errorf("%s: lemma %q is not Hebrew letters", e.Number, e.Lemma)
		}
		return nil
	})
	if translit < s.Len()-150 {
		t.Errorf("%d of %d entries have a transliteration", translit, s.Len())
	}
}

// TestStrongsAgainstDiatheke: each gloss and rendering is text of the
// entry as SWORD's own tool prints it.
func TestStrongsAgainstDiatheke(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("diatheke"); err != nil {
		t.Fatalf("diatheke is not installed (run deploy/setup.sh): %v", err)
	}
	s := openStrongs(t)
	for _, num := range []string{"G25", "G26", "G4102", "G5485", "H2617", "H539"} {
		mod := map[byte]string{'G': StrongsGreekModule, 'H': StrongsHebrewModule}[num[0]]
		out, err := exec.Command("diatheke", "-b", mod, "-k", num[1:]).Output()
		if err != nil {
			t.Fatalf("diatheke %s: %v", num, err)
		}
		// diatheke prints the raw TEI (in the locale's encoding for
		// Hebrew); compare on the ASCII words of the English text.
		raw := ParseStrongs(string(out), num[0] == 'H')
		e, err := s.Lookup(num)
		if err != nil {
			t.Fatal(err)
		}
		if e.Gloss == "" || e.Gloss != raw.Gloss || !slices.Equal(e.Renderings, raw.Renderings) {
			t.Errorf("%s: module %q %q, diatheke %q %q", num, e.Gloss, e.Renderings, raw.Gloss, raw.Renderings)
		}
	}
}

// verseRaw returns the raw entry of one verse of a module.
func verseRaw(t *testing.T, module, book string, ch, v int) string {
	t.Helper()
	m, err := Open(library, module)
	if err != nil {
		t.Fatal(err)
	}
	var raw string
	stop := errors.New("found")
	err = m.Each(func(b string, c, vv int, r string) error {
		if b == book && c == ch && vv == v {
			raw = r
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("%s %s %d:%d not found: %v", module, book, ch, v, err)
	}
	return raw
}

// TestWordsJohn316 reads the Strong's tags of John 3:16 in both modules
// and aligns them: the KJV's archaic words meet the WEB's modern ones
// through the Greek they both translate.
func TestWordsJohn316(t *testing.T) {
	t.Parallel()
	kjv := Words(verseRaw(t, "engKJV2006eb", "John", 3, 16))
	web := Words(verseRaw(t, "engWEB2015eb", "John", 3, 16))
	if len(kjv) != 22 || kjv[0].Text != "For" || !slices.Equal(kjv[0].Strongs, []string{"G1063"}) {
		t.Fatalf("KJV words: %+v", kjv)
	}
	if kjv[3].Text != "loved" || !slices.Equal(kjv[3].Strongs, []string{"G25"}) || kjv[4].Text != "the world" {
		t.Errorf("KJV words 3-4: %+v", kjv[3:5])
	}
	// The WEB's note on "only born" is not a word.
	for _, w := range web {
		if strings.Contains(w.Text, "Greek") || strings.Contains(w.Text, "μονογενη") {
			t.Errorf("WEB word from a note: %+v", w)
		}
	}
	got := map[string]Aligned{}
	for _, a := range Align(kjv, web) {
		if _, seen := got[a.Strongs]; !seen {
			got[a.Strongs] = a
		}
	}
	for num, want := range map[string][2]string{
		"G25": {"loved", "loved"}, "G4100": {"believeth", "believes"}, "G166": {"everlasting", "eternal"},
		"G2222": {"life", "life"}, "G622": {"should", "perish"},
	} {
		if a := got[num]; a.KJV != want[0] || a.WEB != want[1] {
			t.Errorf("%s aligned %q-%q, want %q-%q", num, a.KJV, a.WEB, want[0], want[1])
		}
	}
}

// TestWordsSkipsTitles: a psalm title's tagged words are not verse words.
func TestWordsSkipsTitles(t *testing.T) {
	t.Parallel()
	words := Words(verseRaw(t, "engKJV2006eb", "Ps", 23, 1))
	var texts []string
	for _, w := range words {
		texts = append(texts, w.Text)
	}
	if !slices.Equal(texts, []string{"LORD", "shepherd", "want"}) {
		t.Errorf("Ps 23:1 words %q, want LORD shepherd want", texts)
	}
	if got := Words(`<w lemma="strong:G25">lo<note>x</note>ved</w> <w>untagged</w> <w lemma="strong:G0026"/>`); len(got) != 1 || got[0].Text != "loved" {
		t.Errorf("Words(synthetic) = %+v", got)
	}
}
