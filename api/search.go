package api

import "time"

// SearchResponse is the body of POST /search.
type SearchResponse struct {
	Query    string `json:"query"`
	Strategy string `json:"strategy"`
	Embedder string `json:"embedder"`
	// Confidence is the calibrated probability that the best result
	// answers the query, comparable across queries; Weak is set when it is
	// too low for the result to be trusted, nothing was found, or the query
	// uses its topic's word in a sense the Bible does not (a sense trap).
	Confidence float64        `json:"confidence"`
	Weak       bool           `json:"weak"`
	Results    []SearchResult `json:"results"`
	RequestID  string         `json:"requestId"`
}

// SearchResult is one verse found by /search.
type SearchResult struct {
	Reference   string  `json:"reference"`
	Book        string  `json:"book"`
	Chapter     int     `json:"chapter"`
	Verse       int     `json:"verse"`
	Text        string  `json:"text"`
	Translation string  `json:"translation"`
	Score       float64 `json:"score"`
}

// AskResponse is the body of POST /ask.
type AskResponse struct {
	Answer     string         `json:"answer"`
	Summary    string         `json:"summary"`
	References []CitedPassage `json:"references"`
	Topics     []TopicLink    `json:"topics"`
	// Words are the Strong's dictionary entries a question about a word's
	// meaning asks about ("What does agape mean?"): empty for any other.
	Words []WordEntry `json:"words"`
	// CanonicalURL is the answer's public page on the website; empty for
	// a chat reply, which has none.
	CanonicalURL string `json:"canonicalUrl"`
	// GeneratedAt is whole seconds, UTC.
	GeneratedAt time.Time `json:"generatedAt"`
	Generator   string    `json:"generator"` // "openai", "extractive" or "none"
	// Grounded is false for a decline: no passage speaks to the question.
	Grounded  bool   `json:"grounded"`
	RequestID string `json:"requestId"`
}

// AnswerPage is a stored answer as its canonical page shows it, and its
// JSON form (GET /answers/{id} with Accept: application/json). It holds
// nothing about who asked.
type AnswerPage struct {
	ID           string         `json:"id"`
	Question     string         `json:"question"`
	Answer       string         `json:"answer"`
	Summary      string         `json:"summary"`
	References   []CitedPassage `json:"references"`
	Topics       []TopicLink    `json:"topics"`
	Words        []WordEntry    `json:"words"`
	CanonicalURL string         `json:"canonicalUrl"`
	GeneratedAt  time.Time      `json:"generatedAt"`
	Generator    string         `json:"generator"`
	// Grounded is false for a decline (generator none): no passage speaks
	// to the question.
	Grounded bool `json:"grounded"`
}
