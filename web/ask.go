package web

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah/worker/tasks"
)

// Ask request bounds (api-spec section 8).
const (
	MaxQuestionLength    = 1000
	DefaultMaxReferences = 5
	MaxMaxReferences     = 8
)

type askRequest struct {
	Question      *string `json:"question"`
	MaxReferences *int    `json:"maxReferences"`
}

// ask serves POST /ask: validated, then run as an ask job under an Ask
// quota reservation that is charged only when the job succeeds. Test keys
// always get the offline extractive generator.
func (s *Server) ask(c *fiber.Ctx) error {
	var req askRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	q, err := requiredText("question", req.Question, MaxQuestionLength)
	if err != nil {
		return err
	}
	n, err := optionalInt("maxReferences", req.MaxReferences, DefaultMaxReferences, 1, MaxMaxReferences)
	if err != nil {
		return err
	}
	p, err := principal(c)
	if err != nil {
		return err
	}
	args := tasks.AskArgs{Question: q, MaxReferences: n, Offline: p.Test, Source: tasks.SourceAPI, BaseURL: s.publicBase(c)}
	return s.withAskQuota(c, func() error {
		body, err := Run(c.UserContext(), s.queue, RequestID(c), args, s.cfg.AskTimeout)
		if err != nil {
			return err
		}
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Send(body)
	})
}

// publicBase is the base URL of the website for canonical links: the
// configured PublicURL, or else the scheme and host of the request.
func (s *Server) publicBase(c *fiber.Ctx) string {
	if s.cfg.PublicURL != "" {
		return strings.TrimRight(s.cfg.PublicURL, "/")
	}
	return c.BaseURL()
}
