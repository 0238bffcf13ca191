package client

import (
	"time"

	"github.com/selahdev/selah/api"
)

// The response types are the server's own, from package api (which
// imports nothing heavier than corpus): each embeds the api body and adds
// Meta, which is not part of the JSON: the status, request id and limit
// headers of the response it came from. The types nested in the bodies
// (api.Verse, api.LimitUsage, ...) are named from package api itself: one
// definition, not a mirror of it here.

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
	api.HealthResponse
	Meta Meta `json:"-"`
}

// PassageResponse is the body of GET /scripture.
type PassageResponse struct {
	api.PassageResponse
	Meta Meta `json:"-"`
}

// SearchResponse is the body of POST /search.
type SearchResponse struct {
	api.SearchResponse
	Meta Meta `json:"-"`
}

// AskResponse is the body of POST /ask.
type AskResponse struct {
	api.AskResponse
	Meta Meta `json:"-"`
}

// TopicListResponse is the body of GET /topics.
type TopicListResponse struct {
	api.TopicListResponse
	Meta Meta `json:"-"`
}

// TopicDetailResponse is the body of GET /topics/{slug}.
type TopicDetailResponse struct {
	api.TopicDetailResponse
	Meta Meta `json:"-"`
}

// WordResponse is the body of GET /words/{number}.
type WordResponse struct {
	api.WordResponse
	Meta Meta `json:"-"`
}

// BooksResponse is the body of GET /books.
type BooksResponse struct {
	api.BooksResponse
	Meta Meta `json:"-"`
}

// VerifyResponse is the body of POST /verify. The pointers are nil when
// the API sends null: Reference, Text and URL for match "none",
// ClaimedReference and ClaimedHolds when no reference was sent.
type VerifyResponse struct {
	api.VerifyResponse
	Meta Meta `json:"-"`
}

// ReferencesResponse is the body of POST /references. Spans are UTF-16
// code unit offsets.
type ReferencesResponse struct {
	api.ReferencesResponse
	Meta Meta `json:"-"`
}

// UsageResponse is the body of GET /usage.
type UsageResponse struct {
	api.UsageResponse
	Meta Meta `json:"-"`
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

// VerifyRequest is the body of POST /verify.
type VerifyRequest struct {
	Quote string `json:"quote"`
	// Reference is the reference the quote is attributed to; empty for
	// none.
	Reference string `json:"reference,omitempty"`
	RequestID string `json:"-"`
}

// ReferencesRequest is the body of POST /references.
type ReferencesRequest struct {
	Text string `json:"text"`
}
