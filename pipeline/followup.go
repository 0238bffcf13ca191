package pipeline

import (
	"slices"
	"strings"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/pipeline/wordvec"
)

// Follow-up questions in a conversation (the website's chat). "Whom did
// she marry?" after "Who was Ruth?" names nobody: on its own it retrieves
// verses about marriage in general. An earlier turn's question supplies
// the subject, and its cited verses say what was already shown:
//
//   - a question is a follow-up when it uses a third-person pronoun or a
//     demonstrative ("she", "his", "that") or has no content word of its
//     own ("Why?", "Tell me more"); the pronouns are a closed class of
//     English grammar, not words picked from any query set;
//   - the subject of a follow-up is the content words of the latest earlier
//     question that was not itself a follow-up (so a third turn still
//     refers back to the first);
//   - retrieval runs on the question with the subject's words added, and
//     of what it finds, verses that mention the subject come first and
//     verses an earlier answer already cited come last: the visitor asks
//     for something new about the same person or thing.
//
// A question that is not a follow-up is answered as if asked alone.

// Turn is an earlier turn of a conversation: what was asked and the
// references its answer cited.
type Turn struct {
	Question   string
	References []string
}

// maxShownVerses bounds the verses one earlier reference may mark shown.
const maxShownVerses = 200

// MaxContextTurns is how many earlier turns an answer looks back at.
const MaxContextTurns = 4

// anaphora are English third-person pronouns and demonstratives: words
// that point back to something said before.
var anaphora = map[string]bool{
	"he": true, "him": true, "his": true, "himself": true,
	"she": true, "her": true, "hers": true, "herself": true,
	"it": true, "its": true, "itself": true,
	"they": true, "them": true, "their": true, "theirs": true, "themselves": true,
	"this": true, "that": true, "these": true, "those": true,
}

// contentWords returns the words of text that name something: not stop
// words, not question frame ("bible", "say"). They keep their surface
// form, since they are added to a query that is analysed again.
func contentWords(text string) []string {
	an := &analyzer{}
	var out []string
	wordvec.Each(text, func(w string) {
		if isStop(w) || anaphora[w] {
			return
		}
		keep := false
		an.terms(w, func(t string) { keep = keep || !questionFrame[t] })
		if keep && !slices.Contains(out, w) {
			out = append(out, w)
		}
	})
	return out
}

// isFollowUp reports whether question leans on an earlier turn.
func isFollowUp(question string) bool {
	pronoun := false
	wordvec.Each(question, func(w string) { pronoun = pronoun || anaphora[w] })
	return pronoun || len(contentWords(question)) == 0
}

// followUp is how a question is retrieved in its conversation.
type followUp struct {
	// Query is what retrieval searches: the question with the subject's
	// words, or the question alone.
	Query string
	// Subject is the earlier question's content words ("ruth"), empty when
	// the question stands alone.
	Subject string
	// Shown are the verses earlier answers cited.
	Shown map[corpus.VerseID]bool
}

// resolveFollowUp reads question against the earlier turns, oldest first.
func resolveFollowUp(question string, turns []Turn) followUp {
	f := followUp{Query: question}
	if len(turns) == 0 || !isFollowUp(question) {
		return f
	}
	turns = turns[max(0, len(turns)-MaxContextTurns):]
	var subject []string
	for _, t := range turns {
		if w := contentWords(t.Question); len(w) > 0 && !isFollowUp(t.Question) {
			subject = w
		}
	}
	if len(subject) == 0 {
		return f
	}
	f.Subject = strings.Join(subject, " ")
	f.Query = question + " (" + f.Subject + ")"
	f.Shown = map[corpus.VerseID]bool{}
	for _, t := range turns {
		for _, r := range t.References {
			ref, err := corpus.ParseReference(r)
			if err != nil || ref.VerseCount() > maxShownVerses {
				continue // not a passage an answer cites; skip rather than fail the answer
			}
			for id := ref.First(); id <= ref.Last(); id++ {
				if id.Valid() {
					f.Shown[id] = true
				}
			}
		}
	}
	return f
}

// focus reorders hits for a follow-up (stable within each group): verses
// that mention the subject and were not shown yet, then the others not
// shown yet, then those already shown.
func (f followUp) focus(r *Retriever, hits []Hit) []Hit {
	if f.Subject == "" {
		return hits
	}
	rv := r.newRelevance(f.Subject)
	rank := func(h Hit) int {
		switch {
		case f.Shown[h.Verse.ID]:
			return 2
		case rv.evidence(h.Verse.ID) > 0:
			return 0
		}
		return 1
	}
	out := slices.Clone(hits)
	slices.SortStableFunc(out, func(a, b Hit) int { return rank(a) - rank(b) })
	return out
}
