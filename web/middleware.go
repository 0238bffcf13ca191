package web

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"regexp"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/web/reqlog"
)

const localRequestID = "requestId"

// A client-supplied request id is kept only when it is short and plain, so
// it can travel into logs and task ids without escaping.
var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{8,64}$`)

func newRequestID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return "req_" + hex.EncodeToString(b)
}

// requestID assigns every request an id, echoes it in X-Request-Id and
// gives the request a logger that carries it.
func (s *Server) requestID(c *fiber.Ctx) error {
	id := c.Get(fiber.HeaderXRequestID)
	if !requestIDPattern.MatchString(id) {
		id = newRequestID()
	}
	c.Locals(localRequestID, id)
	reqlog.Set(c, s.log.With(slog.String("requestId", id)))
	c.Set(fiber.HeaderXRequestID, id)
	return c.Next()
}

// RequestID returns the id of the request.
func RequestID(c *fiber.Ctx) string {
	if id, ok := c.Locals(localRequestID).(string); ok {
		return id
	}
	return ""
}

// recoverPanic turns a panic into a logged internal error; the stack goes to
// the log, never into the response.
func (s *Server) recoverPanic(c *fiber.Ctx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			reqlog.From(c).Error("panic", slog.String("panic", fmt.Sprint(r)), slog.String("stack", string(debug.Stack())))
			err = selah.Errorf(selah.EINTERNAL, "An internal error occurred.")
		}
	}()
	return c.Next()
}

// accessLog logs one line per request, without query strings (they may
// carry user text) and without headers.
func (s *Server) accessLog(c *fiber.Ctx) error {
	start := time.Now()
	err := c.Next()
	if err != nil {
		if herr := s.app.ErrorHandler(c, err); herr != nil {
			c.Status(fiber.StatusInternalServerError)
		}
		err = nil
	}
	status := c.Response().StatusCode()
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelError
	}
	route := c.Route().Path
	reqlog.From(c).LogAttrs(c.UserContext(), level, "request",
		slog.String("method", c.Method()),
		slog.String("route", route),
		slog.Int("status", status),
		slog.Duration("duration", time.Since(start)),
	)
	if s.metrics != nil {
		s.metrics.observeRequest(c.Method(), route, status, time.Since(start))
	}
	return nil
}

func acceptsHTML(c *fiber.Ctx) bool {
	return strings.Contains(c.Get(fiber.HeaderAccept), "text/html")
}

func isAPI(c *fiber.Ctx) bool {
	return strings.HasPrefix(c.Path(), "/api/")
}
