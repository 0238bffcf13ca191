package pipeline

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"github.com/antzucaro/matchr"
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
// Other words are respelt only when they also sound the same. People
// type common words as they say them too ("forgivness", "beleive",
// "anxeity", "adultry"), and each such word counted as one the Bible
// never uses: the decline signal (relevance.go, gate.go) declined
// "im greiving my mom, is there any comfert in the bible". But a modern
// word the corpus does not hold ("texting", "vaping") is a subject the
// Bible does not address, and respelling it as a nearby word ("testing",
// "raping") would hide that from the decline signal and answer another
// question. What tells the two apart is what spelling checkers use (GNU
// Aspell's "soundslike"): a misspelling keeps the word's sound, and a
// different word changes it. So a word of the corpus within reach is
// taken only when their Double Metaphone codes agree (antzucaro/matchr):
// "forgivness" and "forgiveness" are both FRJF, "texting" TKST and
// "testing" TSTN. Names keep the edit distance alone: a name heard is
// spelt by its sound, and the name table is small. Words shorter than
// minRespell letters are kept: between short names one edit is another
// name ("Iran", "Iram"), between short words another word.
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
	// verses counts the verses, in the KJV and the WEB, holding each word
	// of minTarget letters or more that is not a name (and the words of
	// Nave's titles, learn): of two words equally near a misspelling, the
	// commoner.
	verses map[string]int
	// sounds lists verses' words by their Double Metaphone codes: the
	// words a misspelling may be, found without reading them all.
	sounds soundIndex
	// english is how often the word vectors' training text (Nave's,
	// Strong's and WordNet's glosses besides the two Bibles; selah
	// train) writes an English word, 0 when never. Nil: words the corpus
	// does not hold are no respelling's.
	english func(word string) int
	// memo keeps nearest's answers for the words asked about (a question
	// is respelt by each stage that reads it), up to maxMemo words.
	memo   sync.Map // string → respelt
	memoed atomic.Int64
}

// respelt is nearest's answer for a word.
type respelt struct {
	word     string
	name, ok bool
}

// maxMemo bounds the words speller.memo keeps; past it the memo starts
// over, so that no stream of made-up words grows it.
const maxMemo = 4096

// soundIndex lists words by their Double Metaphone codes, primary and
// alternate.
type soundIndex map[string][]string

func (x soundIndex) add(w string) {
	p, q := matchr.DoubleMetaphone(w)
	x[p] = append(x[p], w)
	if q != p {
		x[q] = append(x[q], w)
	}
}

// like returns the words that share a code with w, sorted, each once.
func (x soundIndex) like(w string) []string {
	p, q := matchr.DoubleMetaphone(w)
	out := slices.Clone(x[p])
	if q != p {
		out = append(out, x[q]...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// newSpeller reads the words of the KJV and the WEB verses; names are
// the KJV's with their verse counts (properNames), and books the words of
// the books' names, which no verse writes ("genisis" is Genesis) and
// which count as names of one verse each.
func newSpeller(kjv, web []string, names map[string]int, books []string) *speller {
	s := &speller{known: map[string]bool{}, names: maps.Clone(names), byLen: map[int][]string{},
		verses: map[string]int{}, sounds: soundIndex{}}
	count := func(verse []string) {
		for _, w := range verse {
			if _, isName := names[w]; !isName && len([]rune(w)) >= minTarget {
				s.verses[w]++
			}
		}
	}
	for _, t := range kjv {
		var words []string // this verse's, once each
		for _, w := range letterRuns(t) {
			w = strings.ToLower(w)
			s.known[w] = true
			if !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
		count(words)
	}
	for _, t := range web {
		var named []string // the names this verse counts for, once each
		var words []string
		for _, w := range letterRuns(t) {
			w = strings.ToLower(w)
			s.known[w] = true
			if _, ok := names[w]; ok && !slices.Contains(named, w) {
				named = append(named, w)
				s.names[w]++
			}
			if !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
		count(words)
	}
	for _, b := range books {
		if _, ok := s.names[b]; !ok && !s.known[b] {
			s.names[b] = 1
		}
	}
	for n := range s.names {
		k := len([]rune(n))
		s.byLen[k] = append(s.byLen[k], n)
	}
	for w := range s.verses {
		s.sounds.add(w)
	}
	return s
}

// letterRuns splits text into its runs of letters.
func letterRuns(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) })
}

// respell returns query with each misspelt name replaced by the KJV name
// nearest to it, capitalised as the KJV writes names, each other
// misspelt word by the corpus's word it sounds like, and each
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
		word, name, ok := s.nearestMemo(strings.ToLower(w), known)
		if !ok {
			return "", false
		}
		if name || unicode.IsUpper([]rune(w)[0]) {
			word = strings.ToUpper(word[:1]) + word[1:]
		}
		return word, true
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

// minTarget is the shortest word a misspelling is respelt as ("envey" is
// envy).
const minTarget = 3

// nearest returns the word w misspells, if it is one (see respell and
// minRespell), and whether it is a name: w is no word of the corpus or
// the dictionary (known), and a name, or a word of the corpus with the
// same Double Metaphone code or two of its neighbouring letters swapped,
// lies within respellDistance edits of it.
// Of those, the nearest, then the one in more verses ("shure" is sure,
// not the wilderness of Shur; "baptisim" baptism, not Baptist), then the
// first in alphabetical order.
func (s *speller) nearest(w string, known func(string) bool) (best string, name, ok bool) {
	n := len([]rune(w))
	if n < minRespell || s.known[w] || known != nil && known(w) {
		return "", false, false
	}
	maxD := respellDistance(n)
	bestD, bestN := maxD+1, 0
	consider := func(c string, verses int, isName bool) {
		if k := len([]rune(c)); k < n-maxD || k > n+maxD {
			return
		}
		d := edlib.OSADamerauLevenshteinDistance(w, c)
		if d > maxD || best != "" && cmp.Or(cmp.Compare(d, bestD), cmp.Compare(bestN, verses), strings.Compare(c, best)) >= 0 {
			return
		}
		best, bestD, bestN, name = c, d, verses, isName
	}
	for k := n - maxD; k <= n+maxD; k++ {
		for _, c := range s.byLen[k] {
			consider(c, s.names[c], true)
		}
	}
	// A word of a Nave's title (learn) is a word already, and only a
	// name respells it, as before titles were learnt: ARIMATHEA is the
	// KJV's Arimathaea.
	if s.verses[w] > 0 {
		return best, name, best != ""
	}
	for _, c := range s.soundsOrSwaps(w) {
		consider(c, s.verses[c], false)
	}
	if best == "" && known != nil && s.english != nil {
		// No word of the Bible's is near: an English word (the
		// dictionary's, inflected too) may be ("depresed", "hopless"), one
		// edit away, the commoner first ("hopeless", not "hapless").
		// Still no word of the corpus, it keeps its unknown share
		// (relevance.go); what it gains is its WordNet relatives and its
		// word vector.
		p, q := matchr.DoubleMetaphone(w)
		for _, c := range edits1(w) {
			if len(c) < minTarget {
				continue
			}
			// The sound first, the dictionary last: it is the costly test.
			if cp, cq := matchr.DoubleMetaphone(c); (cp == p || cp == q || cq == p || cq == q || isSwap(w, c)) && known(c) {
				consider(c, s.english(c), false)
			}
		}
	}
	return best, name, best != ""
}

// edits1 returns the strings one edit from w (a letter deleted, two
// neighbouring letters swapped, one replaced or one inserted; a–z), as
// Norvig's spelling corrector generates them.
func edits1(w string) []string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	var out []string
	for i := 0; i <= len(w); i++ {
		l, r := w[:i], w[i:]
		if r != "" {
			out = append(out, l+r[1:])
		}
		if len(r) > 1 {
			out = append(out, l+r[1:2]+r[:1]+r[2:])
		}
		for _, c := range letters {
			if r != "" {
				out = append(out, l+string(c)+r[1:])
			}
			out = append(out, l+string(c)+r)
		}
	}
	return out
}

// isSwap reports whether a and b differ by two neighbouring letters
// swapped.
func isSwap(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
}

// nearestMemo is nearest, remembered: known is the retriever's
// dictionary, the same for every call.
func (s *speller) nearestMemo(w string, known func(string) bool) (string, bool, bool) {
	if len([]rune(w)) < minRespell || s.known[w] {
		return "", false, false
	}
	if v, ok := s.memo.Load(w); ok {
		r := v.(respelt)
		return r.word, r.name, r.ok
	}
	word, name, ok := s.nearest(w, known)
	if s.memoed.Add(1) > maxMemo {
		s.memo.Clear()
		s.memoed.Store(1)
	}
	s.memo.Store(w, respelt{word, name, ok})
	return word, name, ok
}

// soundsOrSwaps returns the corpus's words (verses) that may be the
// word w misspells: those that sound like it, and those with two of its
// neighbouring letters swapped, the commonest slip of typing, which may
// change the sound ("christains" is KRST, "christians" KRSX) but not the
// word: no modern word is a swap of a word of the Bible's. The distance
// is the caller's to weigh.
func (s *speller) soundsOrSwaps(w string) []string {
	out := s.sounds.like(w)
	b := []byte(w)
	for i := 0; i+1 < len(b); i++ {
		b[i], b[i+1] = b[i+1], b[i]
		if s.verses[string(b)] > 0 && string(b) != w {
			out = append(out, string(b))
		}
		b[i], b[i+1] = b[i+1], b[i]
	}
	return out
}

// learn adds the words of titles (Nave's) that no verse writes as words a
// misspelling may be respelt as, in one verse each: the lexical index
// knows them as titles (Retriever.Titled), and "trinaty" is TRINITY.
func (s *speller) learn(titles []string) {
	if s == nil {
		return
	}
	for _, t := range titles {
		for _, w := range letterRuns(t) {
			w = strings.ToLower(w)
			if _, isName := s.names[w]; isName || s.known[w] || s.verses[w] > 0 || len([]rune(w)) < minTarget {
				continue
			}
			s.verses[w] = 1
			s.sounds.add(w)
		}
	}
}
