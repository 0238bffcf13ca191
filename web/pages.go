package web

import (
	"html/template"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
)

// bareErrorPage is the error page when the site layout cannot be rendered
// (it needs the session, so the database).
var bareErrorPage = template.Must(template.New("error").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}} · selah</title></head>
<body><main><h1>{{.Title}}</h1><p>{{.Message}}</p><p><a href="/">Home</a></p></main></body></html>`))

type errorPage struct {
	Title   string
	Message string
}

// renderErrorPage shows an error to a browser, inside the site layout when
// it can be.
func (s *Server) renderErrorPage(c *fiber.Ctx, status int, message string) error {
	p := errorPage{Title: http.StatusText(status), Message: message}
	if p.Title == "" {
		p.Title = "Error"
	}
	if err := s.renderPage(c, status, "error", p); err == nil {
		return nil
	}
	c.Status(status).Type("html", "utf-8")
	return bareErrorPage.Execute(c, p)
}

// wantsErrorPage decides between the error page and the JSON error body.
// The API always gets JSON. Elsewhere a browser gets the page, and so does
// anyone who mistyped a website address (a 404 outside /api/), unless the
// request asks for JSON (an answer page fetched as JSON).
func wantsErrorPage(c *fiber.Ctx, status int) bool {
	if isAPI(c) {
		return false
	}
	if acceptsHTML(c) {
		return true
	}
	return status == http.StatusNotFound && !strings.Contains(c.Get(fiber.HeaderAccept), "json")
}

// pageMessage is the error's message for a person: an unknown address is
// a page that does not exist, not an endpoint.
func pageMessage(err error) string {
	msg := selah.ErrorMessage(err)
	if selah.ErrorCode(err) == selah.ENOTFOUND && strings.HasPrefix(msg, "No such endpoint") {
		return "There is no page at this address. Check it for a typo, or start again from the home page."
	}
	return msg
}
