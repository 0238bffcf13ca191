package jobs_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/jobs"
)

// TestNewResultKeepsRetryAfter: a handler's wrapped *selah.Error reaches
// the caller with its Retry-After (a type assertion used to drop it).
func TestNewResultKeepsRetryAfter(t *testing.T) {
	t.Parallel()
	err := fmt.Errorf("worker: ask: %w", &selah.Error{Code: selah.EUNAVAILABLE, Message: "later", RetryAfter: 7})
	r := jobs.NewResult(jobs.Header{RequestID: "req_1"}, nil, err)
	if r.Error == nil || r.Error.Code != selah.EUNAVAILABLE || r.Error.RetryAfter != 7 {
		t.Fatalf("result error %+v", r.Error)
	}
	var ae *selah.Error
	if got := r.Err(); !errors.As(got, &ae) || ae.RetryAfter != 7 {
		t.Errorf("Err() = %v", got)
	}
}
