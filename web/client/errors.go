package client

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Error is a response other than success from the API. Code is the API's
// error code (see web/openapi.yaml: rate_limited, invalid_api_key, ...),
// empty when the response was not a selah error body (a proxy's error page,
// say). It never holds the API key.
type Error struct {
	Status    int
	Code      string
	Message   string
	RequestID string
	// RetryAfter is the Retry-After header: how long to wait before a
	// retry can succeed (429s always, some 503s); 0 when absent.
	RetryAfter time.Duration
	// Limits are the limit headers of the response.
	Limits Limits
}

func (e *Error) Error() string {
	s := fmt.Sprintf("selah API: %d", e.Status)
	if e.Code != "" {
		s += " " + e.Code
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(" (retry after %s)", e.RetryAfter)
	}
	if e.RequestID != "" {
		s += " [request " + e.RequestID + "]"
	}
	return s
}

// errorOf builds the *Error of a failed response.
func errorOf(res *http.Response, raw []byte, m Meta) error {
	e := &Error{Status: res.StatusCode, RequestID: m.RequestID, Limits: m.Limits,
		RetryAfter: seconds(headerInt(res.Header, "Retry-After"))}
	if e.RetryAfter < 0 {
		e.RetryAfter = 0
	}
	var body struct {
		Error struct {
			Code      string `json:"code"`
			Message   string `json:"message"`
			RequestID string `json:"requestId"`
		} `json:"error"`
	}
	if isJSON(res.Header.Get("Content-Type")) && json.Unmarshal(raw, &body) == nil && body.Error.Code != "" {
		e.Code, e.Message = body.Error.Code, body.Error.Message
		if e.RequestID == "" {
			e.RequestID = body.Error.RequestID
		}
		return e
	}
	e.Message = "unexpected response: " + http.StatusText(res.StatusCode)
	return e
}

// unexpected is a success status whose body is not JSON.
func unexpected(res *http.Response, m Meta) error {
	return &Error{Status: res.StatusCode, RequestID: m.RequestID, Limits: m.Limits,
		Message: fmt.Sprintf("unexpected %q response", res.Header.Get("Content-Type"))}
}
