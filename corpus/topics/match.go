package topics

import (
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"

	"github.com/selahdev/selah/corpus"
)

// matcher scores hubs against a question and cited verses. A hub's terms
// are its title and keywords, each a sequence of stemmed words without
// stop words ("talk to god" is [talk god]). A term or verse that belongs to few
// hubs says more than one that belongs to many, so each carries an
// inverse-document-frequency weight.
type matcher struct {
	hubs  int
	terms []term                   // all distinct terms
	verse map[corpus.VerseID][]int // verse -> hubs that cite it
}

// term is one stemmed keyword or title word and the hubs that have it.
type term struct {
	words  []string
	hubs   []int
	weight float64
}

func newMatcher(hubs []Hub) *matcher {
	m := &matcher{hubs: len(hubs), verse: map[corpus.VerseID][]int{}}
	index := map[string]int{} // joined words -> position in terms
	for i, h := range hubs {
		// The title is a phrase like any keyword: its words alone are
		// often too general ("lord" in "The Lord's Supper"), so hubs list
		// the single words that do name them among their keywords.
		for _, p := range append([]string{h.Title}, h.Keywords...) {
			if words := analyze(p); len(words) > 0 {
				m.add(index, words, i)
			}
		}
		for _, id := range h.ids {
			m.verse[id] = append(m.verse[id], i)
		}
	}
	for i := range m.terms {
		m.terms[i].weight = m.idf(len(m.terms[i].hubs))
	}
	return m
}

func (m *matcher) add(index map[string]int, words []string, hub int) {
	key := strings.Join(words, " ")
	i, ok := index[key]
	if !ok {
		i = len(m.terms)
		index[key] = i
		m.terms = append(m.terms, term{words: words})
	}
	if t := &m.terms[i]; !slices.Contains(t.hubs, hub) {
		t.hubs = append(t.hubs, hub)
	}
}

// idf weighs a term or verse found in df of the hubs.
func (m *matcher) idf(df int) float64 {
	return 1 + math.Log(float64(m.hubs)/float64(df))
}

// verseBoost makes one shared verse count for more than one shared word:
// a verse the caller cited is firmer evidence than a word in a question.
const verseBoost = 1.5

// Match returns up to n hubs most relevant to a question and to a set of
// cited verses, best first. A hub scores for its title and each of its
// keywords found in the question (compared as stemmed words, so "worried"
// finds "worry") and for each cited verse among its passages, each
// weighted by how few hubs share it. Hubs that score nothing are left out,
// so the result may be empty; equal scores are ordered by title, so the
// result is deterministic.
func Match(question string, refs []corpus.VerseID, n int) []Hub {
	if n <= 0 {
		return nil
	}
	c := load()
	scores := c.match.score(question, refs)
	var order []int
	for i, s := range scores {
		if s > 0 {
			order = append(order, i)
		}
	}
	// Hubs are held in title order, so a stable sort keeps ties by title.
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return 0
	})
	if len(order) > n {
		order = order[:n]
	}
	out := make([]Hub, len(order))
	for i, h := range order {
		out[i] = c.hubs[h].clone()
	}
	return out
}

// score returns one score per hub, in catalog order.
func (m *matcher) score(question string, refs []corpus.VerseID) []float64 {
	scores := make([]float64, m.hubs)
	words := analyze(question)
	for _, t := range m.terms {
		if containsRun(words, t.words) {
			for _, h := range t.hubs {
				scores[h] += t.weight
			}
		}
	}
	seen := map[corpus.VerseID]bool{}
	for _, id := range refs {
		if seen[id] {
			continue
		}
		seen[id] = true
		hubs := m.verse[id]
		if len(hubs) == 0 {
			continue
		}
		w := verseBoost * m.idf(len(hubs))
		for _, h := range hubs {
			scores[h] += w
		}
	}
	return scores
}

// containsRun reports whether run occurs in words as consecutive words.
func containsRun(words, run []string) bool {
	for i := 0; i+len(run) <= len(words); i++ {
		if slices.Equal(words[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

// analyze splits text into lower-case stemmed words, leaving out English
// stop words. Letters and digits make words; an apostrophe inside a word
// is kept for the stemmer ("god's" becomes "god"); everything else,
// hyphens included, separates words.
func analyze(text string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		w := strings.Trim(b.String(), "'")
		b.Reset()
		if w == "" || english.IsStopWord(w) {
			return
		}
		out = append(out, english.Stem(w, false))
	}
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		case r == '\'' || r == '’':
			b.WriteByte('\'')
		default:
			flush()
		}
	}
	flush()
	return out
}
