// Package selah holds what every part of the service shares: the application
// error type whose codes the web layer maps to HTTP statuses in one place.
package selah

import (
	"context"
	"errors"
	"fmt"
)

// Error codes. They are part of the public API: clients switch on them, so a
// code never changes meaning once shipped.
const (
	EINTERNAL            = "internal_error"
	EINVALID             = "invalid_request"
	EINVALIDREF          = "invalid_reference"
	EPASSAGENOTFOUND     = "passage_not_found"
	EPASSAGETOOLARGE     = "passage_too_large"
	ETOPICNOTFOUND       = "topic_not_found"
	EWORDNOTFOUND        = "word_not_found"
	ENOTFOUND            = "not_found"
	EMETHOD              = "method_not_allowed"
	EUNSUPPORTEDMEDIA    = "unsupported_media_type"
	ETOOLARGE            = "request_too_large"
	EHEADERSTOOLARGE     = "headers_too_large"
	EREQUESTTIMEOUT      = "request_timeout"
	EMISSINGKEY          = "missing_api_key"
	EINVALIDKEY          = "invalid_api_key"
	EKEYREVOKED          = "key_revoked"
	EKEYDISABLED         = "key_disabled"
	EKEYEXPIRED          = "key_expired"
	EACCOUNTDISABLED     = "account_disabled"
	ERATELIMITED         = "rate_limited"
	ECONCURRENCY         = "concurrency_limited"
	EQUOTA               = "quota_exceeded"
	ETIMEOUT             = "timeout"
	EWORKERSUNAVAILABLE  = "workers_unavailable"
	EEMBEDDERUNAVAILABLE = "embedder_unavailable"
	EUNAVAILABLE         = "service_unavailable"
	EUNAUTHORIZED        = "unauthorized"
	EFORBIDDEN           = "forbidden"
	ECONFLICT            = "conflict"
)

// Error is an error meant for the caller: a stable machine code and a human
// message that is safe to show. Anything that is not an *Error is reported as
// an internal error and its text goes to the log only.
type Error struct {
	Code    string
	Message string
	// RetryAfter, when positive, is the number of seconds a client should
	// wait before retrying (Retry-After).
	RetryAfter int
}

func (e *Error) Error() string {
	return fmt.Sprintf("selah error: code=%s message=%s", e.Code, e.Message)
}

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrNotFound is what a lookup returns when nothing matches: the store
// translates its driver's "no rows" into it at the edge (as pkgsite's
// derrors.NotFound), so callers test errors.Is(err, selah.ErrNotFound)
// and never a driver error. Unhandled, it is a plain not_found.
var ErrNotFound = &Error{Code: ENOTFOUND, Message: "Not found."}

// errUnavailable is what a caller is told when a dependency (the database,
// Redis) cannot be reached: retryable, with a short Retry-After.
func errUnavailable() *Error {
	return &Error{Code: EUNAVAILABLE, Message: "The service is temporarily unavailable. Try again shortly.", RetryAfter: 2}
}

// PublicError turns an infrastructure failure into the error a caller is
// shown; web's error handler and the worker's job runner both pass every
// error through it, so the two cannot word or time it differently. nil and
// errors that already carry an *Error are returned as they are. A deadline
// that ran out is ETIMEOUT when job names the job whose deadline it was ("":
// not a job, and an HTTP request's own deadline stays an internal error).
// An error unreachable reports as a dependency that could not be reached
// is EUNAVAILABLE with Retry-After 2 (the root package knows no drivers:
// the caller's unreachable does, e.g. store.Unavailable). Anything else is
// returned unchanged, to be reported as internal.
func PublicError(err error, job string, unreachable func(error) bool) error {
	if err == nil || ErrorCode(err) != EINTERNAL {
		return err
	}
	if job != "" && errors.Is(err, context.DeadlineExceeded) {
		return Errorf(ETIMEOUT, "The %s job did not finish in time.", job)
	}
	if unreachable != nil && unreachable(err) {
		return errUnavailable()
	}
	return err
}

// ErrorCode returns the code of the *Error in err's chain, EINTERNAL for any
// other error, and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the message of the *Error in err's chain, or a generic
// message that reveals nothing of an internal error.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "An internal error occurred."
}
