package wordnet

import "strings"

// detachment are WordNet's morphy rules (morph.c in WordNet 3.0, and
// the morphy(7WN) manual): a suffix an inflection adds and what the base
// form ends in instead. They are WordNet's, not ours; the irregular forms
// come from the *.exc files.
var detachment = map[POS][][2]string{
	Noun: {{"s", ""}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"},
		{"men", "man"}, {"ies", "y"}},
	Verb: {{"s", ""}, {"ies", "y"}, {"es", "e"}, {"es", ""}, {"ed", "e"}, {"ed", ""},
		{"ing", "e"}, {"ing", ""}},
	Adj: {{"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"}},
}

// baseForms returns the lemmas of part of speech p that word (lower-case,
// underscores for spaces) is a form of, each once, in morphy's order: the
// word itself, its exceptions, then the detachment rules, and for a
// collocation its words' base forms joined (morphy's rule for
// collocations: "passed_away" is "pass_away", "laid_off" is "lay_off").
// Only lemmas the index holds are returned.
func (w *WordNet) baseForms(word string, p POS) []string {
	idx := w.index[p]
	var out []string
	add := func(s string) {
		if _, ok := idx[s]; ok {
			out = appendOnce(out, s)
		}
	}
	add(word)
	for _, b := range w.exceptions[p][word] {
		add(b)
	}
	for _, r := range detachment[p] {
		if len(word) > len(r[0]) && word[len(word)-len(r[0]):] == r[0] {
			add(word[:len(word)-len(r[0])] + r[1])
		}
	}
	if parts := strings.Split(word, "_"); len(parts) > 1 && len(parts) <= maxCollocation {
		// Each word stands as itself or as one of its own base forms;
		// every combination the index holds is a base form of the whole.
		joined := []string{""}
		for i, part := range parts {
			forms := []string{part}
			if part != "" {
				for _, b := range w.baseForms(part, p) {
					forms = appendOnce(forms, b)
				}
			}
			var next []string
			for _, j := range joined {
				for _, f := range forms {
					if i > 0 {
						f = j + "_" + f
					}
					next = append(next, f)
				}
			}
			joined = next
		}
		for _, j := range joined {
			add(j)
		}
	}
	return out
}

// maxCollocation is the most words a collocation is read word by word in:
// WordNet's longest lemmas run to a handful of words, and each word's forms
// multiply the combinations.
const maxCollocation = 4
