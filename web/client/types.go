package client

import "time"

// The response types mirror the API's JSON (web/openapi.yaml) rather than
// reuse the server's structs: those live in packages that import Fiber,
// pgx, Asynq and the retrieval pipeline, which no API client should have
// to build. TestTypesMirrorServer keeps the two in step.
//
// Every response type carries Meta, which is not part of the JSON: the
// status, request id and limit headers of the response it came from.

// Meta describes the HTTP response a value came from.
type Meta struct {
	Status    int
	RequestID string
	Limits    Limits
	// ETag, CorpusEdition and CorpusChecksum are the caching headers of
	// GET /scripture, /topics/{slug} and /books (empty elsewhere).
	ETag           string
	CorpusEdition  string
	CorpusChecksum string
}

// Limits are the limit headers of a response. A value is -1 when the
// response did not carry it: the plan has no such limit, or the request was
// refused before its key was accepted.
type Limits struct {
	// RateLimit is the plan's requests per minute (X-RateLimit-Limit).
	RateLimit int
	// RateRemaining is how many requests could be made right now
	// (X-RateLimit-Remaining).
	RateRemaining int
	// RateReset is how long until the full burst is available again
	// (X-RateLimit-Reset); -1s when not sent.
	RateReset time.Duration
	// DailyAsksRemaining and MonthlyAsksRemaining are the Ask calls the
	// quotas still allow this UTC day and month (X-Quota-*-Remaining).
	DailyAsksRemaining   int
	MonthlyAsksRemaining int
}

// HealthResponse is the body of GET /health.
type HealthResponse struct {
	Status    string           `json:"status"` // "ok" or "degraded"
	Version   string           `json:"version"`
	Time      time.Time        `json:"time"`
	Checks    map[string]Check `json:"checks"`
	Corpus    *CorpusFacts     `json:"corpus"`
	RequestID string           `json:"requestId"`
	Meta      Meta             `json:"-"`
}

// Check is the state of one dependency.
type Check struct {
	Status    string  `json:"status"` // "ok" or "down"
	LatencyMS float64 `json:"latencyMs"`
	Error     string  `json:"error,omitempty"`
}

// CorpusFacts describes the text the service serves.
type CorpusFacts struct {
	Translation string `json:"translation"`
	Module      string `json:"module"`
	Version     string `json:"version"`
	Books       int    `json:"books"`
	Verses      int    `json:"verses"`
}

// PassageResponse is the body of GET /scripture.
type PassageResponse struct {
	Reference   string       `json:"reference"`
	Translation string       `json:"translation"`
	Book        Book         `json:"book"`
	Verses      []Verse      `json:"verses"`
	Text        string       `json:"text"`
	VerseCount  int          `json:"verseCount"`
	Previous    *ChapterLink `json:"previous"`
	Next        *ChapterLink `json:"next"`
	RequestID   string       `json:"requestId"`
	Meta        Meta         `json:"-"`
}

// Book describes the book of a passage.
type Book struct {
	Number    int    `json:"number"`
	Name      string `json:"name"`
	OSIS      string `json:"osis"`
	Testament string `json:"testament"` // "OT" or "NT"
	Chapters  int    `json:"chapters"`
}

// Verse is one verse of a passage.
type Verse struct {
	Reference string `json:"reference"`
	Book      string `json:"book"`
	Chapter   int    `json:"chapter"`
	Verse     int    `json:"verse"`
	Text      string `json:"text"`
	Title     string `json:"title,omitempty"` // a psalm's superscription
}

// ChapterLink points to a neighbouring chapter.
type ChapterLink struct {
	Reference string `json:"reference"`
	URL       string `json:"url"`
}

// SearchRequest is the body of POST /search.
type SearchRequest struct {
	Query string `json:"query"`
	// Limit is 1 to 20; 0 means the server's default (10).
	Limit int `json:"limit,omitempty"`
	// RequestID, when set, is sent as X-Request-Id: 8 to 64 characters of
	// A-Za-z0-9._-.
	RequestID string `json:"-"`
}

// SearchResponse is the body of POST /search.
type SearchResponse struct {
	Query    string `json:"query"`
	Strategy string `json:"strategy"`
	Embedder string `json:"embedder"`
	// Confidence is the calibrated probability that the results hold a
	// verse the query is after; Weak is set when it is below 0.5.
	Confidence float64        `json:"confidence"`
	Weak       bool           `json:"weak"`
	Results    []SearchResult `json:"results"`
	RequestID  string         `json:"requestId"`
	Meta       Meta           `json:"-"`
}

// SearchResult is one verse found.
type SearchResult struct {
	Reference   string  `json:"reference"`
	Book        string  `json:"book"`
	Chapter     int     `json:"chapter"`
	Verse       int     `json:"verse"`
	Text        string  `json:"text"`
	Translation string  `json:"translation"`
	Score       float64 `json:"score"`
}

// AskRequest is the body of POST /ask.
type AskRequest struct {
	Question string `json:"question"`
	// MaxReferences is 1 to 8; 0 means the server's default (5).
	MaxReferences int `json:"maxReferences,omitempty"`
	// RequestID, when set, is sent as X-Request-Id. Reusing the id of an
	// Ask still in progress is refused (409 conflict), which makes a retry
	// after a lost response safe.
	RequestID string `json:"-"`
}

// AskResponse is the body of POST /ask.
type AskResponse struct {
	Answer       string         `json:"answer"`
	Summary      string         `json:"summary"`
	References   []CitedPassage `json:"references"`
	Topics       []TopicLink    `json:"topics"`
	CanonicalURL string         `json:"canonicalUrl"`
	GeneratedAt  time.Time      `json:"generatedAt"`
	Generator    string         `json:"generator"` // "openai", "extractive" or "none"
	Grounded     bool           `json:"grounded"`  // false for a decline: no passage speaks to the question
	RequestID    string         `json:"requestId"`
	Meta         Meta           `json:"-"`
}

// CitedPassage is a passage an answer cites or a topic hub gathers, with
// its KJV text from the database.
type CitedPassage struct {
	Reference   string `json:"reference"`
	Book        string `json:"book"`
	Chapter     int    `json:"chapter"`
	VerseStart  int    `json:"verseStart"`
	VerseEnd    int    `json:"verseEnd"`
	Text        string `json:"text"`
	Translation string `json:"translation"`
	URL         string `json:"url"`
}

// TopicLink points to a topic hub.
type TopicLink struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
	URL   string `json:"url"`
}

// TopicListResponse is the body of GET /topics.
type TopicListResponse struct {
	Topics    []TopicSummary `json:"topics"`
	Count     int            `json:"count"`
	RequestID string         `json:"requestId"`
	Meta      Meta           `json:"-"`
}

// TopicSummary is one hub in the list.
type TopicSummary struct {
	Slug       string `json:"slug"`
	Title      string `json:"title"`
	Summary    string `json:"summary"`
	VerseCount int    `json:"verseCount"`
	URL        string `json:"url"`
}

// TopicDetailResponse is the body of GET /topics/{slug}.
type TopicDetailResponse struct {
	Slug       string         `json:"slug"`
	Title      string         `json:"title"`
	Summary    string         `json:"summary"`
	VerseCount int            `json:"verseCount"`
	Passages   []CitedPassage `json:"passages"`
	Related    []TopicLink    `json:"related"`
	RequestID  string         `json:"requestId"`
	Meta       Meta           `json:"-"`
}
