// Package tasks defines the jobs that travel between the web facade and the
// workers: their task types and queues, typed payloads, and the result
// envelope a worker publishes back. It is the one place that encodes and
// decodes them, so web and worker cannot drift apart.
package tasks

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/selahdev/selah"
)

// Queue names. Each job type has its own queue so a burst of slow asks
// cannot starve searches.
const (
	QueueSearch = "search"
	QueueAsk    = "ask"
)

// Args is a job payload; Kind names its task type (and its queue).
type Args interface {
	Kind() string
}

// Envelope is what the web facade enqueues: the request id (also the task
// id), the channel the result goes to, the deadline, and the typed args.
type Envelope[A Args] struct {
	RequestID string    `json:"requestId"`
	ReplyTo   string    `json:"replyTo"`
	Deadline  time.Time `json:"deadline"`
	Args      A         `json:"args"`
}

// SearchArgs is the payload of a search job.
type SearchArgs struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
}

// Kind implements Args.
func (SearchArgs) Kind() string { return QueueSearch }

// AskArgs is the payload of an ask job.
type AskArgs struct {
	Question      string `json:"question"`
	MaxReferences int    `json:"maxReferences"`
	// Offline forces the extractive generator (test keys, the website).
	Offline bool `json:"offline,omitempty"`
	// Source records where the ask came from ("api" or "web"); it is never
	// shown on answer pages.
	Source string `json:"source,omitempty"`
}

// Kind implements Args.
func (AskArgs) Kind() string { return QueueAsk }

// Encode marshals an envelope.
func Encode[A Args](e Envelope[A]) ([]byte, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("tasks: encode %s: %w", e.Args.Kind(), err)
	}
	return b, nil
}

// Decode unmarshals an envelope of the given args type.
func Decode[A Args](b []byte) (Envelope[A], error) {
	var e Envelope[A]
	if err := json.Unmarshal(b, &e); err != nil {
		return e, fmt.Errorf("tasks: decode: %w", err)
	}
	return e, nil
}

// ErrorPayload is an application error carried in a result.
type ErrorPayload struct {
	Code       string `json:"code"`
	Message    string `json:"message"`
	RetryAfter int    `json:"retryAfter,omitempty"`
}

// Result is what a worker publishes on the envelope's ReplyTo channel.
type Result struct {
	RequestID string          `json:"requestId"`
	Body      json.RawMessage `json:"body,omitempty"`
	Error     *ErrorPayload   `json:"error,omitempty"`
}

// NewResult builds the result of a job: the JSON body on success, or the
// error as its code and public message (internal details stay in the
// worker's log).
func NewResult(requestID string, body any, err error) Result {
	r := Result{RequestID: requestID}
	if err != nil {
		r.Error = &ErrorPayload{Code: selah.ErrorCode(err), Message: selah.ErrorMessage(err)}
		if ae, ok := err.(*selah.Error); ok {
			r.Error.RetryAfter = ae.RetryAfter
		}
		return r
	}
	b, merr := json.Marshal(body)
	if merr != nil {
		r.Error = &ErrorPayload{Code: selah.EINTERNAL, Message: selah.ErrorMessage(merr)}
		return r
	}
	r.Body = b
	return r
}

// Err returns the result's error as a *selah.Error, or nil.
func (r Result) Err() error {
	if r.Error == nil {
		return nil
	}
	return &selah.Error{Code: r.Error.Code, Message: r.Error.Message, RetryAfter: r.Error.RetryAfter}
}

// Liveness: each worker process keeps a member in a sorted set per queue,
// scored by when its heartbeat lapses. The web facade counts members whose
// score is in the future to answer 503 at once when no worker serves a queue.
const (
	HeartbeatEvery = time.Second
	HeartbeatTTL   = 3 * time.Second
)

// WorkersKey is the Redis sorted set of live workers serving queue.
func WorkersKey(queue string) string { return "selah:workers:" + queue }

// ReplyChannel is the pub/sub channel of one web process.
func ReplyChannel(instance string) string { return "selah:results:" + instance }
