package pipeline

import "github.com/selahdev/selah/corpus"

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
