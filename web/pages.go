package web

import (
	"html/template"

	"github.com/gofiber/fiber/v2"
)

var errorPage = template.Must(template.New("error").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Status}} · selah</title></head>
<body><main><h1>{{.Status}}</h1><p>{{.Message}}</p><p><a href="/">Home</a></p></main></body></html>`))

func (s *Server) renderErrorPage(c *fiber.Ctx, status int, message string) error {
	c.Status(status).Type("html")
	return errorPage.Execute(c, map[string]any{"Status": status, "Message": message})
}
