// Package session holds the website's sign-in state and its CSRF
// protection: the session cookie, looked up once per request, started on
// sign-in and ended on sign-out, and the token every POST form carries.
//
// The browser holds a 256-bit random token in the selah_session cookie;
// the database holds its SHA-256 (store/sessions.go). Every POST form
// carries a CSRF token: the session's own once signed in, and before that
// (sign-in and sign-up forms) a random token that is also in the
// selah_csrf cookie, which a cross-site page can neither read nor set.
// Both cookies are SameSite=Lax, which already keeps them off cross-site
// POSTs in current browsers; the tokens do not depend on that.
package session

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/reqlog"
)

const (
	// Cookie is the session cookie; CSRFCookie the signed-out visitor's
	// double-submit token.
	Cookie     = "selah_session"
	CSRFCookie = "selah_csrf"
	// CSRFField is the form field that carries the token; CSRFHeader
	// carries it for scripts posting JSON (the chat).
	CSRFField  = "csrf"
	CSRFHeader = "X-CSRF-Token"

	// TTL is how long a session lasts without use. Use slides it: a
	// session seen with less than TTL-renewEvery left is extended, so an
	// active user signs in about once a month at most and the expiry is
	// written at most once a day per session.
	TTL        = 30 * 24 * time.Hour
	renewEvery = 24 * time.Hour

	localSession = "siteSession"
	localCSRF    = "siteCSRF"
)

// ErrCSRF refuses a form whose token is missing or wrong.
var ErrCSRF = selah.Errorf(selah.EFORBIDDEN,
	"This form has expired or did not come from this site. Go back, reload the page and try again.")

// Session is the signed-in state of a request.
type Session struct {
	Token   string
	Account store.Account
	CSRF    string
}

// Store is what sessions need of the database; *store.Store is one.
type Store interface {
	CreateSession(ctx context.Context, accountID int64, now time.Time, ttl time.Duration) (string, store.Session, error)
	SessionByToken(ctx context.Context, token string, now time.Time) (store.Session, store.Account, error)
	ExtendSession(ctx context.Context, token string, expiresAt time.Time) error
	DeleteSession(ctx context.Context, token string) error
}

var _ Store = (*store.Store)(nil)

// Config is what the sessions need of the server's settings.
type Config struct {
	// PublicURL is the site's base URL; when it is https, cookies are
	// always Secure.
	PublicURL string
	// Now is the clock of expiries; nil means time.Now.
	Now func() time.Time
}

// Manager looks up, starts and ends sessions and checks CSRF tokens.
type Manager struct {
	store       Store
	httpsPublic bool
	now         func() time.Time
}

// New returns the sessions over st.
func New(st Store, cfg Config) *Manager {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Manager{store: st, httpsPublic: strings.HasPrefix(strings.ToLower(cfg.PublicURL), "https://"), now: cfg.Now}
}

// Of returns the request's session, nil when signed out. The lookup runs
// at most once per request, whichever middleware or handler asks first;
// routes that never ask (the API) never touch the sessions table.
func (m *Manager) Of(c *fiber.Ctx) (*Session, error) {
	if sess, ok := c.Locals(localSession).(*Session); ok { // a nil *Session means "looked, signed out"
		return sess, nil
	}
	sess, err := m.load(c)
	if err != nil {
		return nil, err
	}
	c.Locals(localSession, sess)
	return sess, nil
}

func (m *Manager) load(c *fiber.Ctx) (*Session, error) {
	token := c.Cookies(Cookie)
	if token == "" {
		return nil, nil
	}
	token = strings.Clone(token) // Fiber reuses the request buffer
	now := m.now()
	st, acct, err := m.store.SessionByToken(c.UserContext(), token, now)
	if errors.Is(err, selah.ErrNotFound) {
		m.clearCookie(c, Cookie)
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("web: load session: %w", err)
	}
	if acct.Status != store.AccountActive {
		// A disabled account keeps its rows but may not use the site; the
		// session stays, so re-enabling the account restores it.
		return nil, nil
	}
	if st.ExpiresAt.Sub(now) < TTL-renewEvery {
		exp := now.Add(TTL)
		if err := m.store.ExtendSession(c.UserContext(), token, exp); err != nil {
			// The session is still valid for a while; renewal can wait.
			reqlog.From(c).Warn("extend session", slog.String("error", err.Error()))
		} else {
			m.setCookie(c, token, exp)
		}
	}
	reqlog.With(c, slog.Int64("accountId", acct.ID))
	return &Session{Token: token, Account: acct, CSRF: st.CSRFToken}, nil
}

// Start signs the account in: a new session, whatever cookie the browser
// had before, so a token planted before sign-in is worthless after.
func (m *Manager) Start(c *fiber.Ctx, acct store.Account) error {
	token, st, err := m.store.CreateSession(c.UserContext(), acct.ID, m.now(), TTL)
	if err != nil {
		return fmt.Errorf("web: start session: %w", err)
	}
	m.setCookie(c, token, st.ExpiresAt)
	c.Locals(localSession, &Session{Token: token, Account: acct, CSRF: st.CSRFToken})
	reqlog.From(c).Info("signed in", slog.Int64("accountId", acct.ID))
	return nil
}

// End signs out: the session row goes, so the token is dead even if the
// cookie survives somewhere.
func (m *Manager) End(c *fiber.Ctx) error {
	sess, err := m.Of(c)
	if err != nil {
		return err
	}
	if sess != nil {
		if err := m.store.DeleteSession(c.UserContext(), sess.Token); err != nil {
			return fmt.Errorf("web: end session: %w", err)
		}
		reqlog.From(c).Info("signed out")
	}
	m.clearCookie(c, Cookie)
	c.Locals(localSession, (*Session)(nil))
	return nil
}

func (m *Manager) setCookie(c *fiber.Ctx, token string, expires time.Time) {
	c.Cookie(&fiber.Cookie{
		Name:     Cookie,
		Value:    token,
		Path:     "/",
		MaxAge:   max(1, int(expires.Sub(m.now()).Seconds())),
		Secure:   m.SecureCookies(c),
		HTTPOnly: true,
		SameSite: fiber.CookieSameSiteLaxMode,
	})
}

func (m *Manager) clearCookie(c *fiber.Ctx, name string) {
	c.Cookie(&fiber.Cookie{
		Name:     name,
		Path:     "/",
		Expires:  time.Unix(0, 0), // in the past: the browser drops it
		Secure:   m.SecureCookies(c),
		HTTPOnly: true,
		SameSite: fiber.CookieSameSiteLaxMode,
	})
}

// SecureCookies reports whether cookies must be Secure: on HTTPS requests
// (directly or as told by the proxy) and whenever the site's public URL is
// HTTPS, so that a proxy that forgets X-Forwarded-Proto cannot downgrade
// them.
func (m *Manager) SecureCookies(c *fiber.Ctx) bool {
	return c.Protocol() == "https" || m.httpsPublic
}

// CSRFToken returns the token the request's forms must carry: the
// session's, or for a signed-out visitor the double-submit token of the
// selah_csrf cookie, issuing that cookie on first need.
func (m *Manager) CSRFToken(c *fiber.Ctx) (string, error) {
	sess, err := m.Of(c)
	if err != nil {
		return "", err
	}
	if sess != nil {
		return sess.CSRF, nil
	}
	if t, ok := c.Locals(localCSRF).(string); ok {
		return t, nil
	}
	t := c.Cookies(CSRFCookie)
	if !selah.WellFormedToken(t) {
		t = selah.NewToken()
		c.Cookie(&fiber.Cookie{
			Name:        CSRFCookie,
			Value:       t,
			Path:        "/",
			SessionOnly: true,
			Secure:      m.SecureCookies(c),
			HTTPOnly:    true,
			SameSite:    fiber.CookieSameSiteLaxMode,
		})
	}
	t = strings.Clone(t)
	c.Locals(localCSRF, t)
	return t, nil
}

// CheckCSRF guards every state-changing form route: the form's csrf field
// must equal the session's token, or, signed out, the selah_csrf cookie.
// Requests the browser itself labels cross-site are refused outright.
func (m *Manager) CheckCSRF(c *fiber.Ctx) error {
	if c.Get("Sec-Fetch-Site") == "cross-site" {
		return ErrCSRF
	}
	sess, err := m.Of(c)
	if err != nil {
		return err
	}
	want := c.Cookies(CSRFCookie)
	if sess != nil {
		want = sess.CSRF
	}
	got := c.FormValue(CSRFField)
	if got == "" {
		got = c.Get(CSRFHeader) // scripts posting JSON (the chat)
	}
	if !selah.WellFormedToken(want) || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
		reqlog.From(c).Info("csrf token refused", slog.Bool("signedIn", sess != nil))
		return ErrCSRF
	}
	return c.Next()
}

// RequireSignIn sends signed-out visitors to the sign-in page, which
// returns them here afterwards.
func (m *Manager) RequireSignIn(c *fiber.Ctx) error {
	return m.require(c, false)
}

// RequireAdmin guards administrator pages (the queue dashboard): signed-out
// visitors are sent to sign in, signed-in non-administrators get a plain
// 404, so the pages' existence is not advertised.
func (m *Manager) RequireAdmin(c *fiber.Ctx) error {
	return m.require(c, true)
}

func (m *Manager) require(c *fiber.Ctx, admin bool) error {
	sess, err := m.Of(c)
	if err != nil {
		return err
	}
	if sess == nil {
		return c.Redirect(SignInURL(c), fiber.StatusSeeOther)
	}
	if admin && !sess.Account.IsAdmin {
		return fiber.ErrNotFound
	}
	return c.Next()
}

// Must is the session of a route behind RequireSignIn.
func Must(c *fiber.Ctx) *Session {
	sess, _ := c.Locals(localSession).(*Session)
	if sess == nil {
		panic("web: signed-in route without RequireSignIn")
	}
	return sess
}

// SignInURL is the sign-in page with a way back to the current page. Only
// GETs can be returned to; a form posted after the session ended returns
// to the keys page.
func SignInURL(c *fiber.Ctx) string {
	next := "/settings/api"
	if c.Method() == fiber.MethodGet {
		// Path and query only, even if the request line was absolute.
		next = string(c.Request().URI().RequestURI())
	}
	return "/signin?next=" + url.QueryEscape(next)
}

// LocalPath returns next if it is a path on this site, else "". It stops
// sign-in from redirecting elsewhere (an open redirect): "//evil.example"
// and "/\evil.example" are other hosts to browsers.
func LocalPath(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") ||
		strings.ContainsFunc(next, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return ""
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" {
		return ""
	}
	return next
}
