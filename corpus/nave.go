package corpus

import "strings"

// NaveTopic is one topic of Nave's Topical Bible: a person, place, event or
// theme ("MELCHIZEDEK", "OLIVES, MOUNT OF", "CARE") with the sub-entries
// Nave lists under it.
type NaveTopic struct {
	// Title is the topic's key as Nave writes it: upper case, inverted
	// forms ("PILATE, PONTIUS"), alternative names in parentheses ("DUMB
	// (DEAFNESS, MUTE)").
	Title string
	// Entries are the topic's sub-entries in document order; an entry's
	// parent always comes before it.
	Entries []NaveEntry
}

// NaveEntry is one sub-entry of a topic: a descriptive phrase and the
// verses Nave lists for it ("King of Salem" Gen 14:18-20; Ps 110:4), and
// the topics it points to ("See CARE").
type NaveEntry struct {
	// Parent is the index in the topic's Entries of the entry this one is
	// listed under (a numbered sense, a section heading like "HISTORY OF",
	// or a grouping line like "Instances of"), -1 for none.
	Parent int
	// Phrase is the entry's own words, references taken out: "King of
	// Salem", "Holy Spirit given to the apostles on the first day of".
	// It may be empty when Nave lists verses under the topic directly.
	Phrase string
	// Verses are the passages in the order Nave lists them.
	Verses []VerseSpan
	// See are the titles of the topics the entry refers to, as Nave writes
	// them ("CARE"); a title Nave has no topic for stays here unresolved.
	See []string
}

// VerseSpan is a run of verses of one book, First not after Last.
type VerseSpan struct {
	First, Last VerseID
}

// Sense returns entry i's full phrase: the phrases of its parents and its
// own, outermost first, joined by " — " ("HISTORY OF — Birth of (at
// Bethlehem)"), so an entry listed under a heading reads whole.
func (t NaveTopic) Sense(i int) string {
	var parts []string
	for seen := 0; i >= 0 && i < len(t.Entries) && seen <= len(t.Entries); seen++ {
		if p := t.Entries[i].Phrase; p != "" {
			parts = append(parts, p)
		}
		i = t.Entries[i].Parent
	}
	for l, r := 0, len(parts)-1; l < r; l, r = l+1, r-1 {
		parts[l], parts[r] = parts[r], parts[l]
	}
	return strings.Join(parts, " — ")
}
