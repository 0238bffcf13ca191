package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/jobs"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store"
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
		References: []api.CitedPassage{}, Topics: []api.TopicLink{},
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
			c.Set(fiber.HeaderRetryAfter, fmt.Sprint(ae.RetryAfter))
			return show(fiber.StatusTooManyRequests, ae.Message)
		}
		return err
	}
	args := jobs.AskArgs{Question: q, MaxReferences: selah.DefaultMaxReferences, Offline: true, Source: jobs.SourceWeb}
	body, err := jobs.Call(c.UserContext(), s.queue, RequestID(c), args, s.cfg.AskTimeout)
	if err != nil {
		release()
		var ae *selah.Error
		if errors.As(err, &ae) && ae.Code != selah.EINTERNAL {
			return show(StatusOf(ae.Code), ae.Message)
		}
		return err
	}
	var res jobs.AskResult
	if err := json.Unmarshal(body, &res); err != nil {
		return fmt.Errorf("web: ask result: %w", err)
	}
	if res.AnswerID == "" {
		return fmt.Errorf("web: ask result has no answer id")
	}
	return c.Redirect(answerPath(res.AnswerID), fiber.StatusSeeOther)
}

// siteAskKey is the Redis counter of one client address's website asks on
// the UTC day of now.
func (s *Server) siteAskKey(c *fiber.Ctx, now time.Time) string {
	return "selah:site-asks:" + now.UTC().Format("2006-01-02") + ":" + c.IP()
}

// takeSiteAsk counts one website ask for the client's address today and
// returns the function that gives it back (an ask that failed is not
// counted). Over the quota it is a quota_exceeded error until the next
// UTC midnight. INCR is atomic, so concurrent asks never over-admit.
func (s *Server) takeSiteAsk(c *fiber.Ctx) (release func(), err error) {
	now := s.now()
	key := s.siteAskKey(c, now)
	limit := s.siteAsksPerDay()
	ctx := c.UserContext()
	n, err := s.redis.Incr(ctx, key).Result()
	if err != nil {
		return nil, limitsUnavailable(c, err)
	}
	if n == 1 {
		s.redis.Expire(ctx, key, 26*time.Hour)
	}
	release = func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
		defer cancel()
		if err := s.redis.Decr(rctx, key).Err(); err != nil {
			logger(c).Warn("release website ask", slog.String("error", err.Error()))
		}
	}
	if int(n) > limit {
		release()
		midnight := now.UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
		s.metrics.rejected(selah.EQUOTA)
		return nil, &selah.Error{Code: selah.EQUOTA, RetryAfter: max(1, int(midnight.Sub(now).Seconds()+0.999)),
			Message: fmt.Sprintf("You have asked %d questions today, the website's daily limit. Come back after midnight UTC, or use the API with a key.", limit)}
	}
	return release, nil
}

// siteAsksLeft is how many website asks the client has left today.
func (s *Server) siteAsksLeft(c *fiber.Ctx) int {
	n, err := s.redis.Get(c.UserContext(), s.siteAskKey(c, s.now())).Int()
	if err != nil && !errors.Is(err, redis.Nil) {
		return 0
	}
	return max(0, s.siteAsksPerDay()-n)
}

func (s *Server) siteAsksPerDay() int {
	if s.cfg.SiteAsksPerDay != 0 {
		return s.cfg.SiteAsksPerDay
	}
	return DefaultSiteAsksPerDay
}
