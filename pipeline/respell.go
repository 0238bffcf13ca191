package pipeline

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/hbollon/go-edlib"
)

// Respelling. People type the Bible's names as they hear them ("jezabel",
// "bathseba", "nebuchadnezer"), and a name that matches no verse's wording
// reaches neither the lexical index nor the Nave's router, whose topic is
// the person. A query word that no verse of the KJV or the WEB holds, and
// that the dictionary (WordNet) does not know, is taken for a misspelt
// name when a KJV name (names.go) lies within respellDistance edits of it
// (optimal string alignment: a swap of two letters is one edit); the
// nearest wins, then the one more verses name. Both tables are the
// corpus's own; nothing here is a list of names or of misspellings.
//
// Only names are respelt: a modern word the corpus does not hold
// ("texting", "crypto") is a subject the Bible does not address, and
// respelling it as a nearby common word would hide that from the decline
// signal (relevance.go). Words shorter than minRespell letters are kept:
// between short names one edit is another name ("Iran", "Iram").
const minRespell = 5

// respellDistance is the number of edits allowed for a word of n letters:
// one, and two from eight letters on, where two slips are common and two
// names that close are rare.
func respellDistance(n int) int {
	if n >= 8 {
		return 2
	}
	return 1
}

// speller respells query words as the KJV names nearest to them.
type speller struct {
	known map[string]bool // every word of the KJV and the WEB, lower case
	// names are the KJV's names with the number of verses naming each,
	// in the KJV and in the WEB together: of two names equally near a
	// misspelling, the one the modern wording keeps too is the one people
	// hear ("ezekial" is Ezekiel, not Ezekias, Matthew's Greek form of
	// Hezekiah, which the WEB writes Hezekiah).
	names map[string]int
	// byLen lists the names by their length in letters, for the search
	// of those within reach of a word.
	byLen map[int][]string
}

func newSpeller(kjv, web []string, names map[string]int) *speller {
	s := &speller{known: map[string]bool{}, names: maps.Clone(names), byLen: map[int][]string{}}
	for _, t := range kjv {
		for _, w := range letterRuns(t) {
			s.known[strings.ToLower(w)] = true
		}
	}
	for _, t := range web {
		var named []string // the names this verse counts for, once each
		for _, w := range letterRuns(t) {
			w = strings.ToLower(w)
			s.known[w] = true
			if _, ok := names[w]; ok && !slices.Contains(named, w) {
				named = append(named, w)
				s.names[w]++
			}
		}
	}
	for n := range names {
		k := len([]rune(n))
		s.byLen[k] = append(s.byLen[k], n)
	}
	return s
}

// letterRuns splits text into its runs of letters.
func letterRuns(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) })
}

// respell returns query with each misspelt name replaced by the KJV name
// nearest to it, capitalised as the KJV writes names, and each
// contraction typed without its apostrophe with it (contraction); known
// is the dictionary and lemma its own words (nil: none). A query without
// either is returned unchanged.
func (s *speller) respell(query string, known, lemma func(word string) bool) string {
	if s == nil {
		return query
	}
	return replaceWords(query, func(w string) (string, bool) {
		if c, ok := s.contraction(strings.ToLower(w), lemma); ok {
			if unicode.IsUpper([]rune(w)[0]) {
				c = strings.ToUpper(c[:1]) + c[1:]
			}
			return c, true
		}
		name, ok := s.nearest(strings.ToLower(w), known)
		if !ok {
			return "", false
		}
		return strings.ToUpper(name[:1]) + name[1:], true
	})
}

// replaceWords returns text with each run of letters w for which
// replace gives another word written in its place, the rest as it is;
// text itself when none is replaced.
func replaceWords(text string, replace func(w string) (string, bool)) string {
	var b strings.Builder
	rest := text
	changed := false
	for _, w := range letterRuns(text) {
		i := strings.Index(rest, w)
		b.WriteString(rest[:i])
		rest = rest[i+len(w):]
		if r, ok := replace(w); ok {
			b.WriteString(r)
			changed = true
			continue
		}
		b.WriteString(w)
	}
	if !changed {
		return text
	}
	b.WriteString(rest)
	return b.String()
}

// Contractions typed without their apostrophe ("cant", "dont", "im",
// "wasnt", "theres") are no words of the corpus: each counted as a word
// the Bible never uses (the decline signal's unknown share, relevance.go
// and gate.go) and searched as a content word, and "dont judge" lost the
// negation "don't judge" has (analyze.go). Such a word is read as the
// contraction when it is a stop word (an auxiliary or a pronoun) with an
// English clitic after it: "n't" ("dont", "wasnt", "shouldnt"; "cant",
// can with its "t"), or "m", "re", "ve", "ll", "d", "s" ("im", "youre",
// "ive", "theres"). The clitics are a closed class of English grammar,
// the stop words the analyser's own; a word the corpus holds ("wont",
// "its", "ill", "well", "were") is kept, and so, for the pronoun
// clitics, is one the dictionary has as a word of its own ("id", "wed",
// "shed"; "theres" is only "there" inflected to it).
var pronounClitics = []string{"m", "re", "ve", "ll", "d", "s"}

// contraction returns w with its apostrophe when w is a contraction typed
// without one (see pronounClitics); lemma is the dictionary's own words.
func (s *speller) contraction(w string, lemma func(string) bool) (string, bool) {
	if s.known[w] {
		return "", false
	}
	if x, ok := strings.CutSuffix(w, "nt"); ok && x != "" && isStop(x) {
		return x + "n't", true
	}
	if x, ok := strings.CutSuffix(w, "t"); ok && strings.HasSuffix(x, "n") && isStop(x) {
		return x + "'t", true
	}
	if lemma != nil && lemma(w) {
		return "", false
	}
	for _, c := range pronounClitics {
		if x, ok := strings.CutSuffix(w, c); ok && x != "" && isStop(x) {
			return x + "'" + c, true
		}
	}
	return "", false
}

// nearest returns the name w misspells, if it is one (see respell).
func (s *speller) nearest(w string, known func(string) bool) (string, bool) {
	n := len([]rune(w))
	if n < minRespell || s.known[w] || known != nil && known(w) {
		return "", false
	}
	maxD := respellDistance(n)
	best, bestD := "", maxD+1
	for k := n - maxD; k <= n+maxD; k++ {
		for _, name := range s.byLen[k] {
			d := edlib.OSADamerauLevenshteinDistance(w, name)
			if d > maxD {
				continue
			}
			if c := cmp.Or(cmp.Compare(d, bestD), cmp.Compare(s.names[best], s.names[name]), strings.Compare(name, best)); best == "" || c < 0 {
				best, bestD = name, d
			}
		}
	}
	return best, best != ""
}
