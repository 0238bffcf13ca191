package pipeline

import (
	"context"

	"github.com/selahdev/selah/corpus"
)

// Routed is one verse reached by naming a topic rather than by matching the
// verse's words: a question that names a person, place, event or theme that
// is a Nave's Topical Bible topic (its title, a "See" alias or a sub-entry
// phrase) reaches the verses Nave's lists under it.
type Routed struct {
	Verse corpus.VerseID
	// Score in (0, 1]: how well the topic and sub-entry match the query,
	// comparable across queries.
	Score float64
	// Topic is the Nave's topic title ("MELCHIZEDEK"); Entry the sub-entry
	// phrase the verse is listed under ("King of Salem"), empty when the
	// verse is listed under the topic directly.
	Topic string
	Entry string
	// Section is set when the entry is one of Nave's teaching sections of
	// a theme (its general scriptures, or a heading in capitals), not a
	// note or an instance (NaveRouter's routeEntry.section).
	Section bool
	// Key is set for one of the topic's key passages (corpus/topics
	// keys): what a teacher cites first on it, not an entry of Nave's.
	Key bool
	// Echo is set when the entry's sense holds a word of the query besides
	// the words of the topic's name (a WordNet relative of one, which
	// also raises a name's entry, does not count): the entry, not only
	// the topic, is what was asked.
	Echo bool
}

// TopicRouter finds the verses a query reaches through the topics it names,
// best first, at most limit. A query that names no topic gets none and no
// error.
type TopicRouter interface {
	Route(ctx context.Context, query string, limit int) ([]Routed, error)
}

// Scored is a verse and one source's score for it.
type Scored struct {
	Verse corpus.VerseID
	Score float64
}

// VerseSource is one retrieval source fused by the Retriever (the trained
// word vectors' verse index, for one): the verses best matching a query,
// best first, at most limit.
type VerseSource interface {
	Search(ctx context.Context, query string, limit int) ([]Scored, error)
}
