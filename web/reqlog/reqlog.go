// Package reqlog carries a request's logger in its Fiber context: the
// request-id middleware sets it, everything that logs for the request takes
// it from here, and what learns more about the request (the session's
// account) adds to it. It is a package of its own so that the parts of the
// site in their own packages (web/session) log like the rest.
package reqlog

import (
	"log/slog"

	"github.com/gofiber/fiber/v2"
)

const local = "logger"

// Set makes l the request's logger.
func Set(c *fiber.Ctx, l *slog.Logger) { c.Locals(local, l) }

// From returns the request's logger, or slog.Default outside a request
// that went through the middleware.
func From(c *fiber.Ctx) *slog.Logger {
	if l, ok := c.Locals(local).(*slog.Logger); ok {
		return l
	}
	return slog.Default()
}

// With adds attributes to the request's logger for the rest of the
// request.
func With(c *fiber.Ctx, args ...any) { Set(c, From(c).With(args...)) }
