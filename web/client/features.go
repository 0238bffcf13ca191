package client

import (
	"context"
	"net/http"
	"net/url"
	"time"
)

// Books calls GET /books.
func (c *Client) Books(ctx context.Context) (*BooksResponse, error) {
	var out BooksResponse
	m, err := c.do(ctx, http.MethodGet, "/books", nil, "", &out)
	out.Meta = m
	return ret(&out, err)
}

// Verify calls POST /verify.
func (c *Client) Verify(ctx context.Context, req VerifyRequest) (*VerifyResponse, error) {
	var out VerifyResponse
	m, err := c.do(ctx, http.MethodPost, "/verify", req, req.RequestID, &out)
	out.Meta = m
	return ret(&out, err)
}

// References calls POST /references.
func (c *Client) References(ctx context.Context, text string) (*ReferencesResponse, error) {
	var out ReferencesResponse
	m, err := c.do(ctx, http.MethodPost, "/references", ReferencesRequest{Text: text}, "", &out)
	out.Meta = m
	return ret(&out, err)
}

// Usage calls GET /usage.
func (c *Client) Usage(ctx context.Context) (*UsageResponse, error) {
	var out UsageResponse
	m, err := c.do(ctx, http.MethodGet, "/usage", nil, "", &out)
	out.Meta = m
	return ret(&out, err)
}

// ScriptureIfChanged is Scripture with If-None-Match: etag (from an
// earlier response's Meta.ETag). When the passage is unchanged it returns
// nil and the 304's Meta, with no error; the request still counts toward
// the per-minute limit.
func (c *Client) ScriptureIfChanged(ctx context.Context, ref, etag string) (*PassageResponse, Meta, error) {
	var out PassageResponse
	m, err := c.doWith(ctx, http.MethodGet, "/scripture?ref="+url.QueryEscape(ref), nil, "",
		http.Header{"If-None-Match": {etag}}, &out, http.StatusNotModified)
	if err != nil || m.Status == http.StatusNotModified {
		return nil, m, err
	}
	out.Meta = m
	return &out, m, nil
}

// BooksResponse is the body of GET /books.
type BooksResponse struct {
	Books     []BookInfo `json:"books"`
	Count     int        `json:"count"`
	RequestID string     `json:"requestId"`
	Meta      Meta       `json:"-"`
}

// BookInfo is one book with its chapters.
type BookInfo struct {
	Number     int    `json:"number"`
	Name       string `json:"name"`
	OSIS       string `json:"osis"`
	Testament  string `json:"testament"`
	Chapters   int    `json:"chapters"`
	Verses     []int  `json:"verses"` // verses of each chapter, chapter 1 first
	VerseCount int    `json:"verseCount"`
}

// VerifyRequest is the body of POST /verify.
type VerifyRequest struct {
	Quote string `json:"quote"`
	// Reference is the reference the quote is attributed to; empty for
	// none.
	Reference string `json:"reference,omitempty"`
	RequestID string `json:"-"`
}

// VerifyResponse is the body of POST /verify. The pointers are nil when
// the API sends null: Reference, Text and URL for match "none",
// ClaimedReference and ClaimedHolds when no reference was sent.
type VerifyResponse struct {
	Quote            string  `json:"quote"`
	Match            string  `json:"match"` // exact, normalized, partial or none
	Reference        *string `json:"reference"`
	Text             *string `json:"text"`
	URL              *string `json:"url"`
	ClaimedReference *string `json:"claimedReference"`
	ClaimedHolds     *bool   `json:"claimedHolds"`
	Similarity       float64 `json:"similarity"`
	RequestID        string  `json:"requestId"`
	Meta             Meta    `json:"-"`
}

// ReferencesRequest is the body of POST /references.
type ReferencesRequest struct {
	Text string `json:"text"`
}

// ReferencesResponse is the body of POST /references. Spans are UTF-16
// code unit offsets.
type ReferencesResponse struct {
	References []FoundReference   `json:"references"`
	Invalid    []InvalidReference `json:"invalid"`
	RequestID  string             `json:"requestId"`
	Meta       Meta               `json:"-"`
}

// FoundReference is a reference found in the text.
type FoundReference struct {
	Text      string `json:"text"`
	Start     int    `json:"start"`
	End       int    `json:"end"`
	Reference string `json:"reference"`
	URL       string `json:"url"`
}

// InvalidReference names a book but no KJV passage.
type InvalidReference struct {
	Text    string `json:"text"`
	Start   int    `json:"start"`
	End     int    `json:"end"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// UsageResponse is the body of GET /usage.
type UsageResponse struct {
	Plan               string     `json:"plan"`
	RequestsPerMinute  LimitUsage `json:"requestsPerMinute"`
	ConcurrentRequests LimitUsage `json:"concurrentRequests"`
	AsksToday          LimitUsage `json:"asksToday"`
	AsksThisMonth      LimitUsage `json:"asksThisMonth"`
	RequestID          string     `json:"requestId"`
	Meta               Meta       `json:"-"`
}

// LimitUsage is one limit; Limit and Remaining are nil when the plan does
// not have it.
type LimitUsage struct {
	Limit        *int       `json:"limit"`
	Remaining    *int       `json:"remaining"`
	InUse        *int       `json:"inUse,omitempty"`
	ResetAt      *time.Time `json:"resetAt,omitempty"`
	ResetSeconds *int       `json:"resetSeconds,omitempty"`
}
