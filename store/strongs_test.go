package store_test

import (
	"context"
	"slices"
	"testing"

	"github.com/selahdev/selah/corpus"
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
