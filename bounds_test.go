package selah_test

import (
	"strings"
	"testing"

	"github.com/selahdev/selah"
)

func TestCheckAsk(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", selah.MaxQuestionLength)
	for _, tt := range []struct {
		name, question string
		refs           int
		want, msg      string // msg: part of the error message, "" for none
	}{
		{name: "trimmed", question: "  Who was Ruth? ", refs: 1, want: "Who was Ruth?"},
		{name: "longest, in characters not bytes", question: long, refs: selah.MaxMaxReferences, want: long},
		{name: "empty", question: " \t", refs: 3, msg: `"question" must not be empty`},
		{name: "too long", question: long + "x", refs: 3, msg: "1001 characters long; the maximum is 1000"},
		{name: "no references", question: "q", refs: 0, msg: `"maxReferences" must be between 1 and 8`},
		{name: "too many references", question: "q", refs: selah.MaxMaxReferences + 1, msg: "between 1 and 8"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := selah.CheckAsk(tt.question, tt.refs)
			if tt.msg == "" {
				if err != nil || got != tt.want {
					t.Fatalf("CheckAsk = %q, %v; want %q", got, err, tt.want)
				}
				return
			}
			if selah.ErrorCode(err) != selah.EINVALID || !strings.Contains(selah.ErrorMessage(err), tt.msg) {
				t.Fatalf("error %v, want invalid_request with %q", err, tt.msg)
			}
		})
	}
}
