package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"time"
)

// loadClient is selah bench's load generator, built to cost the machine
// as little as wrk would: it keeps one connection per concurrent caller
// alive (http.DefaultTransport keeps two idle per host, so at 32 callers
// most requests would open a new connection), sends requests whose bodies
// are encoded once, and checks only the status, discarding the body
// unread by any decoder. The floors it is compared with (pgbench,
// redis-benchmark) are lean C clients; a client that decodes every
// chapter it loads spends as much CPU as the server it measures, on the
// same cores. The Go client (web/client) is what the scale-out run and the
// tests use.
type loadClient struct {
	http *http.Client
	api  string // base URL, ending in /api/v1
	auth string // Authorization header value
}

func newLoadClient(apiURL, key string, conns int) *loadClient {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns, tr.MaxIdleConnsPerHost, tr.MaxConnsPerHost = conns, conns, 0
	tr.DisableCompression = true
	return &loadClient{http: &http.Client{Transport: tr, Timeout: 60 * time.Second}, api: apiURL + "/api/v1", auth: "Bearer " + key}
}

func (lc *loadClient) close() { lc.http.CloseIdleConnections() }

// call returns the load of an endpoint: the i-th request of a run.
func (lc *loadClient) call(endpoint string) (func(ctx context.Context, i int) error, error) {
	var bodies [][]byte
	var path func(i int) string
	switch endpoint {
	case "scripture":
		paths := make([]string, len(benchRefs))
		for i, ref := range benchRefs {
			paths[i] = lc.api + "/scripture?ref=" + url.QueryEscape(ref)
		}
		return func(ctx context.Context, i int) error {
			return lc.send(ctx, http.MethodGet, paths[i%len(paths)], nil)
		}, nil
	case "search":
		path = func(int) string { return lc.api + "/search" }
		for _, q := range benchQueries {
			b, _ := json.Marshal(map[string]any{"query": q, "limit": 10})
			bodies = append(bodies, b)
		}
	case "ask":
		path = func(int) string { return lc.api + "/ask" }
		for _, q := range benchQueries {
			b, _ := json.Marshal(map[string]any{"question": q, "maxReferences": 5})
			bodies = append(bodies, b)
		}
	default:
		return nil, fmt.Errorf("bench: unknown endpoint %q (scripture, search or ask)", endpoint)
	}
	return func(ctx context.Context, i int) error {
		return lc.send(ctx, http.MethodPost, path(i), bodies[i%len(bodies)])
	}, nil
}

// send makes one request and fails unless it is answered 200.
func (lc *loadClient) send(ctx context.Context, method, u string, body []byte) error {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return err
	}
	req.Header["Authorization"] = []string{lc.auth}
	req.Header["Accept"] = []string{"application/json"}
	if body != nil {
		req.Header["Content-Type"] = []string{"application/json"}
	}
	res, err := lc.http.Do(req)
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("bench: %s %s: status %d", method, u, res.StatusCode)
	}
	return nil
}

// maxConcurrency is the largest of the runs' concurrencies.
func maxConcurrency(ns []int) int { return max(slices.Max(ns), 1) }
