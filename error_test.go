package selah_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/selahdev/selah"
)

func TestPublicError(t *testing.T) {
	t.Parallel()
	down := func(err error) bool { return errors.Is(err, io.ErrUnexpectedEOF) }
	invalid := selah.Errorf(selah.EINVALID, "bad")
	deadline := fmt.Errorf("store: load: %w", context.DeadlineExceeded)
	for _, tt := range []struct {
		name       string
		err        error
		job        string
		code       string
		retryAfter int
	}{
		{name: "nil", err: nil, code: ""},
		{name: "application error kept", err: fmt.Errorf("wrapped: %w", invalid), job: "ask", code: selah.EINVALID},
		{name: "job deadline", err: deadline, job: "ask", code: selah.ETIMEOUT},
		{name: "request deadline stays internal", err: deadline, code: selah.EINTERNAL},
		{name: "unreachable", err: fmt.Errorf("store: query: %w", io.ErrUnexpectedEOF), code: selah.EUNAVAILABLE, retryAfter: 2},
		{name: "unreachable in a job", err: io.ErrUnexpectedEOF, job: "search", code: selah.EUNAVAILABLE, retryAfter: 2},
		{name: "other failure stays internal", err: errors.New("boom"), job: "ask", code: selah.EINTERNAL},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := selah.PublicError(tt.err, tt.job, down)
			if code := selah.ErrorCode(got); code != tt.code {
				t.Fatalf("code %q, want %q (%v)", code, tt.code, got)
			}
			var ae *selah.Error
			if errors.As(got, &ae) && ae.RetryAfter != tt.retryAfter {
				t.Errorf("RetryAfter %d, want %d", ae.RetryAfter, tt.retryAfter)
			}
			if tt.code == selah.EINTERNAL && got != tt.err {
				t.Errorf("internal error replaced: %v", got)
			}
		})
	}
	if got := selah.PublicError(deadline, "ask", nil); selah.ErrorCode(got) != selah.ETIMEOUT {
		t.Errorf("no unreachable func: %v", got)
	}
}

// TestErrNotFound: the domain's not-found survives wrapping and is a
// not_found for a caller that does not handle it.
func TestErrNotFound(t *testing.T) {
	t.Parallel()
	err := fmt.Errorf("store: answer x: %w", selah.ErrNotFound)
	if !errors.Is(err, selah.ErrNotFound) {
		t.Fatal("errors.Is lost the sentinel")
	}
	if code := selah.ErrorCode(err); code != selah.ENOTFOUND {
		t.Errorf("code %q", code)
	}
}
