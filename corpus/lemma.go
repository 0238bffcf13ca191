package corpus

import (
	"regexp"
	"strings"
)

// Lemma is one word of Strong's Hebrew or Greek dictionary (Debian's
// sword-dict-strongs-*): the original word the KJV's Strong's tags point
// to, what it means and how the KJV renders it.
type Lemma struct {
	// Number is the Strong's number without leading zeros: "G25", "H157".
	Number string
	// Lemma is the word in its own script ("ἀγάπη"); empty where the
	// module's Hebrew script is unreadable.
	Lemma string
	// Transliteration is the word in Latin letters as Strong writes it
	// ("agápē", "shâlôm").
	Transliteration string
	// Pronunciation is Strong's pronunciation key ("ag-ah'-pay").
	Pronunciation string
	// Gloss is the meaning Strong gives (the <def> text before the list
	// of KJV renderings), without the etymology: "to love (in a social or
	// moral sense)". Empty for the few entries that only cross-refer
	// ("(Chaldee); corresponding to H702").
	Gloss string
	// Definition is the meaning as readers see it (the API, the answers):
	// the gloss with the numbers of the entries it cites kept ("a brother
	// ... (much like G1)", where the gloss has "(much like )") and the
	// Greek module's etymology that runs on past its markup dropped. Gloss
	// stays as it was because the trained word vectors were made from it.
	Definition string
	// Related are the Strong's numbers the entry cites, in order: the
	// words it comes from, is compared with or is the same as ("G1",
	// "G1160" for G77).
	Related []string
	// Renderings are the KJV's renderings of the word, the list after
	// ":--" as Strong prints it: "(be-)love(-ed)", "friend".
	Renderings []string
}

// Meaning is the definition, or the gloss for a lemma read without one
// (written before the definition existed, or built by hand in a test).
func (l Lemma) Meaning() string {
	if l.Definition != "" {
		return l.Definition
	}
	return l.Gloss
}

// Greek reports whether the lemma is of Strong's Greek dictionary (the
// New Testament's words); else it is Hebrew or Aramaic (the Old's).
func (l Lemma) Greek() bool { return len(l.Number) > 0 && l.Number[0] == 'G' }

// TaggedWord is one word (or phrase) of a KJV verse with the Strong's
// number its tag gives: Genesis 17:5's "Abraham", H85. A word the module
// tags with two numbers is two TaggedWords of the same Ord.
type TaggedWord struct {
	Verse VerseID
	// Ord is the word's place among the verse's tagged words, from 0.
	Ord    int
	Number string
	// Text is the KJV's wording of it ("puffed up", "lovest thou").
	Text string
}

// strongsNumber is a Strong's number as people type it: "G26", "g26",
// "G0026", "H1254a" (a suffix letter some taggings add).
var strongsNumber = regexp.MustCompile(`^([GgHh])0*([1-9][0-9]{0,4})[a-z]?$`)

// StrongsNumber reads a Strong's number typed by a person (an API path, a
// web address) into the form Lemma.Number has: "g0026" is "G26". ok is
// false for anything else, surrounding spaces included.
func StrongsNumber(s string) (string, bool) {
	m := strongsNumber.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	return strings.ToUpper(m[1]) + m[2], true
}
