package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
)

// TestLexicon pins what ingest loads from Debian's Strong's dictionaries
// and the KJV's Strong's tags, read back as the answerer loads it.
func TestLexicon(t *testing.T) {
	t.Parallel()
	st := storetest.NewCorpusStore(t)
	lemmas, words, err := st.Lexicon(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// Every entry of both dictionaries: 8,674 Hebrew, 5,624 Greek.
	if len(lemmas) != 8674+5624 {
		t.Errorf("%d lemmas, want %d", len(lemmas), 8674+5624)
	}
	byNum := map[string]corpus.Lemma{}
	for _, l := range lemmas {
		byNum[l.Number] = l
	}
	for _, want := range []corpus.Lemma{
		{Number: "G26", Lemma: "ἀγάπη", Transliteration: "agápē", Pronunciation: "ag-ah'-pay",
			Gloss: "love, i.e. affection or benevolence; specially (plural) a love-feast", Renderings: []string{"(feast of) charity(-ably)", "dear", "love"}},
		// The Hebrew module's script, mended from its double encoding.
		{Number: "H85", Lemma: "אברהם", Transliteration: "'abrâhâm", Pronunciation: "ab-raw-hawm'",
			Gloss: "father of a multitude; Abraham, the later name of Abram", Renderings: []string{"Abraham"}},
	} {
		got := byNum[want.Number]
		if got.Lemma != want.Lemma || got.Transliteration != want.Transliteration || got.Pronunciation != want.Pronunciation ||
			got.Gloss != want.Gloss || !slices.Equal(got.Renderings, want.Renderings) {
			t.Errorf("%s = %+v\nwant %+v", want.Number, got, want)
		}
	}
	// The definition as readers see it and the numbers the entry cites.
	if g77 := byNum["G77"]; g77.Definition != "costless, i.e. gratuitous" || !slices.Equal(g77.Related, []string{"G1", "G1160"}) ||
		g77.Meaning() != g77.Definition {
		t.Errorf("G77 = %+v", g77)
	}
	// The KJV module's tags (a word tagged with two numbers counts twice).
	if len(words) != 348884 {
		t.Errorf("%d tagged words, want 348884", len(words))
	}
	gen175 := corpus.NewVerseID(1, 17, 5)
	var abraham []corpus.TaggedWord
	for i, w := range words {
		if i > 0 && w.Verse < words[i-1].Verse {
			t.Fatalf("words out of verse order at %d: %v after %v", i, w.Verse, words[i-1].Verse)
		}
		if w.Verse == gen175 && w.Number == "H85" {
			abraham = append(abraham, w)
		}
	}
	if len(abraham) != 1 || abraham[0].Text != "Abraham" {
		t.Errorf("Genesis 17:5's H85 = %+v, want one word, Abraham", abraham)
	}
}

// TestLemmaLookup reads one Strong's entry and where the KJV translates
// it, as GET /words/{number} does.
func TestLemmaLookup(t *testing.T) {
	t.Parallel()
	st := storetest.NewCorpusStore(t)
	ctx := context.Background()
	l, err := st.Lemma(ctx, "H7965")
	if err != nil || l.Transliteration != "shâlôm" || !slices.Equal(l.Related, []string{"H7999"}) {
		t.Fatalf("H7965 = %+v, %v", l, err)
	}
	if _, err := st.Lemma(ctx, "H9999"); !errors.Is(err, selah.ErrNotFound) {
		t.Errorf("H9999: %v, want not found", err)
	}
	u, err := st.LemmaUses(ctx, "H7965", 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	if u.Uses < u.VerseCount || u.VerseCount < 150 || len(u.Verses) != 3 || u.Verses[0] != corpus.NewVerseID(1, 15, 15) ||
		u.Renderings[0] != (store.Rendering{Word: "peace", Count: u.Renderings[0].Count}) {
		t.Fatalf("H7965 uses = %+v", u)
	}
	rest, err := st.LemmaUses(ctx, "H7965", 100, u.VerseCount-1)
	if err != nil || len(rest.Verses) != 1 || rest.Verses[0] <= u.Verses[2] {
		t.Errorf("the last page = %+v, %v", rest.Verses, err)
	}
	// A number the KJV never tags: an entry with no uses.
	none, err := st.LemmaUses(ctx, "G9999", 10, 0)
	if err != nil || none.Uses != 0 || len(none.Verses) != 0 || len(none.Renderings) != 0 {
		t.Errorf("untagged = %+v, %v", none, err)
	}
}
