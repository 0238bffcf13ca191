package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
)

// Books calls GET /books.
func (c *Client) Books(ctx context.Context) (*BooksResponse, error) {
	var out BooksResponse
	m, err := c.do(ctx, http.MethodGet, "/books", nil, "", &out)
	out.Meta = m
	return ret(&out, err)
}

// WordRequest is GET /words/{number}: the Strong's number ("G26",
// "H7965") and, optionally, which page of its verses (Limit 0: the
// server's default of 20; at most 100).
type WordRequest struct {
	Number        string
	Limit, Offset int
}

// Word calls GET /words/{number}.
func (c *Client) Word(ctx context.Context, req WordRequest) (*WordResponse, error) {
	q := url.Values{}
	if req.Limit != 0 {
		q.Set("limit", strconv.Itoa(req.Limit))
	}
	if req.Offset != 0 {
		q.Set("offset", strconv.Itoa(req.Offset))
	}
	path := "/words/" + url.PathEscape(req.Number)
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	var out WordResponse
	m, err := c.do(ctx, http.MethodGet, path, nil, "", &out)
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
