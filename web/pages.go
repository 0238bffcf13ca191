package web

import (
	"html/template"
	"net/http"

	"github.com/gofiber/fiber/v2"
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
