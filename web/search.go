package web

import (
	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/jobs"
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
	q, err := requiredText("query", req.Query, selah.MaxQueryLength)
	if err != nil {
		return err
	}
	limit, err := optionalInt("limit", req.Limit, selah.DefaultSearchLimit, 1, selah.MaxSearchLimit)
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
