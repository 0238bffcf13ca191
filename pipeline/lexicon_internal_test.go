package pipeline

import (
	"slices"
	"testing"
)

// TestWordQuestion: the forms a word-meaning question takes, and questions
// that only look like one.
func TestWordQuestion(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		question string
		want     wordAsk
		ok       bool
	}{
		{"What does agape mean?", wordAsk{word: "agape", typed: "agape"}, true},
		{"what does the Greek word logos mean", wordAsk{word: "logos", typed: "logos", lang: 'G'}, true},
		{"What does the name Abraham mean in the Bible?", wordAsk{word: "abraham", typed: "abraham"}, true},
		{"What does 'charity' mean in the King James Version?", wordAsk{word: "charity", typed: "charity"}, true},
		{"What does “conversation” mean in the KJV?", wordAsk{word: "conversation", typed: "conversation"}, true},
		{"What is the meaning of the Hebrew word chesed?", wordAsk{word: "chesed", typed: "chesed", lang: 'H'}, true},
		{"Meaning of selah", wordAsk{word: "selah", typed: "selah"}, true},
		{"selah meaning", wordAsk{word: "selah", typed: "selah"}, true},
		{"Define mammon", wordAsk{word: "mammon", typed: "mammon"}, true},
		// Two words are a hyphenated name, looked up joined.
		{"What does Jehovah jireh mean?", wordAsk{word: "jehovahjireh", typed: "jehovah jireh"}, true},
		{"What is the Greek word for love?", wordAsk{word: "love", typed: "love", lang: 'G', english: true}, true},
		{"which hebrew word is translated mercy", wordAsk{word: "mercy", typed: "mercy", lang: 'H', english: true}, true},
		{"What's the Aramaic word for father?", wordAsk{word: "father", typed: "father", lang: 'H', english: true}, true},
		// Not a word's meaning.
		{"What does it mean to be born again?", wordAsk{}, false},
		{"What does John 3:16 mean?", wordAsk{}, false},
		{"What does the Bible say about love?", wordAsk{}, false},
		{"what does the parable of the talents mean", wordAsk{}, false},
		{"What does love mean in a marriage?", wordAsk{}, false},
		{"good samaritan meaning", wordAsk{word: "goodsamaritan", typed: "good samaritan"}, true},
		{"What does this mean?", wordAsk{}, false},
	} {
		got, ok := wordQuestion(c.question)
		if ok != c.ok || got != c.want {
			t.Errorf("wordQuestion(%q) = %+v, %v; want %+v, %v", c.question, got, ok, c.want, c.ok)
		}
	}
}

// TestFoldTransliteration: Strong's transliterations as readers type them.
func TestFoldTransliteration(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"agápē", []string{"agape"}},
		{"'abrâhâm", []string{"abraham"}},
		{"maràn athá", []string{"maranatha"}},
		// A long vowel's Hebrew letter, kept and dropped.
		{"'ĕlôhîym", []string{"elohiym", "elohim"}},
		{"rûwach", []string{"ruwach", "ruach"}},
		{"", nil},
	} {
		if got := foldTransliteration(c.in); !slices.Equal(got, c.want) {
			t.Errorf("foldTransliteration(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestLexGloss: a gloss tidied into one sentence.
func TestLexGloss(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"a (piece of) rock (larger than ); as a name, Petrus, an apostle": "a (piece of) rock; as a name, Petrus, an apostle",
		"suspension (of music,) that is, pause":                           "suspension (of music) that is, pause",
		"well, happy 6 friendly; also (abstractly) welfare":               "well, happy, friendly; also (abstractly) welfare",
		"Jehovah will see (to it); a symbolical name for Mt. Moriah":      "Jehovah will see (to it); a symbolical name for Mt.\u00a0Moriah",
		// A definition (read at ingest) keeps the numbers it cites.
		"a brother (literally or figuratively) near or remote (much like G1)": "a brother (literally or figuratively) near or remote (much like Strong's G1)",
	} {
		if got := lexGloss(in); got != want {
			t.Errorf("lexGloss(%q) = %q, want %q", in, got, want)
		}
	}
}
