package web

import (
	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah/jobs"
)

// Search request bounds (api-spec section 8).
const (
	MaxQueryLength     = 500
	DefaultSearchLimit = 10
	MaxSearchLimit     = 20
)

type searchRequest struct {
	Query *string `json:"query"`
	Limit *int    `json:"limit"`
}

// search serves POST /search through the job queue.
func (s *Server) search(c *fiber.Ctx) error {
	var req searchRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	q, err := requiredText("query", req.Query, MaxQueryLength)
	if err != nil {
		return err
	}
	limit, err := optionalInt("limit", req.Limit, DefaultSearchLimit, 1, MaxSearchLimit)
	if err != nil {
		return err
	}
	body, err := jobs.Call(c.UserContext(), s.queue, RequestID(c), jobs.SearchArgs{Query: q, Limit: limit}, s.cfg.SearchTimeout)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(body)
}
