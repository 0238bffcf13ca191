package selah

import (
	"strings"
	"unicode/utf8"
)

// Request bounds of the API (api-spec section 8). They are held here, once,
// because four places enforce or describe them: the API handlers, the
// website's forms, the MCP server's tool schemas and the pipeline's
// Answerer. web/openapi.yaml states the same numbers and a test there keeps
// it honest.
const (
	// MaxQueryLength bounds a search query, in characters.
	MaxQueryLength = 500
	// DefaultSearchLimit and MaxSearchLimit are a search's number of
	// results when none is asked for, and the most that may be.
	DefaultSearchLimit = 10
	MaxSearchLimit     = 20

	// MaxQuestionLength bounds an Ask question (and a chat message), in
	// characters.
	MaxQuestionLength = 1000
	// DefaultMaxReferences and MaxMaxReferences are how many references
	// an answer may cite when the caller does not say, and at most.
	DefaultMaxReferences = 5
	MaxMaxReferences     = 8
)

// CheckAsk validates an Ask, the one place its bounds are checked: the
// question, trimmed, must be 1 to MaxQuestionLength characters and
// maxReferences 1 to MaxMaxReferences (callers put DefaultMaxReferences in
// for an absent value). It returns the trimmed question, or an EINVALID
// error that names the API's field.
func CheckAsk(question string, maxReferences int) (string, error) {
	q := strings.TrimSpace(question)
	if q == "" {
		return "", Errorf(EINVALID, "Field %q must not be empty.", "question")
	}
	if n := utf8.RuneCountInString(q); n > MaxQuestionLength {
		return "", Errorf(EINVALID, "Field %q is %d characters long; the maximum is %d.", "question", n, MaxQuestionLength)
	}
	if maxReferences < 1 || maxReferences > MaxMaxReferences {
		return "", Errorf(EINVALID, "Field %q must be between %d and %d.", "maxReferences", 1, MaxMaxReferences)
	}
	return q, nil
}
