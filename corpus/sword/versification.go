package sword

import "github.com/selahdev/selah/corpus"

// kjvLayout is the KJV versification of package corpus in the shape the
// zText reader walks.
func kjvLayout() [2][]bookLayout {
	var out [2][]bookLayout
	for _, b := range corpus.Books() {
		l := bookLayout{osis: b.OSIS, verses: make([]int, b.Chapters())}
		for c := range l.verses {
			l.verses[c] = b.Verses(c + 1)
		}
		i := 0
		if b.Testament == corpus.NewTestament {
			i = 1
		}
		out[i] = append(out[i], l)
	}
	return out
}

// nrsvaToKJV lists the verses whose NRSVA number differs from the KJV's.
// Across the 66 books the two systems differ in two chapters only (compare
// the tables): the NRSVA ends 3 John with a verse 15 that the KJV keeps in
// verse 14, and ends Revelation 12 with a verse 18 ("he stood on the sand
// of the sea") that opens the KJV's 13:1.
var nrsvaToKJV = map[[3]any]corpus.VerseID{
	{"3John", 1, 15}: corpus.NewVerseID(64, 1, 14),
	{"Rev", 12, 18}:  corpus.NewVerseID(66, 13, 1),
}

// KJVVerseID maps a verse of the NRSVA versification (the WEB module's)
// onto the KJV verse that holds the same text. ok is false for verses the
// KJV canon does not have (the deuterocanon). Several NRSVA verses can map
// onto one KJV verse; Each visits them in order, so appending their texts
// keeps the wording in sequence.
func KJVVerseID(book string, chapter, verse int) (corpus.VerseID, bool) {
	if id, ok := nrsvaToKJV[[3]any{book, chapter, verse}]; ok {
		return id, true
	}
	b, ok := corpus.BookByOSIS(book)
	if !ok {
		return 0, false
	}
	id := corpus.NewVerseID(b.Number, chapter, verse)
	if !id.Valid() {
		return 0, false
	}
	return id, true
}
