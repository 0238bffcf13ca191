package web

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
)

// MaxReferencesText bounds the text of POST /references (Unicode code
// points).
const MaxReferencesText = 10_000

type referencesRequest struct {
	Text *string `json:"text"`
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
	res := api.ReferencesResponse{References: []api.FoundReference{}, Invalid: []api.InvalidReference{}, RequestID: RequestID(c)}
	u := utf16Offsets(text)
	for _, m := range corpus.FindReferences(text) {
		if m.Err != nil {
			res.Invalid = append(res.Invalid, api.InvalidReference{Text: m.Text, Start: u(m.Start), End: u(m.End),
				Code: selah.ErrorCode(m.Err), Message: selah.ErrorMessage(m.Err)})
			continue
		}
		ref := m.Reference.String()
		res.References = append(res.References, api.FoundReference{Text: m.Text, Start: u(m.Start), End: u(m.End),
			Reference: ref, URL: api.ScriptureURL(ref)})
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
