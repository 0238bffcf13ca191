package pipeline

import (
	"strings"

	"github.com/selahdev/selah/corpus"
)

// Evidence exposes the relevance score to the external tests.
func Evidence(r *Retriever, question string, id corpus.VerseID) float64 {
	return r.newRelevance(question).evidence(id)
}

// Ground exposes the grounding rules to the external tests.
func Ground(d Draft, cands []Candidate, maxRefs int) (answer, summary string, refs [][]corpus.VerseID, err error) {
	g, err := ground(d, cands, maxRefs)
	return g.Answer, g.Summary, g.Groups, err
}

// FollowUpQuery exposes how a question is read in its conversation.
func FollowUpQuery(question string, turns []Turn) (query, subject string) {
	f := resolveFollowUp(question, turns)
	return f.Query, f.Subject
}

func NamesEntity(r *Retriever, title string) bool { return r.namesEntity(title) }

// TopicSense exposes what the retriever learns of a Nave's topic's word:
// whether WordNet knows it, and whether its Bible sense is a thing.
func TopicSense(r *Retriever, title string) (known, physical bool) {
	ts := r.senses.topic(title)
	if ts == nil {
		return false, false
	}
	return ts.known, ts.physical
}

// ShippedThemeGate is the theme gate /ask uses (gate.go).
func ShippedThemeGate() ThemeGate { return themeGate }

// Logistic exposes the fitter the calibration and the gate share.
func Logistic(xs [][]float64, ys, weights []float64, iters int) (bias float64, w []float64) {
	return logistic(xs, ys, weights, iters, 0.5, 1e-3)
}

// Teaching and SeeAlso expose the router's view of a theme (gate.go).
func Teaching(r *NaveRouter, title string) []Routed { return r.teaching(title, 1) }
func SeeAlso(r *NaveRouter, title string) []string  { return r.seeAlso(title) }

// NearThemes exposes the themes the word vectors bridge question to
// (bridge.go), best first; nil without word vectors.
func NearThemes(r *Retriever, question string) []string {
	if r.bridge == nil {
		return nil
	}
	var out []string
	for _, b := range r.bridge.near(question) {
		out = append(out, b.title)
	}
	return out
}

// NamedWriter reads question as asking who wrote a book (writerQuestion)
// and returns the verse of the book naming its writer, and the name.
func NamedWriter(r *Retriever, question string) (ref, name string, asked, ok bool) {
	ask, asked := writerQuestion(question)
	if !asked {
		return "", "", false, false
	}
	v, name, ok := r.namedWriter(ask)
	return v.ID.String(), name, true, ok
}

// NearestSpelling is the respelling of one word, without the memo that
// spares a question's later stages the search: what a word's first
// respelling costs.
func NearestSpelling(r *Retriever, word string) string {
	w, _, _ := r.speller.nearest(word, r.Dictionary)
	return w
}

// KinQuestion exposes how a family question is read (kin.go): the
// relation asked ("parent/m"), the names of the person and, for "how
// was X related to Y", the other; unknown: the person is not the
// Bible's.
func KinQuestion(r *Retriever, q string) (rel string, person, other []string, unknown, ok bool) {
	ask, ok := r.kinQuestion(q)
	return ask.Rel, ask.Person, ask.Other, ask.Unknown, ok
}

// KinFacts exposes the relations read from Nave's (kin.go) as sentences.
func KinFacts(r *NaveRouter) []string {
	var out []string
	for _, f := range r.kinFacts() {
		out = append(out, f.sentence())
	}
	return out
}

// FateQuestion exposes how a question about a person's end is read
// (fate.go).
func FateQuestion(r *Retriever, q string) (roots, person []string, kin string, unknown, happened, ok bool) {
	ask, ok := r.fateQuestion(q)
	return ask.Roots, ask.Person, ask.Kin, ask.Unknown, ask.Happened, ok
}

// KJVWrites returns a test of whether some KJV verse holds a text's
// words in order, as the index reads words ("Jacob's ladder": "jacob
// ladder").
func KJVWrites(r *Retriever) func(text string) bool {
	var b strings.Builder
	for _, v := range r.verses {
		b.WriteString(" " + strings.Join(runWords(v.Text), " ") + " \n")
	}
	all := b.String()
	return func(text string) bool {
		return strings.Contains(all, " "+strings.Join(runWords(text), " ")+" ")
	}
}
