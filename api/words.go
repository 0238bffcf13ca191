package api

import (
	"encoding/json"
	"strings"

	"github.com/selahdev/selah/corpus"
)

// WordEntry is one word of Strong's Hebrew or Greek dictionary, as
// Strong's gives it, with how often the KJV's Strong's tags translate it:
// what a client shows beside an answer that explains the word, and what
// GET /words/{number} returns.
type WordEntry struct {
	// Strongs is the Strong's number: "G26", "H7965".
	Strongs string `json:"strongs"`
	// Language is "greek" (New Testament) or "hebrew" (Old, Aramaic
	// included).
	Language string `json:"language"`
	// Lemma is the word in its own script; empty where the dictionary's
	// script is unreadable.
	Lemma           string `json:"lemma"`
	Transliteration string `json:"transliteration"`
	Pronunciation   string `json:"pronunciation"`
	// Definition is Strong's meaning, without the etymology; empty for
	// an entry that only refers to another.
	Definition string `json:"definition"`
	// Renderings are the KJV's renderings as Strong lists them.
	Renderings []string `json:"renderings"`
	// Related are the Strong's numbers the entry cites: the words it
	// comes from, is compared with or is the same as.
	Related []string `json:"related"`
	// KJVUses counts the KJV's words tagged with this number (of the
	// asked English word alone, when the question asked about one).
	KJVUses int `json:"kjvUses"`
}

// MarshalJSON writes the lists as arrays even when nil: an answer stored
// before Related existed reads back without it, and clients may rely on
// an array.
func (w WordEntry) MarshalJSON() ([]byte, error) {
	type plain WordEntry
	if w.Renderings == nil {
		w.Renderings = []string{}
	}
	if w.Related == nil {
		w.Related = []string{}
	}
	return json.Marshal(plain(w))
}

// Word is the entry of lemma l, whose number the KJV's tags give uses
// times.
func Word(l corpus.Lemma, uses int) WordEntry {
	lang := "hebrew"
	if l.Greek() {
		lang = "greek"
	}
	return WordEntry{Strongs: l.Number, Language: lang, Lemma: l.Lemma, Transliteration: l.Transliteration,
		Pronunciation: l.Pronunciation, Definition: strings.TrimRight(l.Meaning(), ";,. "),
		Renderings: append([]string{}, l.Renderings...), Related: append([]string{}, l.Related...), KJVUses: uses}
}

// KJVWord is an English word the KJV's Strong's tags give for a lemma,
// lower-case, with how many times.
type KJVWord struct {
	Word  string `json:"word"`
	Count int    `json:"count"`
}

// WordResponse is GET /words/{number}: the entry, the KJV's words for it
// and one page of the verses where the KJV translates it.
type WordResponse struct {
	Word WordEntry `json:"word"`
	// KJVWords are the English words the KJV's tags give it, commonest
	// first: what the KJV actually writes, where Renderings are Strong's
	// own list. A tag covering only the word a Greek case stands for
	// counts that word ("to" of G80, six times).
	KJVWords []KJVWord `json:"kjvWords"`
	// VerseCount counts the verses that hold it; Verses are those from
	// Offset on, at most Limit, in canonical order, each with its text.
	VerseCount int            `json:"verseCount"`
	Offset     int            `json:"offset"`
	Limit      int            `json:"limit"`
	Verses     []CitedPassage `json:"verses"`
	RequestID  string         `json:"requestId"`
}
