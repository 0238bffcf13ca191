package pipeline

import (
	"strings"

	"github.com/selahdev/selah/corpus/wordnet"
	"github.com/selahdev/selah/pipeline/wordvec"
)

// Query expansion: a reader's word widened with the words a lexical
// database relates to it, each at a weight below the typed word's, so
// "grief" also reaches verses that say "sorrow". The relations come from a
// named data source (WordNet; see cmd/selah's wiring), never from a
// hand-written table.

// Related is a word related to a query word, and how much a match on it
// counts against a match on the word itself (0, 1).
type Related struct {
	Word   string
	Weight float64
}

// Expander gives the words related to a (lower-case) word.
type Expander interface {
	Related(word string) []Related
}

// maxExpansionWeight caps an expansion's weight: senses are noisy (issue
// 12 measured 0.3 for synonyms and derivations, 0.15 for hypernyms, and
// worse results above).
const maxExpansionWeight = 0.3

// expand returns typed with the terms the expander relates to the query's
// words. A term keeps the highest weight it is given; a typed term stays 1.
func (l *Lexical) expand(e Expander, query string, typed []qterm) []qterm {
	w := map[int32]float64{}
	for _, q := range typed {
		w[q.id] = q.weight
	}
	out := append([]qterm(nil), typed...)
	eachRelated(e, query, func(rels []Related) {
		for _, r := range rels {
			weight := min(r.Weight, maxExpansionWeight)
			if weight <= 0 {
				continue
			}
			l.an.terms(r.Word, func(t string) {
				id, ok := l.terms[t]
				if !ok {
					return
				}
				if have, seen := w[id]; seen {
					if have < weight {
						w[id] = weight
						for i := range out {
							if out[i].id == id {
								out[i].weight = weight
							}
						}
					}
					return
				}
				w[id] = weight
				out = append(out, qterm{id: id, weight: weight})
			})
		}
	})
	return out
}

// eachRelated calls fn with what e relates to each of the query's content
// words (no stop word or question frame), read in context (relatedAt).
func eachRelated(e Expander, query string, fn func(rels []Related)) {
	words := wordvec.Tokens(query)
	for k, w := range words {
		if !isStop(w) && !questionFrame[w] {
			fn(relatedAt(e, words, k))
		}
	}
}

// relatedAt returns the words e relates to words[k]. A word that opens,
// with the word after it, a collocation the expander knows ("passed
// away", "laid off", "burned out": WordNet's lemmas pass away, lay off,
// burn out) is read as the collocation, as a reader would: its relatives
// are the collocation's (die, decease), not the word's alone (go by,
// elapse).
func relatedAt(e Expander, words []string, k int) []Related {
	if k+1 < len(words) {
		if rels := e.Related(words[k] + " " + words[k+1]); len(rels) > 0 {
			return rels
		}
	}
	return e.Related(words[k])
}

// Expansion weights of WordNet relations (issue 12's measurement): a
// synonym or a derivation counts 0.3 of the typed word, a broader term
// (hypernym) 0.15. Only a word's first wordNetSenses senses in each part
// of speech: later senses are rare and mostly noise.
const (
	wordNetSynonym    = 0.3
	wordNetDerivation = 0.3
	wordNetHypernym   = 0.15
	wordNetSenses     = 3
)

// WordNetExpander relates words through Princeton WordNet 3.0
// (corpus/wordnet, Debian's wordnet-base): the named source of the bridges
// between a reader's words and their synonyms ("grief" → "sorrow"),
// derivations ("forgive" → "forgiveness") and broader terms.
type WordNetExpander struct {
	wn *wordnet.WordNet
}

// NewWordNetExpander returns an expander over wn.
func NewWordNetExpander(wn *wordnet.WordNet) *WordNetExpander {
	return &WordNetExpander{wn: wn}
}

// Related returns the synonyms, derivations and hypernyms of word's first
// senses, and the head an adjective satellite narrows (at a synonym's
// weight: WordNet defines the satellite by it), each at the weight of its
// strongest relation.
func (e *WordNetExpander) Related(word string) []Related {
	var out []Related
	at := map[string]int{}
	add := func(w string, weight float64) {
		w = strings.ToLower(w)
		if w == word {
			return
		}
		if i, ok := at[w]; ok {
			out[i].Weight = max(out[i].Weight, weight)
			return
		}
		at[w] = len(out)
		out = append(out, Related{Word: w, Weight: weight})
	}
	for _, s := range e.wn.Senses(word, wordNetSenses) {
		for _, w := range s.Synonyms {
			add(w, wordNetSynonym)
		}
		for _, w := range s.Derived {
			add(w, wordNetDerivation)
		}
		for _, w := range s.Hypernyms {
			add(w, wordNetHypernym)
		}
		for _, w := range s.Similar {
			add(w, wordNetSynonym)
		}
	}
	return out
}
