package pipeline

import (
	"slices"
	"strings"

	"github.com/selahdev/selah/pipeline/wordvec"
)

// Phrase matching: a query that is a run of words found as such in only a
// few verses quotes them, whatever its words are. The lexical index cannot
// see this when the words are stop words ("I can do all things" is
// nothing but stop words to it, so Philippians 4:13 was not found) or when
// a few common words together are the quotation ("God is love"). The
// phrase index is every verse's wording (KJV, and WEB unless the index
// leaves it out) as one lower-cased string of its words, searched for the
// query's words in order among the verses that hold them all.
const (
	// phraseMinWords: a shorter run ("the Lord") is not a quotation.
	phraseMinWords = 3
	// phraseMaxVerses: a run found in more verses than this is a common
	// turn of phrase ("and it came to pass"), not a quotation of one of
	// them; they would fill the first page without saying which is meant.
	phraseMaxVerses = 5
)

// phraseIndex holds the wording of every verse as its words, lower-cased
// and space-separated (KJV, then WEB, one line each), and for each word the
// verses that hold it, so a query scans only the verses holding all of its
// words (a scan of the whole text costs tens of milliseconds).
type phraseIndex struct {
	lines []string           // by document number
	post  map[string][]int32 // word -> documents, ascending
}

func buildPhraseIndex(kjv, web []string, noWeb bool) *phraseIndex {
	p := &phraseIndex{lines: make([]string, len(kjv)), post: map[string][]int32{}}
	var b strings.Builder
	for d := range kjv {
		b.Reset()
		line := func(text string) {
			b.WriteByte(' ')
			wordvec.Each(text, func(w string) {
				b.WriteString(w)
				b.WriteByte(' ')
				if ps := p.post[w]; len(ps) == 0 || ps[len(ps)-1] != int32(d) {
					p.post[w] = append(ps, int32(d))
				}
			})
			b.WriteByte('\n')
		}
		line(kjv[d])
		if !noWeb && d < len(web) {
			line(web[d])
		}
		p.lines[d] = b.String()
	}
	return p
}

// match returns the verses (document numbers, in canonical order) whose
// wording holds the query's words in order, when the query has at least
// phraseMinWords words and at most phraseMaxVerses verses hold them;
// otherwise nil.
func (p *phraseIndex) match(query string) []int32 {
	words := runWords(query)
	if len(words) < phraseMinWords {
		return nil
	}
	return p.find(words)
}

// runs returns the verses holding the query's rare runs: from each of its
// words, the longest run of the words that follow it found in order in
// some verse, when it has at least phraseMinWords words, holds a word that
// is not a stop word, is shorter than the whole query and is found in at
// most phraseMaxVerses verses. "what does it mean to be born again" finds
// "to be born again" (John 3:7), which the lexical index reads as "born"
// alone. Longer runs' verses come first.
func (p *phraseIndex) runs(query string) []int32 {
	words := runWords(query)
	type run struct {
		n    int
		docs []int32
	}
	var found []run
	for i := range words {
		// cands: the verses holding each word of the run; docs, once
		// the run is long enough and holds a content word, the verses
		// holding it in order (a subset of the previous length's).
		cands, docs, content := p.post[words[i]], []int32(nil), !isStop(words[i])
		best := run{}
		for j := i + 1; j <= len(words) && len(cands) > 0; j++ {
			if j > i+1 {
				cands = intersect(cands, p.post[words[j-1]])
				content = content || !isStop(words[j-1])
			}
			if j-i < phraseMinWords || !content {
				continue
			}
			if docs == nil {
				docs = cands
			}
			docs = p.holding(docs, words[i:j], len(docs))
			if len(docs) == 0 {
				break
			}
			best = run{j - i, docs}
		}
		if best.n > 0 && best.n < len(words) && len(best.docs) <= phraseMaxVerses {
			found = append(found, best)
		}
	}
	slices.SortStableFunc(found, func(x, y run) int { return y.n - x.n })
	var out []int32
	for _, r := range found {
		for _, d := range r.docs {
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	return out
}

// holding returns the documents of docs whose wording holds words in
// order, or nil as soon as more than most do.
func (p *phraseIndex) holding(docs []int32, words []string, most int) []int32 {
	needle := " " + strings.Join(words, " ") + " "
	var out []int32
	for _, d := range docs {
		if strings.Contains(p.lines[d], needle) {
			if len(out) == most {
				return nil
			}
			out = append(out, d)
		}
	}
	return out
}

// runWords are a text's words as the index holds them.
func runWords(text string) []string {
	var words []string
	wordvec.Each(text, func(w string) { words = append(words, w) })
	return words
}

// find returns the verses whose wording holds words in order, or nil when
// more than phraseMaxVerses do.
func (p *phraseIndex) find(words []string) []int32 {
	// The verses holding every word, from the rarest word's.
	byRarity := slices.Clone(words)
	slices.SortFunc(byRarity, func(x, y string) int { return len(p.post[x]) - len(p.post[y]) })
	cands := p.post[byRarity[0]]
	for _, w := range byRarity[1:] {
		if len(cands) == 0 {
			return nil
		}
		cands = intersect(cands, p.post[w])
	}
	return p.holding(cands, words, phraseMaxVerses)
}

// intersect returns the documents in both ascending lists, in a new slice.
func intersect(a, b []int32) []int32 {
	var out []int32
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

// holds reports whether some verse's wording holds words in order, however
// many do ("Judas Iscariot").
func (p *phraseIndex) holds(words []string) bool {
	if len(words) == 0 {
		return false
	}
	cands := p.post[words[0]]
	for _, w := range words[1:] {
		cands = intersect(cands, p.post[w])
	}
	needle := " " + strings.Join(words, " ") + " "
	for _, d := range cands {
		if strings.Contains(p.lines[d], needle) {
			return true
		}
	}
	return false
}
