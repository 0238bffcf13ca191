package corpus

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
	// Renderings are the KJV's renderings of the word, the list after
	// ":--" as Strong prints it: "(be-)love(-ed)", "friend".
	Renderings []string
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
