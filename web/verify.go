package web

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/verify"
)

// MaxQuoteLength bounds the quote of POST /verify (Unicode code points):
// a long paragraph, more than any three verses.
const MaxQuoteLength = 2000

type verifyRequest struct {
	Quote     *string `json:"quote"`
	Reference *string `json:"reference"`
}

// verifier holds the quote index, built from the database once.
type verifier struct {
	mu sync.Mutex
	ix *verify.Index
}

// verifyIndex returns the index, building it on first use. A failed build
// is retried by the next call.
func (s *Server) verifyIndex(ctx context.Context) (*verify.Index, error) {
	v := &s.verifier
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.ix != nil {
		return v.ix, nil
	}
	rows, err := s.store.IndexTexts(ctx)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, selah.Errorf(selah.EUNAVAILABLE, "The corpus is not loaded.")
	}
	texts := make([]verify.Text, len(rows))
	for i, r := range rows {
		texts[i] = verify.Text{ID: r.ID, KJV: r.Text, WEB: r.WebText}
	}
	v.ix = verify.New(texts)
	return v.ix, nil
}

// WarmVerify builds the quote index of POST /verify now rather than on the
// first call; serve calls it at start.
func (s *Server) WarmVerify(ctx context.Context) {
	start := time.Now()
	if _, err := s.verifyIndex(ctx); err != nil {
		s.log.Warn("build quote index", slog.String("error", err.Error()))
		return
	}
	s.log.Info("quote index built", slog.Duration("duration", time.Since(start)))
}

// verifyQuote serves POST /verify.
func (s *Server) verifyQuote(c *fiber.Ctx) error {
	var req verifyRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	quote, err := requiredText("quote", req.Quote, MaxQuoteLength)
	if err != nil {
		return err
	}
	var claimed *corpus.Reference
	if req.Reference != nil {
		r, err := requiredText("reference", req.Reference, 200)
		if err != nil {
			return err
		}
		ref, err := corpus.ParseReference(r)
		if err != nil {
			return err
		}
		claimed = &ref
	}
	ix, err := s.verifyIndex(c.UserContext())
	if err != nil {
		return fmt.Errorf("web: verify: %w", err)
	}
	r := ix.Verify(quote, claimed)
	res := api.VerifyResponse{Quote: quote, Match: string(r.Level), Similarity: r.Similarity, RequestID: RequestID(c)}
	if r.Level != verify.None {
		ref, text, url := r.Found.String(), r.Text, api.ScriptureURL(r.Found.String())
		res.Reference, res.Text, res.URL = &ref, &text, &url
	}
	if claimed != nil {
		cr, holds := claimed.String(), r.ClaimedHolds
		res.ClaimedReference, res.ClaimedHolds = &cr, &holds
	}
	return c.JSON(res)
}
