package pipeline

import "github.com/selahdev/selah/corpus"

// Evidence exposes the relevance score to the external tests.
func Evidence(e Embedder, question, text string) float64 {
	return newRelevance(e, question).evidence(text)
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
