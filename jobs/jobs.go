// Package jobs is the contract between the web processes and the workers:
// the task kinds and their queues, the typed arguments and results, the
// envelope and result that carry them through Redis, the worker liveness
// keys, and the call (Client, Call) that enqueues a job and waits for its
// result. It is the one place that encodes and decodes them, so web and
// worker cannot drift apart; the worker package holds only the Asynq
// server and the handlers.
//
// Arguments follow river's JobArgs: each type names its own kind
// (Args.Kind), which is also its Asynq task type and queue.
package jobs

import (
	"encoding/json"
	"fmt"
	"time"

	"errors"
	"github.com/selahdev/selah"
	"github.com/selahdev/selah/api"
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

// Header is the part of every job that is not its args: the request id
// (also the task id), the channel the result goes to and the key that
// routes it to the waiting call, when it was enqueued (for the queue-wait
// metric), and the deadline.
//
// ReplyKey is fresh for every call, unlike the request id, which a client
// may send again (X-Request-Id) after a timeout: a late result of the
// first call must not answer the second.
type Header struct {
	RequestID  string    `json:"requestId"`
	ReplyTo    string    `json:"replyTo"`
	ReplyKey   string    `json:"replyKey"`
	EnqueuedAt time.Time `json:"enqueuedAt"`
	Deadline   time.Time `json:"deadline"`
}

// Envelope is what the web facade enqueues: the header and the typed args.
type Envelope[A Args] struct {
	Header
	Args A `json:"args"`
}

// SearchArgs is the payload of a search job.
type SearchArgs struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
}

// Kind implements Args.
func (SearchArgs) Kind() string { return QueueSearch }

// Where an ask came from.
const (
	SourceAPI = "api"
	SourceWeb = "web"
	// SourceChat is the website's chat: its answers are private to the
	// conversation, so the worker stores no public answer page for them.
	SourceChat = "chat"
)

// AskArgs is the payload of an ask job.
type AskArgs struct {
	Question      string `json:"question"`
	MaxReferences int    `json:"maxReferences"`
	// Offline forces the extractive generator (test keys, the website).
	Offline bool `json:"offline,omitempty"`
	// Source records where the ask came from (SourceAPI, SourceWeb or
	// SourceChat); it is never shown on answer pages.
	Source string `json:"source"`
	// Context are the earlier turns of a chat conversation, oldest first,
	// so a follow-up ("Whom did she marry?") is read in its conversation.
	Context []Turn `json:"context,omitempty"`
}

// Turn is an earlier turn of a conversation: the question and the
// references its answer cited.
type Turn struct {
	Question   string   `json:"question"`
	References []string `json:"references,omitempty"`
}

// Kind implements Args.
func (AskArgs) Kind() string { return QueueAsk }

// The result body of a search job is an api.SearchResponse, which the web
// process sends on as it is.

// AskResult is the result body of an ask job: the response without its
// canonical link, and the id of the stored answer (empty for a chat reply,
// which is not stored). Workers return data, not addresses: the web
// process, which knows its public URL, makes the link from AnswerID.
type AskResult struct {
	api.AskResponse
	AnswerID string `json:"answerId,omitempty"`
}

// Encode marshals an envelope.
func Encode[A Args](e Envelope[A]) ([]byte, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("jobs: encode %s: %w", e.Args.Kind(), err)
	}
	return b, nil
}

// DecodeHeader unmarshals a job's header and leaves its args raw for the
// handler of its type, which decodes them with DecodeArgs.
func DecodeHeader(b []byte) (Header, json.RawMessage, error) {
	var e struct {
		Header
		Args json.RawMessage `json:"args"`
	}
	if err := json.Unmarshal(b, &e); err != nil {
		return e.Header, nil, fmt.Errorf("jobs: decode: %w", err)
	}
	if e.RequestID == "" || e.ReplyTo == "" || e.ReplyKey == "" {
		return e.Header, nil, fmt.Errorf("jobs: decode: incomplete header")
	}
	return e.Header, e.Args, nil
}

// DecodeArgs unmarshals a job's args.
func DecodeArgs[A Args](raw json.RawMessage) (A, error) {
	var a A
	if err := json.Unmarshal(raw, &a); err != nil {
		return a, fmt.Errorf("jobs: decode %s args: %w", a.Kind(), err)
	}
	return a, nil
}

// ErrorPayload is an application error carried in a result.
type ErrorPayload struct {
	Code       string `json:"code"`
	Message    string `json:"message"`
	RetryAfter int    `json:"retryAfter,omitempty"`
}

// Result is what a worker publishes on the envelope's ReplyTo channel,
// addressed by the envelope's ReplyKey.
type Result struct {
	ReplyKey  string          `json:"replyKey"`
	RequestID string          `json:"requestId"`
	Body      json.RawMessage `json:"body,omitempty"`
	Error     *ErrorPayload   `json:"error,omitempty"`
}

// NewResult builds the result of a job: the JSON body on success, or the
// error as its code and public message (internal details stay in the
// worker's log).
func NewResult(h Header, body any, err error) Result {
	r := Result{ReplyKey: h.ReplyKey, RequestID: h.RequestID}
	if err != nil {
		r.Error = &ErrorPayload{Code: selah.ErrorCode(err), Message: selah.ErrorMessage(err)}
		// errors.As, not a type assertion: a handler may wrap its
		// *selah.Error, and the Retry-After must survive the wrapping.
		var ae *selah.Error
		if errors.As(err, &ae) {
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
