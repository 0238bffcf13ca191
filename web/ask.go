package web

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/jobs"
)

type askRequest struct {
	Question      *string `json:"question"`
	MaxReferences *int    `json:"maxReferences"`
}

// validate returns the question and reference count of an Ask request:
// absent fields as the API defines them, the bounds as selah.CheckAsk
// holds them.
func (r askRequest) validate() (string, int, error) {
	if r.Question == nil {
		return "", 0, errRequired("question")
	}
	n := selah.DefaultMaxReferences
	if r.MaxReferences != nil {
		n = *r.MaxReferences
	}
	q, err := selah.CheckAsk(*r.Question, n)
	return q, n, err
}

// ask serves POST /ask: validated, then run as an ask job under an Ask
// quota reservation that is charged only when the job succeeds. Test keys
// always get the offline extractive generator.
func (s *Server) ask(c *fiber.Ctx) error {
	var req askRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	q, n, err := req.validate()
	if err != nil {
		return err
	}
	p, err := principal(c)
	if err != nil {
		return err
	}
	args := jobs.AskArgs{Question: q, MaxReferences: n, Offline: p.Test, Source: jobs.SourceAPI}
	return s.withAskQuota(c, func() error {
		res, err := s.callAsk(c.UserContext(), RequestID(c), args)
		if err != nil {
			return err
		}
		res.CanonicalURL = s.answerURL(c, res.AnswerID)
		out, err := json.Marshal(res.AskResponse)
		if err != nil {
			return fmt.Errorf("web: ask result: %w", err)
		}
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Send(out)
	})
}

// callAsk runs an ask job for the API, the Ask page or the chat and
// decodes its result. The first two are stored answers and must come back
// with their id; a chat reply has none, the chat stores it itself.
func (s *Server) callAsk(ctx context.Context, requestID string, args jobs.AskArgs) (jobs.AskResult, error) {
	body, err := jobs.Call(ctx, s.queue, requestID, args, s.cfg.AskTimeout)
	if err != nil {
		return jobs.AskResult{}, err
	}
	var res jobs.AskResult
	if err := json.Unmarshal(body, &res); err != nil {
		return jobs.AskResult{}, fmt.Errorf("web: ask result: %w", err)
	}
	if res.AnswerID == "" && args.Source != jobs.SourceChat {
		return jobs.AskResult{}, fmt.Errorf("web: ask result has no answer id")
	}
	return res, nil
}

// publicBase is the base URL of the website for canonical links: the
// configured PublicURL, or else the scheme and host of the request.
func (s *Server) publicBase(c *fiber.Ctx) string {
	if s.cfg.PublicURL != "" {
		return strings.TrimRight(s.cfg.PublicURL, "/")
	}
	return c.BaseURL()
}

// answerPath is the path of an answer's public page on the website.
func answerPath(id string) string { return "/answers/" + id }

// answerURL is the canonical link of an answer's public page. The web
// layer owns every address: workers return the answer's id.
func (s *Server) answerURL(c *fiber.Ctx, id string) string {
	return s.publicBase(c) + answerPath(id)
}
