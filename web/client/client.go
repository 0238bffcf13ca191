// Package client is a Go client for selah's HTTP API (/api/v1, described
// by web/openapi.yaml). A Client holds one API key and sends it as a Bearer
// token on every call; the key is never put in a URL, an error or a log.
//
// Calls return the API's JSON as typed values with the response's status,
// request id and limit headers in their Meta field, or an *Error carrying
// the API's error code. The client does not retry: a 429 or 503 says in
// Error.RetryAfter how long to wait.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/selahdev/selah/apikey"
)

// DefaultUserAgent is sent unless WithUserAgent says otherwise.
const DefaultUserAgent = "selah-go-client/1"

// maxBody bounds how much of a response is read. The largest response, a
// 200-verse passage, is well under a megabyte.
const maxBody = 8 << 20

// ErrMalformedKey is returned by New for a key that is not of the form
// svc_live_… or svc_test_… with a valid checksum. It never includes the key.
var ErrMalformedKey = errors.New("client: the API key is not a selah key (svc_live_ or svc_test_ followed by 49 letters and digits); check that it was copied completely")

// Client calls one selah deployment with one API key. It is safe for
// concurrent use.
type Client struct {
	api  string // base URL of the API, ending in /api/v1
	key  string
	http *http.Client
	ua   string
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient sets the HTTP client (default: one with a 60 s timeout,
// longer than the server's slowest job).
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option { return func(c *Client) { c.ua = ua } }

// New returns a client of the deployment at baseURL (its origin, such as
// https://selah.example; a trailing /api/v1 is accepted too) using key.
// An empty key makes a client for GET /health only: other calls get 401
// missing_api_key. A non-empty key of the wrong shape is ErrMalformedKey,
// so a typo fails here rather than on the first call.
func New(baseURL, key string, opts ...Option) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("client: base URL %q must be an http or https URL", baseURL)
	}
	u.RawQuery, u.Fragment = "", ""
	path := strings.TrimSuffix(strings.TrimRight(u.Path, "/"), "/api/v1")
	u.Path, u.RawPath = path+"/api/v1", ""
	if key != "" {
		if _, err := apikey.Parse(key); err != nil {
			return nil, ErrMalformedKey
		}
	}
	c := &Client{api: u.String(), key: key, http: &http.Client{Timeout: 60 * time.Second}, ua: DefaultUserAgent}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// Health calls GET /health. A degraded service is not an error: the 503
// body is returned with Status "degraded" and Meta.Status 503.
func (c *Client) Health(ctx context.Context) (*HealthResponse, error) {
	var out HealthResponse
	m, err := c.do(ctx, http.MethodGet, "/health", nil, "", &out, http.StatusServiceUnavailable)
	out.Meta = m
	return ret(&out, err)
}

// Scripture calls GET /scripture?ref=.
func (c *Client) Scripture(ctx context.Context, ref string) (*PassageResponse, error) {
	var out PassageResponse
	m, err := c.do(ctx, http.MethodGet, "/scripture?ref="+url.QueryEscape(ref), nil, "", &out)
	out.Meta = m
	return ret(&out, err)
}

// Search calls POST /search.
func (c *Client) Search(ctx context.Context, req SearchRequest) (*SearchResponse, error) {
	var out SearchResponse
	m, err := c.do(ctx, http.MethodPost, "/search", req, req.RequestID, &out)
	out.Meta = m
	return ret(&out, err)
}

// Ask calls POST /ask.
func (c *Client) Ask(ctx context.Context, req AskRequest) (*AskResponse, error) {
	var out AskResponse
	m, err := c.do(ctx, http.MethodPost, "/ask", req, req.RequestID, &out)
	out.Meta = m
	return ret(&out, err)
}

// Topics calls GET /topics.
func (c *Client) Topics(ctx context.Context) (*TopicListResponse, error) {
	var out TopicListResponse
	m, err := c.do(ctx, http.MethodGet, "/topics", nil, "", &out)
	out.Meta = m
	return ret(&out, err)
}

// Topic calls GET /topics/{slug}.
func (c *Client) Topic(ctx context.Context, slug string) (*TopicDetailResponse, error) {
	var out TopicDetailResponse
	m, err := c.do(ctx, http.MethodGet, "/topics/"+url.PathEscape(slug), nil, "", &out)
	out.Meta = m
	return ret(&out, err)
}

func ret[T any](v *T, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}

// do sends one request and decodes a 200 (or one of alsoOK) into out.
func (c *Client) do(ctx context.Context, method, path string, body any, requestID string, out any, alsoOK ...int) (Meta, error) {
	return c.doWith(ctx, method, path, body, requestID, nil, out, alsoOK...)
}

// doWith is do with extra request headers. A 304 is returned with its
// Meta and nothing decoded.
func (c *Client) doWith(ctx context.Context, method, path string, body any, requestID string, header http.Header, out any, alsoOK ...int) (Meta, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return Meta{}, fmt.Errorf("client: encode request: %w", err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.api+path, rd)
	if err != nil {
		return Meta{}, fmt.Errorf("client: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.ua)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	if requestID != "" {
		req.Header.Set("X-Request-Id", requestID)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	res, err := c.http.Do(req)
	if err != nil {
		// *url.Error names the method and URL; neither holds the key.
		return Meta{}, fmt.Errorf("client: %w", err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxBody))
	if err != nil {
		return Meta{}, fmt.Errorf("client: read %s %s response: %w", method, path, err)
	}
	m := metaOf(res)
	if res.StatusCode == http.StatusNotModified && slices.Contains(alsoOK, res.StatusCode) {
		return m, nil
	}
	if res.StatusCode == http.StatusOK || slices.Contains(alsoOK, res.StatusCode) {
		if !isJSON(res.Header.Get("Content-Type")) {
			return m, unexpected(res, m)
		}
		if err := json.Unmarshal(raw, out); err != nil {
			return m, fmt.Errorf("client: decode %s %s response: %w", method, path, err)
		}
		return m, nil
	}
	return m, errorOf(res, raw, m)
}

func isJSON(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

func metaOf(res *http.Response) Meta {
	h := res.Header
	return Meta{
		Status:         res.StatusCode,
		RequestID:      h.Get("X-Request-Id"),
		ETag:           h.Get("ETag"),
		CorpusEdition:  h.Get("X-Corpus-Edition"),
		CorpusChecksum: h.Get("X-Corpus-Checksum"),
		Limits: Limits{
			RateLimit:            headerInt(h, "X-RateLimit-Limit"),
			RateRemaining:        headerInt(h, "X-RateLimit-Remaining"),
			RateReset:            seconds(headerInt(h, "X-RateLimit-Reset")),
			DailyAsksRemaining:   headerInt(h, "X-Quota-Daily-Remaining"),
			MonthlyAsksRemaining: headerInt(h, "X-Quota-Monthly-Remaining"),
		},
	}
}

// headerInt is the header's integer value, or -1 when it is absent or not
// a number.
func headerInt(h http.Header, name string) int {
	n, err := strconv.Atoi(strings.TrimSpace(h.Get(name)))
	if err != nil {
		return -1
	}
	return n
}

func seconds(n int) time.Duration {
	if n < 0 {
		return -time.Second
	}
	return time.Duration(n) * time.Second
}
