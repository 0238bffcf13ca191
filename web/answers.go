package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/jobs"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/limits"
	"github.com/selahdev/selah/web/reqlog"
)

// DefaultSiteAsksPerDay is the website's anonymous Ask quota per client
// address and UTC day. It is separate from every API plan: the website
// never uses API keys, and API keys never draw on it.
const DefaultSiteAsksPerDay = 10

// answerPage serves GET /answers/{id}: the public page of an answer, or its
// JSON when the client asks for application/json first.
func (s *Server) answerPage(c *fiber.Ctx) error {
	rec, err := s.store.AnswerByID(c.UserContext(), c.Params("id"))
	if errors.Is(err, selah.ErrNotFound) {
		return selah.Errorf(selah.ENOTFOUND, "There is no such answer.")
	}
	if err != nil {
		return err
	}
	page := api.AnswerPage{ID: rec.ID, Question: rec.Question, Answer: rec.Answer, Summary: rec.Summary,
		References: []api.CitedPassage{}, Topics: []api.TopicLink{}, Words: rec.Words,
		CanonicalURL: s.answerURL(c, rec.ID), GeneratedAt: rec.CreatedAt.UTC(), Generator: rec.Generator,
		Grounded: rec.Generator != pipeline.GeneratorNone}
	for _, r := range rec.Refs {
		p, err := s.passage(c.UserContext(), r)
		if err != nil {
			return err
		}
		page.References = append(page.References, p)
	}
	for _, t := range rec.Topics {
		page.Topics = append(page.Topics, api.LinkTopic(t.Slug, t.Title))
	}
	if c.Accepts(fiber.MIMETextHTML, fiber.MIMEApplicationJSON) == fiber.MIMEApplicationJSON {
		c.Set(fiber.HeaderVary, fiber.HeaderAccept)
		return c.JSON(page)
	}
	c.Set(fiber.HeaderVary, fiber.HeaderAccept)
	return s.renderPage(c, fiber.StatusOK, "answer", page)
}

// passage reads a cited passage's text (from memory, see passageSource).
func (s *Server) passage(ctx context.Context, r store.AnswerRef) (api.CitedPassage, error) {
	ref, err := corpus.ReferenceForRange(r.First, r.Last)
	if err != nil {
		return api.CitedPassage{}, fmt.Errorf("web: answer reference %s: %w", r.Reference, err)
	}
	vs, err := s.text.VerseRange(ctx, r.First, r.Last)
	if err != nil {
		return api.CitedPassage{}, err
	}
	return api.Cite(ref, joinText(vs)), nil
}

// askPage is the website's ask form.
type askPage struct {
	Question string
	Error    string
	Left     int // asks left today for this visitor
}

// siteAskForm serves GET /ask.
func (s *Server) siteAskForm(c *fiber.Ctx) error {
	return s.renderPage(c, fiber.StatusOK, "ask", askPage{Left: s.siteAsksLeft(c)})
}

// siteAsk serves POST /ask: the same pipeline as the API, through the same
// queue, under the website's own per-address daily quota. It redirects to
// the answer's page, so reloading it does not ask again.
func (s *Server) siteAsk(c *fiber.Ctx) error {
	q := strings.TrimSpace(c.FormValue("question"))
	show := func(status int, msg string) error {
		return s.renderPage(c, status, "ask", askPage{Question: q, Error: msg, Left: s.siteAsksLeft(c)})
	}
	if q == "" {
		return show(fiber.StatusBadRequest, "Please write a question.")
	}
	if n := len([]rune(q)); n > selah.MaxQuestionLength {
		return show(fiber.StatusBadRequest, fmt.Sprintf("The question is %d characters long; the limit is %d.", n, selah.MaxQuestionLength))
	}
	release, err := s.takeSiteAsk(c)
	if err != nil {
		var ae *selah.Error
		if errors.As(err, &ae) {
			setRetryAfter(c, ae)
			return show(fiber.StatusTooManyRequests, ae.Message)
		}
		return err
	}
	args := jobs.AskArgs{Question: q, MaxReferences: selah.DefaultMaxReferences, Offline: true, Source: jobs.SourceWeb}
	res, err := s.callAsk(c.UserContext(), RequestID(c), args)
	if err != nil {
		release()
		var ae *selah.Error
		if errors.As(err, &ae) && ae.Code != selah.EINTERNAL {
			return show(StatusOf(ae.Code), ae.Message)
		}
		return err
	}
	return c.Redirect(answerPath(res.AnswerID), fiber.StatusSeeOther)
}

// siteAskQuotaName names the website's Ask allowance in web/limits.
const siteAskQuotaName = "site-asks"

// siteAskSubjects are what a website ask counts against: the client
// address, per UTC day.
func (s *Server) siteAskSubjects(c *fiber.Ctx) []limits.Subject {
	return []limits.Subject{{ID: "addr:" + c.IP(), Limit: s.cfg.SiteAsksPerDay}}
}

// takeSiteAsk counts one website ask for the client's address today and
// returns the function that gives it back (an ask that failed is not
// counted). Over the quota it is a quota_exceeded error until the next
// UTC midnight. The count is web/limits' counter, taken in one script, so
// concurrent asks never over-admit.
func (s *Server) takeSiteAsk(c *fiber.Ctx) (release func(), err error) {
	ctx := c.UserContext()
	taken, err := s.limits.Take(ctx, siteAskQuotaName, 24*time.Hour, s.siteAskSubjects(c))
	if err != nil {
		var ae *selah.Error
		if !errors.As(err, &ae) || ae.Code != selah.EQUOTA {
			return nil, limitsUnavailable(c, err)
		}
		s.metrics.rejected(selah.EQUOTA)
		return nil, &selah.Error{Code: selah.EQUOTA, RetryAfter: ae.RetryAfter,
			Message: fmt.Sprintf("You have asked %d questions today, the website's daily limit. Come back after midnight UTC, or use the API with a key.", s.cfg.SiteAsksPerDay)}
	}
	return func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
		defer cancel()
		if err := s.limits.GiveBack(rctx, taken); err != nil {
			reqlog.From(c).Warn("release website ask", slog.String("error", err.Error()))
		}
	}, nil
}

// siteAsksLeft is how many website asks the client has left today.
func (s *Server) siteAsksLeft(c *fiber.Ctx) int {
	n, _, err := s.limits.Left(c.UserContext(), siteAskQuotaName, 24*time.Hour, s.siteAskSubjects(c))
	if err != nil {
		return 0
	}
	return n
}
