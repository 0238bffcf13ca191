package web

import (
	"context"
	"errors"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
)

// The verses of GET /words/{number} come a page at a time: G2532 ("and")
// is in 8,000 verses.
const (
	defaultWordVerses = 20
	maxWordVerses     = 100
	// maxWordOffset bounds offset by the largest verse count of any
	// number with room to spare; past the verses a page is empty.
	maxWordOffset = 40000
)

// word serves GET /words/{number}: a Strong's entry with the KJV's words
// for it and a page of the verses that translate it.
func (s *Server) word(c *fiber.Ctx) error {
	limit, err := queryInt(c, "limit", defaultWordVerses, 1, maxWordVerses)
	if err != nil {
		return err
	}
	offset, err := queryInt(c, "offset", 0, 0, maxWordOffset)
	if err != nil {
		return err
	}
	res, err := s.wordDetail(c.UserContext(), c.Params("number"), limit, offset)
	if err != nil {
		return err
	}
	return s.sendCacheable(c, &res, func(id string) { res.RequestID = id })
}

// wordDetail reads a Strong's entry for the API and the website.
func (s *Server) wordDetail(ctx context.Context, raw string, limit, offset int) (api.WordResponse, error) {
	number, ok := corpus.StrongsNumber(raw)
	if !ok {
		return api.WordResponse{}, selah.Errorf(selah.EINVALID,
			"%q is not a Strong's number: write G (Greek) or H (Hebrew) and the number, e.g. G26 or H7965.", truncate(raw, 20))
	}
	l, err := s.store.Lemma(ctx, number)
	if errors.Is(err, selah.ErrNotFound) {
		return api.WordResponse{}, selah.Errorf(selah.EWORDNOTFOUND,
			"Strong's dictionary has no %s (Hebrew runs to H8674, Greek to G5624).", number)
	}
	if err != nil {
		return api.WordResponse{}, err
	}
	uses, err := s.store.LemmaUses(ctx, number, limit, offset)
	if err != nil {
		return api.WordResponse{}, err
	}
	verses, err := s.text.VersesByID(ctx, uses.Verses)
	if err != nil {
		return api.WordResponse{}, err
	}
	res := api.WordResponse{Word: api.Word(l, uses.Uses), KJVWords: make([]api.KJVWord, len(uses.Renderings)),
		VerseCount: uses.VerseCount, Offset: offset, Limit: limit, Verses: make([]api.CitedPassage, 0, len(verses))}
	for i, r := range uses.Renderings {
		res.KJVWords[i] = api.KJVWord{Word: r.Word, Count: r.Count}
	}
	for _, v := range verses {
		ref, err := corpus.ReferenceForRange(v.ID, v.ID)
		if err != nil {
			return api.WordResponse{}, err
		}
		res.Verses = append(res.Verses, api.Cite(ref, v.Text))
	}
	return res, nil
}

// siteWord serves a Strong's entry's page on the website, GET
// /words/{number}: the entry and the first verses, each linked to the
// reader.
func (s *Server) siteWord(c *fiber.Ctx) error {
	offset, err := queryInt(c, "offset", 0, 0, maxWordOffset)
	if err != nil {
		return err
	}
	res, err := s.wordDetail(c.UserContext(), c.Params("number"), maxWordVerses, offset)
	if err != nil {
		return err
	}
	page := wordPage{WordResponse: res, Previous: -1, Next: -1}
	if offset > 0 {
		page.Previous = max(offset-maxWordVerses, 0)
	}
	if offset+len(res.Verses) < res.VerseCount {
		page.Next = offset + len(res.Verses)
	}
	return s.renderPage(c, fiber.StatusOK, "word", page)
}

// wordPage is a Strong's entry's web page: Previous and Next are the
// offsets of the neighbouring pages of verses, -1 where there is none.
type wordPage struct {
	api.WordResponse
	Previous, Next int
}

// queryInt reads an optional integer query parameter within [min, max].
func queryInt(c *fiber.Ctx, name string, def, min, max int) (int, error) {
	raw := c.Query(name)
	if raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < min || n > max {
		return 0, selah.Errorf(selah.EINVALID, "Query parameter %q must be a whole number between %d and %d.", name, min, max)
	}
	return n, nil
}
