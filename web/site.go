package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah/store"
)

// The website is server-rendered html/template pages inside one layout
// (templates/layout.html). A page is a file templates/<name>.html that
// defines "title" and "content"; renderPage(c, status, "<name>", data)
// shows it. Pages work without JavaScript; the only script is the copy
// button of a new key, which a readonly text field backs up.

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// copyScript makes the copy button of a new key work. It is inline, and
// allowed by its hash in the Content-Security-Policy, so the page needs no
// other script source; without JavaScript the button stays hidden and the
// readonly field is there to select and copy.
const copyScript = `
document.querySelectorAll("[data-copy]").forEach(function (button) {
  var field = document.getElementById(button.dataset.copy);
  var status = document.getElementById(button.dataset.copyStatus);
  if (!field || !navigator.clipboard) return;
  field.addEventListener("focus", function () { field.select(); });
  button.hidden = false;
  button.addEventListener("click", function () {
    navigator.clipboard.writeText(field.value).then(function () {
      if (status) status.textContent = "Copied to the clipboard.";
    }, function () {
      field.focus();
      if (status) status.textContent = "Copying failed: the key is selected, press Ctrl+C (or Cmd+C) to copy it.";
    });
  });
});
`

// pageCSP is the Content-Security-Policy of the site's pages: nothing but
// this site's own resources and the copy script, no framing (the revoke
// button must not be clickjacked), forms only to this site.
var pageCSP = "default-src 'self'; script-src 'self' 'sha256-" + sha256Base64(copyScript) + "'; " +
	"style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; " +
	"form-action 'self'; frame-ancestors 'none'"

func sha256Base64(s string) string {
	sum := sha256.Sum256([]byte(s))
	return base64.StdEncoding.EncodeToString(sum[:])
}

// staticVersions maps each static file to a hash of its content. Links
// carry it (site.css?v=...), so the file can be cached for a year and a new
// deployment is still fetched at once.
var staticVersions = func() map[string]string {
	m := make(map[string]string)
	err := fs.WalkDir(staticFS, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(staticFS, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		m[strings.TrimPrefix(p, "static/")] = hex.EncodeToString(sum[:6])
		return nil
	})
	if err != nil {
		panic(err)
	}
	return m
}()

var templateFuncs = template.FuncMap{
	"static": func(name string) string {
		return "/static/" + name + "?v=" + staticVersions[name]
	},
	// date renders a time for people, in UTC, inside a machine-readable
	// <time>. Its input is a time.Time, never user text.
	"date": func(t time.Time) template.HTML {
		t = t.UTC()
		return template.HTML(`<time datetime="` + t.Format(time.RFC3339) + `">` + t.Format("2 Jan 2006 15:04") + ` UTC</time>`)
	},
	"hasPrefix": strings.HasPrefix,
	"join":      strings.Join,
	"lower":     strings.ToLower,
	"deref": func(p *int) int {
		if p == nil {
			return 0
		}
		return *p
	},
	"copyScript": func() template.JS { return template.JS(copyScript) },
	"readerURL":  readerURL, // see reader.go
}

// pages holds one template set per page: the layout plus the page's file,
// since every page defines the same "title" and "content" blocks.
var pages = func() map[string]*template.Template {
	files, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		panic(err)
	}
	m := make(map[string]*template.Template)
	for _, f := range files {
		name := strings.TrimSuffix(path.Base(f), ".html")
		if name == "layout" {
			continue
		}
		m[name] = template.Must(template.New(name).Funcs(templateFuncs).ParseFS(templateFS, "templates/layout.html", f))
	}
	return m
}()

// pageData is what the layout sees; the page's own data is .Page.
type pageData struct {
	Account *store.Account // nil when signed out
	CSRF    string         // every POST form carries it as the "csrf" field
	Path    string
	Page    any
}

// renderPage renders templates/<name>.html inside the layout with data as
// .Page. It renders to a buffer first, so a template error becomes a clean
// 500 rather than half a page.
func (s *Server) renderPage(c *fiber.Ctx, status int, name string, data any) error {
	t, ok := pages[name]
	if !ok {
		return fmt.Errorf("web: no page template %q", name)
	}
	sess, err := s.sessions.Of(c)
	if err != nil {
		return err
	}
	csrf, err := s.sessions.CSRFToken(c)
	if err != nil {
		return err
	}
	pd := pageData{CSRF: csrf, Path: c.Path(), Page: data}
	if sess != nil {
		pd.Account = &sess.Account
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", pd); err != nil {
		return fmt.Errorf("web: render %s: %w", name, err)
	}
	c.Status(status).Type("html", "utf-8")
	return c.Send(buf.Bytes())
}

func (s *Server) siteRoutes() {
	s.app.Get("/static/*", serveStatic)
	s.app.Get("/favicon.ico", favicon)
	s.app.Get("/robots.txt", robots)

	s.app.Get("/", s.page(s.home)...)
	s.app.Get("/signup", s.page(s.signUpForm)...)
	s.app.Post("/signup", s.form(s.signUp)...)
	s.app.Get("/signin", s.page(s.signInForm)...)
	s.app.Post("/signin", s.form(s.signIn)...)
	s.app.Get("/verify", s.page(s.verifyForm)...)
	s.app.Post("/verify", s.form(s.verify)...)
	s.app.Post("/signout", s.form(s.signOut)...)

	s.app.Get("/ask", s.page(s.siteAskForm)...)
	s.app.Post("/ask", s.form(s.siteAsk)...)
	s.app.Get("/answers/:id", s.page(s.answerPage)...)
	s.app.Get("/topics", s.page(s.siteTopics)...)
	s.app.Get("/topics/:slug", s.page(s.siteTopic)...)
	s.app.Get("/words/:number", s.page(s.siteWord)...)
	s.app.Get("/docs", s.page(s.docsPage)...)

	s.app.Get("/settings/api", s.signedIn(s.keysPage)...)
	s.app.Post("/settings/api/keys", s.signedInForm(s.createKey)...)
	s.app.Get("/settings/api/keys/new", s.signedIn(s.newKeyShown)...)
	s.app.Get("/settings/api/keys/:id/revoke", s.signedIn(s.confirmKey("revoke"))...)
	s.app.Post("/settings/api/keys/:id/revoke", s.signedInForm(s.revokeKey)...)
	s.app.Get("/settings/api/keys/:id/rotate", s.signedIn(s.confirmKey("rotate"))...)
	s.app.Post("/settings/api/keys/:id/rotate", s.signedInForm(s.rotateKey)...)
}

// Handler chains of the site, by what a route needs.
func (s *Server) page(h fiber.Handler) []fiber.Handler { return []fiber.Handler{pageHeaders, h} }
func (s *Server) form(h fiber.Handler) []fiber.Handler {
	return []fiber.Handler{pageHeaders, checkFormText, s.sessions.CheckCSRF, h}
}
func (s *Server) signedIn(h fiber.Handler) []fiber.Handler {
	return []fiber.Handler{pageHeaders, s.sessions.RequireSignIn, h}
}
func (s *Server) signedInForm(h fiber.Handler) []fiber.Handler {
	return []fiber.Handler{pageHeaders, checkFormText, s.sessions.RequireSignIn, s.sessions.CheckCSRF, h}
}

// checkFormText refuses a form holding U+0000 or another control
// character (tab, carriage return and newline, which text areas send,
// aside) in any field, naming the field: Postgres refuses NUL in text, and
// the others have no place in an e-mail address, a password or a question.
func checkFormText(c *fiber.Ctx) error {
	var err error
	c.Request().PostArgs().VisitAll(func(k, v []byte) {
		if err == nil {
			if err = checkControl("", string(k), ""); err == nil {
				err = checkControl(string(k), string(v), "\t\r\n")
			}
		}
	})
	if err != nil {
		return err
	}
	return c.Next()
}

// pageHeaders sets what every site page needs. no-store because pages
// differ per visitor and one of them shows a key that must never sit in a
// cache or be restored by the back button.
func pageHeaders(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderContentSecurityPolicy, pageCSP)
	c.Set(fiber.HeaderXFrameOptions, "DENY")
	c.Set(fiber.HeaderReferrerPolicy, "same-origin")
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	return c.Next()
}

func serveStatic(c *fiber.Ctx) error {
	name := c.Params("*")
	v, ok := staticVersions[name]
	if !ok {
		return fiber.ErrNotFound
	}
	b, err := fs.ReadFile(staticFS, "static/"+name)
	if err != nil {
		return fmt.Errorf("web: static %s: %w", name, err)
	}
	if c.Query("v") == v {
		c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
	} else {
		c.Set(fiber.HeaderCacheControl, "public, max-age=300")
	}
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Type(strings.TrimPrefix(path.Ext(name), "."), "utf-8")
	return c.Send(b)
}

type homePage struct {
	BaseURL string // for the example request
}

func (s *Server) home(c *fiber.Ctx) error {
	base := strings.TrimRight(s.cfg.PublicURL, "/")
	if base == "" {
		base = c.BaseURL()
	}
	return s.renderPage(c, fiber.StatusOK, "home", homePage{BaseURL: base})
}
