// Package verify checks quotations against the KJV: whether a quote is in
// the text, where, and how closely. It is an in-memory index over the whole
// KJV (word bigrams over normalized words) built once at start, so a check
// costs a few milliseconds and no database round trip.
//
// Matching levels, from best to worst:
//
//   - exact: the quote, as written, is a run of characters of the KJV text
//     (of one verse, or of up to three consecutive verses of one book).
//     Quotation marks and an ellipsis around the quote, and a closing
//     punctuation mark, are not part of the quote.
//   - normalized: equal to a run of the text once case and punctuation are
//     ignored and the KJV's old spellings are read as their modern ones
//     ("shew"/"show", "labour"/"labor"). Grammar is not normalized: the
//     verb endings -eth and -est and the pronouns thee, thou, thy and ye
//     stay as they are, so "he loves" is not a normalized "he loveth".
//   - partial: close to a run of the text — a word dropped, added or
//     changed — with a word-level similarity of at least 2/3 (see
//     Result.Similarity) and at least three words in common.
//   - none: nothing in the KJV comes that close.
package verify

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/selahdev/selah/corpus"
)

// Level is how well a quote matches the text.
type Level string

// The matching levels.
const (
	Exact      Level = "exact"
	Normalized Level = "normalized"
	Partial    Level = "partial"
	None       Level = "none"
)

// PartialThreshold is the least similarity of a partial match: at most one
// edit (a word dropped, added or changed) for every three words quoted.
// Chosen from that reading, before the evaluation set was written.
const PartialThreshold = 2.0 / 3.0

// minPartialWords is the least number of quoted words a partial match
// must share with the text: two common words in a row ("of the") are in
// thousands of verses and prove nothing.
const minPartialWords = 3

// maxWindow is how many consecutive verses one quote may span.
const maxWindow = 3

// candidates is how many verses, ranked by shared bigrams, are aligned
// word by word against the quote.
const candidates = 24

// maxQuoteWords bounds the alignment work of one check.
const maxQuoteWords = 400

// Text is one verse as the index is built from: its KJV text and the World
// English Bible's wording of the same verse (from which the index learns
// which KJV spellings are old spellings of modern words).
type Text struct {
	ID  corpus.VerseID
	KJV string
	WEB string
}

// Index is the KJV ready for quote checks. It is read-only once built and
// safe for concurrent use.
type Index struct {
	ids      []corpus.VerseID
	text     []string
	words    [][]int32 // normalized word ids of each verse
	vocab    map[string]int32
	postings map[uint64][]int32 // word bigram -> verses holding it (ascending)
	idf      map[uint64]float32
	variants map[string]string
}

// New builds the index. texts must be in canonical order.
func New(texts []Text) *Index {
	ix := &Index{vocab: map[string]int32{}, postings: map[uint64][]int32{}, idf: map[uint64]float32{}}
	ix.variants = learnVariants(texts)
	ix.ids = make([]corpus.VerseID, len(texts))
	ix.text = make([]string, len(texts))
	ix.words = make([][]int32, len(texts))
	for i, t := range texts {
		ix.ids[i], ix.text[i] = t.ID, t.KJV
		ws := ix.normalize(t.KJV)
		ids := make([]int32, len(ws))
		for j, w := range ws {
			id, ok := ix.vocab[w]
			if !ok {
				id = int32(len(ix.vocab))
				ix.vocab[w] = id
			}
			ids[j] = id
		}
		ix.words[i] = ids
		seen := map[uint64]bool{}
		for j := 1; j < len(ids); j++ {
			k := bigram(ids[j-1], ids[j])
			if !seen[k] {
				seen[k] = true
				ix.postings[k] = append(ix.postings[k], int32(i))
			}
		}
	}
	n := float64(len(texts))
	for k, p := range ix.postings {
		ix.idf[k] = float32(math.Log(1 + n/float64(len(p))))
	}
	return ix
}

// Len is the number of verses indexed.
func (ix *Index) Len() int { return len(ix.ids) }

// Variants returns the learned old-spelling -> modern-spelling pairs.
func (ix *Index) Variants() map[string]string {
	out := make(map[string]string, len(ix.variants))
	for k, v := range ix.variants {
		out[k] = v
	}
	return out
}

func bigram(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// Result is the outcome of one check.
type Result struct {
	Level Level
	// Found is where the closest text is; the zero Reference for None.
	Found corpus.Reference
	// Text is the KJV text of Found.
	Text string
	// Similarity is 1 - d/n, where n is the number of words quoted and d
	// the fewest words dropped, added or changed to turn the quote into a
	// run of the text (case, punctuation and old spellings ignored); 0 when
	// negative. 1 for exact and normalized matches.
	Similarity float64
	// ClaimedHolds reports, when a reference was claimed, whether Found
	// lies within it.
	ClaimedHolds bool
}

// Verify checks quote, and the claimed reference if any (nil for none).
func (ix *Index) Verify(quote string, claimed *corpus.Reference) Result {
	raw := cleanQuote(quote)
	q := ix.quoteWords(raw)
	if len(q) > maxQuoteWords {
		q = q[:maxQuoteWords]
	}
	if len(q) < 2 {
		// One word is in thousands of verses; it is not a quotation.
		return Result{Level: None}
	}

	type cand struct {
		first, last int // verse indexes of the window
		dist        int
		claimed     bool
	}
	var best *cand
	better := func(c cand) bool {
		if best == nil {
			return true
		}
		if c.dist != best.dist {
			return c.dist < best.dist
		}
		if c.claimed != best.claimed {
			return c.claimed
		}
		if w, bw := c.last-c.first, best.last-best.first; w != bw {
			return w < bw
		}
		return c.first < best.first
	}
	try := func(first, last int, claimed bool) {
		w := ix.window(first, last)
		d := approxDistance(q, w)
		if c := (cand{first, last, d, claimed}); better(c) {
			best = &c
		}
	}

	// The claimed passage is aligned first, so that it wins ties: a verse
	// repeated word for word elsewhere is found where it was claimed.
	if claimed != nil && claimed.Book.Number != 0 {
		lo, hi := ix.indexOf(claimed.First()), ix.indexOf(claimed.Last())
		if lo >= 0 && hi >= lo {
			for i := lo; i <= hi; i++ {
				for j := i; j < min(i+maxWindow, hi+1); j++ {
					try(i, j, true)
				}
			}
		}
	}
	for _, i := range ix.rank(q) {
		for first := max(0, i-maxWindow+1); first <= i; first++ {
			for last := i; last < min(len(ix.ids), first+maxWindow); last++ {
				if ix.ids[first].Book() == ix.ids[last].Book() {
					try(first, last, false)
				}
			}
		}
	}
	if best == nil {
		return Result{Level: None}
	}
	sim := max(0, 1-float64(best.dist)/float64(len(q)))
	res := Result{Level: None, Similarity: math.Round(sim*1000) / 1000}
	switch {
	case best.dist == 0 && ix.containsExact(best.first, best.last, raw):
		res.Level = Exact
	case best.dist == 0:
		res.Level = Normalized
	case sim >= PartialThreshold && len(q)-best.dist >= minPartialWords:
		res.Level = Partial
	default:
		return res
	}
	// Narrow the window to the verses the match touches.
	first, last := best.first, best.last
	for first < last && approxDistance(q, ix.window(first+1, last)) == best.dist {
		first++
	}
	for last > first && approxDistance(q, ix.window(first, last-1)) == best.dist {
		last--
	}
	ref, err := corpus.ReferenceForRange(ix.ids[first], ix.ids[last])
	if err != nil {
		return Result{Level: None}
	}
	res.Found = ref
	res.Text = ix.joined(first, last)
	if claimed != nil {
		res.ClaimedHolds = claimed.Contains(ref.First()) && claimed.Contains(ref.Last())
	}
	return res
}

// indexOf is the position of verse id, or -1.
func (ix *Index) indexOf(id corpus.VerseID) int {
	i := sort.Search(len(ix.ids), func(i int) bool { return ix.ids[i] >= id })
	if i < len(ix.ids) && ix.ids[i] == id {
		return i
	}
	return -1
}

// rank returns the verses sharing the most informative bigrams with q.
func (ix *Index) rank(q []int32) []int {
	score := map[int32]float32{}
	seen := map[uint64]bool{}
	for j := 1; j < len(q); j++ {
		if q[j-1] < 0 || q[j] < 0 {
			continue
		}
		k := bigram(q[j-1], q[j])
		if seen[k] {
			continue
		}
		seen[k] = true
		w := ix.idf[k]
		for _, v := range ix.postings[k] {
			score[v] += w
		}
	}
	type sv struct {
		v int32
		s float32
	}
	all := make([]sv, 0, len(score))
	for v, s := range score {
		all = append(all, sv{v, s})
	}
	sort.Slice(all, func(a, b int) bool {
		if all[a].s != all[b].s {
			return all[a].s > all[b].s
		}
		return all[a].v < all[b].v
	})
	out := make([]int, 0, candidates)
	for i := 0; i < len(all) && i < candidates; i++ {
		out = append(out, int(all[i].v))
	}
	return out
}

func (ix *Index) window(first, last int) []int32 {
	if first == last {
		return ix.words[first]
	}
	var w []int32
	for i := first; i <= last; i++ {
		w = append(w, ix.words[i]...)
	}
	return w
}

func (ix *Index) joined(first, last int) string {
	return strings.Join(ix.text[first:last+1], " ")
}

// containsExact reports whether raw is, character for character, in the
// text of the window, with or without its closing punctuation mark.
func (ix *Index) containsExact(first, last int, raw string) bool {
	t := ix.joined(first, last)
	if strings.Contains(t, raw) {
		return true
	}
	trimmed := strings.TrimRightFunc(raw, unicode.IsPunct)
	return trimmed != "" && trimmed != raw && strings.Contains(t, trimmed)
}

// quoteWords are the quote's normalized words as vocabulary ids; a word
// the KJV never uses is -1 (it can match nothing).
func (ix *Index) quoteWords(raw string) []int32 {
	ws := ix.normalize(raw)
	out := make([]int32, len(ws))
	for i, w := range ws {
		id, ok := ix.vocab[w]
		if !ok {
			id = -1
		}
		out[i] = id
	}
	return out
}

// cleanQuote trims what surrounds a quotation rather than belonging to it:
// spaces, quotation marks and ellipses. Inner whitespace becomes one space.
func cleanQuote(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	for {
		t := strings.TrimSpace(s)
		t = strings.Trim(t, "\"'“”‘’«»")
		t = strings.TrimSuffix(t, "...")
		t = strings.TrimSuffix(t, "…")
		t = strings.TrimPrefix(t, "...")
		t = strings.TrimPrefix(t, "…")
		if t == s {
			return s
		}
		s = t
	}
}

// approxDistance is the fewest word edits (drop, add, change) that turn q
// into some run of consecutive words of w: Sellers' approximate substring
// matching, at the level of words. A quote word of -1 matches nothing.
func approxDistance(q, w []int32) int {
	if len(w) == 0 {
		return len(q)
	}
	// prev[j]: distance of q[:i] to the best run of w ending at j.
	prev := make([]int, len(w)+1)
	cur := make([]int, len(w)+1)
	for i := 1; i <= len(q); i++ {
		cur[0] = i
		for j := 1; j <= len(w); j++ {
			sub := prev[j-1]
			if q[i-1] != w[j-1] || q[i-1] < 0 {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	best := prev[0]
	for _, d := range prev[1:] {
		best = min(best, d)
	}
	return best
}

// words splits text into lower-case words of letters and digits. An
// apostrophe or hyphen splits a word, on both sides alike.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// normalize is words with each learned old spelling read as its modern
// one, also inside an inflected form ("shewed" as "showed").
func (ix *Index) normalize(s string) []string {
	ws := words(s)
	for i, w := range ws {
		ws[i] = ix.modern(w)
	}
	return ws
}

// inflections are the endings under which an old spelling is recognized
// ("shew" in "shewed", "shewing", "sheweth"): the ending itself is kept,
// so grammar stays as written.
var inflections = []string{"eth", "est", "ed", "ing", "s", "es", "d", "er", "ers"}

func (ix *Index) modern(w string) string {
	if m, ok := ix.variants[w]; ok {
		return m
	}
	for _, suf := range inflections {
		if stem, ok := strings.CutSuffix(w, suf); ok && len(stem) >= 3 {
			if m, ok := ix.variants[stem]; ok {
				return m + suf
			}
		}
	}
	return w
}
