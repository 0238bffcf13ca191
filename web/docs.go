package web

import (
	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah/web/docs"
)

// docsView is the /docs page (web/docs), built once from the embedded
// document when the package loads.
var docsView = docs.Build(apiSpec.doc)

// docsRender is docsView with the base URL of the site it is shown on, for
// examples that can be pasted as they are.
type docsRender struct {
	docs.Page
	BaseURL string
}

// docsPage serves GET /docs.
func (s *Server) docsPage(c *fiber.Ctx) error {
	return s.renderPage(c, fiber.StatusOK, "docs", docsRender{Page: docsView, BaseURL: s.publicBase(c)})
}
