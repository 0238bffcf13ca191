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
// query's words in order: a few milliseconds over the whole Bible.
const (
	// phraseMinWords: a shorter run ("the Lord") is not a quotation.
	phraseMinWords = 3
	// phraseMaxVerses: a run found in more verses than this is a common
	// turn of phrase ("and it came to pass"), not a quotation of one of
	// them; they would fill the first page without saying which is meant.
	phraseMaxVerses = 5
)

// phraseIndex holds the wording of every verse, one line each, with the
// offset where each verse's lines start.
type phraseIndex struct {
	text  string
	start []int // start[d]: offset of verse d's first line; ascending
}

func buildPhraseIndex(kjv, web []string, noWeb bool) *phraseIndex {
	var b strings.Builder
	p := &phraseIndex{start: make([]int, len(kjv))}
	line := func(text string) {
		b.WriteByte(' ')
		wordvec.Each(text, func(w string) {
			b.WriteString(w)
			b.WriteByte(' ')
		})
		b.WriteByte('\n')
	}
	for d := range kjv {
		p.start[d] = b.Len()
		line(kjv[d])
		if !noWeb && d < len(web) {
			line(web[d])
		}
	}
	p.text = b.String()
	return p
}

// match returns the verses (document numbers, in canonical order) whose
// wording holds the query's words in order, when the query has at least
// phraseMinWords words and at most phraseMaxVerses verses hold them;
// otherwise nil.
func (p *phraseIndex) match(query string) []int32 {
	var b strings.Builder
	n := 0
	b.WriteByte(' ')
	wordvec.Each(query, func(w string) {
		b.WriteString(w)
		b.WriteByte(' ')
		n++
	})
	if n < phraseMinWords {
		return nil
	}
	needle := b.String()
	var out []int32
	for off := 0; ; {
		i := strings.Index(p.text[off:], needle)
		if i < 0 {
			break
		}
		at := off + i
		d, found := slices.BinarySearch(p.start, at)
		if !found {
			d--
		}
		if len(out) == 0 || out[len(out)-1] != int32(d) {
			if len(out) == phraseMaxVerses {
				return nil
			}
			out = append(out, int32(d))
		}
		off = at + len(needle) - 1 // the needle's last space may open the next match
	}
	return out
}
