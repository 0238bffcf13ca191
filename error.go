// Package selah holds what every part of the service shares: the application
// error type whose codes the web layer maps to HTTP statuses in one place.
package selah

import (
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
	ENOTFOUND            = "not_found"
	EMETHOD              = "method_not_allowed"
	EUNSUPPORTEDMEDIA    = "unsupported_media_type"
	ETOOLARGE            = "request_too_large"
	EHEADERSTOOLARGE     = "headers_too_large"
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
