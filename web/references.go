package web

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/worker/tasks"
)

// MaxReferencesText bounds the text of POST /references (Unicode code
// points).
const MaxReferencesText = 10_000

type referencesRequest struct {
	Text *string `json:"text"`
}

// FoundReference is a reference found in the text. Start and End are
// offsets in UTF-16 code units, End exclusive: what JavaScript's
// String.prototype.slice and the DOM's Range take.
type FoundReference struct {
	Text      string `json:"text"`
	Start     int    `json:"start"`
	End       int    `json:"end"`
	Reference string `json:"reference"`
	URL       string `json:"url"`
}

// InvalidReference is a mention that names a book but no KJV passage.
type InvalidReference struct {
	Text    string `json:"text"`
	Start   int    `json:"start"`
	End     int    `json:"end"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// ReferencesResponse is the body of POST /references.
type ReferencesResponse struct {
	References []FoundReference   `json:"references"`
	Invalid    []InvalidReference `json:"invalid"`
	RequestID  string             `json:"requestId"`
}

// references serves POST /references.
func (s *Server) references(c *fiber.Ctx) error {
	var req referencesRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if req.Text == nil {
		return selah.Errorf(selah.EINVALID, "Field %q is required.", "text")
	}
	text := *req.Text
	if n := utf8.RuneCountInString(text); n > MaxReferencesText {
		return selah.Errorf(selah.EINVALID, "Field %q is %d characters long; the maximum is %d.", "text", n, MaxReferencesText)
	}
	res := ReferencesResponse{References: []FoundReference{}, Invalid: []InvalidReference{}, RequestID: RequestID(c)}
	u := utf16Offsets(text)
	for _, m := range corpus.FindReferences(text) {
		if m.Err != nil {
			res.Invalid = append(res.Invalid, InvalidReference{Text: m.Text, Start: u(m.Start), End: u(m.End),
				Code: selah.ErrorCode(m.Err), Message: selah.ErrorMessage(m.Err)})
			continue
		}
		ref := m.Reference.String()
		res.References = append(res.References, FoundReference{Text: m.Text, Start: u(m.Start), End: u(m.End),
			Reference: ref, URL: tasks.ScriptureURL(ref)})
	}
	return c.JSON(res)
}

// utf16Offsets returns a function from byte offsets of s (at rune
// boundaries, ascending or not) to UTF-16 code unit offsets.
func utf16Offsets(s string) func(int) int {
	idx := make([]int, len(s)+1)
	n := 0
	for i, r := range s {
		idx[i] = n
		n += utf16.RuneLen(max(r, 0))
	}
	idx[len(s)] = n
	return func(b int) int { return idx[b] }
}
