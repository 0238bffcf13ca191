package web

import (
	"fmt"
	"io/fs"

	"github.com/gofiber/fiber/v2"
)

// robotsTxt lets crawlers index the public pages (home, topics, answers,
// docs) and keeps them out of account pages and the API.
const robotsTxt = `User-agent: *
Disallow: /settings/
Disallow: /admin/
Disallow: /api/
Disallow: /signin
Disallow: /signup
Disallow: /verify
`

// robots serves GET /robots.txt.
func robots(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "public, max-age=86400")
	c.Type("txt", "utf-8")
	return c.SendString(robotsTxt)
}

// favicon serves GET /favicon.ico, which browsers ask for whatever the
// page links to.
func favicon(c *fiber.Ctx) error {
	b, err := fs.ReadFile(staticFS, "static/favicon.ico")
	if err != nil {
		return fmt.Errorf("web: favicon: %w", err)
	}
	c.Set(fiber.HeaderCacheControl, "public, max-age=604800")
	c.Set(fiber.HeaderContentType, "image/x-icon")
	return c.Send(b)
}
