package client

import (
	"context"
	"net/http"
	"net/url"
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
