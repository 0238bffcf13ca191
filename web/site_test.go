package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/email"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
	"github.com/selahdev/selah/web/session"
)

const sitePassword = "correct horse battery"

var (
	siteCSRFPattern = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
	siteKeyPattern  = regexp.MustCompile(`svc_(?:live|test)_[0-9A-Za-z]{49}`)
	siteEmailSeq    atomic.Int64
	siteBase, _     = url.Parse("http://selah.test/")
)

// siteEnv is a server on a fresh database with everything it logged.
type siteEnv struct {
	srv  *Server
	st   *store.Store
	logs *siteLogs
	mail *outbox
}

type siteLogs struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *siteLogs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *siteLogs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func newSiteEnv(t *testing.T, cfg Config, now func() time.Time) *siteEnv {
	t.Helper()
	st := storetest.NewStore(t)
	_, rc := storetest.NewRedis(t)
	logs := &siteLogs{}
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	mail := &outbox{}
	return &siteEnv{srv: NewTestServer(t, cfg, Deps{Store: st, Redis: rc, Logger: log, Now: now, Mailer: mail}), st: st, logs: logs, mail: mail}
}

// outbox stands in for the SMTP server: it keeps every message sent.
type outbox struct {
	mu   sync.Mutex
	msgs []email.Message
}

func (o *outbox) Send(_ context.Context, m email.Message) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.msgs = append(o.msgs, m)
	return nil
}

// to returns the messages sent to addr, oldest first.
func (o *outbox) to(addr string) []email.Message {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []email.Message
	for _, m := range o.msgs {
		if m.To == addr {
			out = append(out, m)
		}
	}
	return out
}

var verifyLinkPattern = regexp.MustCompile(`https?://[^/\s]+(/verify\?token=[0-9A-Za-z_-]{43})\s`)

// verifyPath returns the path and query of the verification link in the
// latest message to addr, failing the test if it has none.
func (o *outbox) verifyPath(t *testing.T, addr string) string {
	t.Helper()
	msgs := o.to(addr)
	if len(msgs) == 0 {
		t.Fatalf("no e-mail was sent to %s", addr)
	}
	m := verifyLinkPattern.FindStringSubmatch(msgs[len(msgs)-1].Text)
	if m == nil {
		t.Fatalf("the latest e-mail to %s has no verification link:\n%s", addr, msgs[len(msgs)-1].Text)
	}
	return m[1]
}

func siteEmail(prefix string) string {
	return fmt.Sprintf("%s-%d@example.com", prefix, siteEmailSeq.Add(1))
}

// siteBrowser drives the app like a browser without JavaScript: it keeps
// cookies, sends Accept: text/html, and does not follow redirects.
type siteBrowser struct {
	t    *testing.T
	srv  *Server
	base *url.URL
	jar  *cookiejar.Jar
	// header is added to every request.
	header http.Header
}

type sitePage struct {
	status int
	header http.Header
	body   string
}

func (p sitePage) location() string { return p.header.Get("Location") }

func (p sitePage) csrf(t *testing.T) string {
	t.Helper()
	m := siteCSRFPattern.FindStringSubmatch(p.body)
	if m == nil {
		t.Fatalf("no csrf field in page:\n%s", p.body)
	}
	return m[1]
}

func (p sitePage) cookie(name string) *http.Cookie {
	for _, c := range (&http.Response{Header: p.header}).Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func (e *siteEnv) browser(t *testing.T) *siteBrowser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &siteBrowser{t: t, srv: e.srv, base: siteBase, jar: jar, header: http.Header{}}
}

func (b *siteBrowser) do(method, path string, form url.Values) sitePage {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req := httptest.NewRequest(method, "http://selah.test"+path, body)
	req.Header.Set("Accept", "text/html,application/xhtml+xml")
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, vs := range b.header {
		req.Header[k] = vs
	}
	for _, c := range b.jar.Cookies(b.base) {
		req.AddCookie(c)
	}
	res, err := b.srv.App().Test(req, -1)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	b.jar.SetCookies(b.base, res.Cookies())
	return sitePage{status: res.StatusCode, header: res.Header, body: string(raw)}
}

func (b *siteBrowser) get(path string) sitePage { b.t.Helper(); return b.do("GET", path, nil) }

// submit loads the page with the form, as a browser would, and posts the
// fields with the page's CSRF token.
func (b *siteBrowser) submit(formPage, action string, fields url.Values) sitePage {
	b.t.Helper()
	p := b.get(formPage)
	if p.status != http.StatusOK {
		b.t.Fatalf("GET %s = %d, want 200", formPage, p.status)
	}
	fields.Set("csrf", p.csrf(b.t))
	return b.do("POST", action, fields)
}

func (b *siteBrowser) signUp(email, password string) sitePage {
	b.t.Helper()
	return b.submit("/signup", "/signup", url.Values{"email": {email}, "password": {password}, "confirm": {password}})
}

func (b *siteBrowser) signIn(email, password string) sitePage {
	b.t.Helper()
	return b.submit("/signin", "/signin", url.Values{"email": {email}, "password": {password}})
}

// mustSignUp creates an account through the site, follows the
// verification link e-mailed to it, and leaves b signed in.
func (b *siteBrowser) mustSignUp(addr string) {
	b.t.Helper()
	b.mustRegister(addr)
	wantRedirect(b.t, b.signIn(addr, sitePassword), "/settings/api")
}

// mustRegister creates a verified account with sitePassword through the
// site (sign-up and the link), without signing in.
func (b *siteBrowser) mustRegister(addr string) {
	b.t.Helper()
	if p := b.signUp(addr, sitePassword); p.status != http.StatusOK || !strings.Contains(p.body, "Check your e-mail") {
		b.t.Fatalf("sign up %s = %d:\n%s", addr, p.status, p.body)
	}
	b.mustVerify(addr)
}

// mustVerify follows the latest verification link e-mailed to addr: the
// link's page, then its confirm button.
func (b *siteBrowser) mustVerify(addr string) {
	b.t.Helper()
	ob, ok := b.srv.mailer.(*outbox)
	if !ok {
		b.t.Fatal("the server has no test outbox to read the link from: set Deps.Mailer to &outbox{}")
	}
	link := ob.verifyPath(b.t, store.NormalizeEmail(addr))
	p := b.get(link)
	wantStatus(b.t, p, http.StatusOK)
	token := strings.TrimPrefix(link, "/verify?token=")
	p = b.do("POST", "/verify", url.Values{"csrf": {p.csrf(b.t)}, "token": {token}})
	wantStatus(b.t, p, http.StatusOK)
	if !strings.Contains(p.body, "Your e-mail address is confirmed") {
		b.t.Fatalf("verifying %s:\n%s", addr, p.body)
	}
}

func (b *siteBrowser) createKey(fields url.Values) sitePage {
	b.t.Helper()
	return b.shown(b.submit("/settings/api", "/settings/api/keys", fields))
}

// shown follows the redirect from a form that made a key to the page that
// shows it once (post/redirect/get); other pages are returned as they are.
func (b *siteBrowser) shown(p sitePage) sitePage {
	b.t.Helper()
	if p.status == http.StatusSeeOther && strings.HasPrefix(p.location(), "/settings/api/keys/new?") {
		return b.get(p.location())
	}
	return p
}

func wantStatus(t *testing.T, p sitePage, status int) {
	t.Helper()
	if p.status != status {
		t.Fatalf("status = %d, want %d:\n%s", p.status, status, p.body)
	}
}

func wantRedirect(t *testing.T, p sitePage, location string) {
	t.Helper()
	if p.status != http.StatusSeeOther || p.location() != location {
		t.Fatalf("got %d to %q, want 303 to %q:\n%s", p.status, p.location(), location, p.body)
	}
}

func TestSitePages(t *testing.T) {
	t.Parallel()
	env := newSiteEnv(t, Config{PublicURL: "https://selah.example"}, nil)
	b := env.browser(t)
	cases := []struct {
		path string
		want []string
	}{
		{"/", []string{"The King James Bible, as an API", `href="/signup"`, "https://selah.example/api/v1/scripture?ref=John+3:16", `href="/ask"`, `href="/docs"`}},
		{"/signin", []string{`<label for="email">`, `<label for="password">`, `autocomplete="current-password"`}},
		{"/signup", []string{`<label for="confirm">`, `minlength="10"`, `autocomplete="new-password"`}},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			p := b.get(tc.path)
			wantStatus(t, p, http.StatusOK)
			if ct := p.header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
				t.Errorf("Content-Type = %q", ct)
			}
			for h, v := range map[string]string{"Cache-Control": "no-store", "X-Frame-Options": "DENY"} {
				if got := p.header.Get(h); got != v {
					t.Errorf("%s = %q, want %q", h, got, v)
				}
			}
			if csp := p.header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") {
				t.Errorf("Content-Security-Policy = %q", csp)
			}
			for _, w := range append(tc.want, `<main id="main"`, `href="/signin"`, `/static/site.css?v=`) {
				if !strings.Contains(p.body, w) {
					t.Errorf("page lacks %q", w)
				}
			}
		})
	}

	t.Run("stylesheet", func(t *testing.T) {
		m := regexp.MustCompile(`href="(/static/site\.css\?v=[0-9a-f]+)"`).FindStringSubmatch(b.get("/").body)
		if m == nil {
			t.Fatal("no stylesheet link")
		}
		p := b.get(m[1])
		wantStatus(t, p, http.StatusOK)
		if ct := p.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/css") {
			t.Errorf("Content-Type = %q", ct)
		}
		if cc := p.header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
			t.Errorf("Cache-Control = %q for a versioned link", cc)
		}
		wantStatus(t, b.get("/static/nope.css"), http.StatusNotFound)
		wantStatus(t, b.get("/static/../site.go"), http.StatusNotFound)
	})
}

func TestSiteSignUp(t *testing.T) {
	t.Parallel()
	env := newSiteEnv(t, Config{}, nil)

	cases := []struct {
		name               string
		email, pw, confirm string
		status             int
		message            string
	}{
		{"no email", "", sitePassword, sitePassword, 400, "Enter your email address."},
		{"short password", siteEmail("short"), "123456789", "123456789", 400, "at least 10 characters"},
		{"passwords differ", siteEmail("differ"), sitePassword, sitePassword + "!", 400, "do not match"},
		{"bad email", "not-an-email", sitePassword, sitePassword, 400, "not a valid email"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := env.browser(t)
			p := b.submit("/signup", "/signup", url.Values{"email": {tc.email}, "password": {tc.pw}, "confirm": {tc.confirm}})
			wantStatus(t, p, tc.status)
			if !strings.Contains(p.body, tc.message) || !strings.Contains(p.body, `role="alert"`) {
				t.Fatalf("page lacks the message %q:\n%s", tc.message, p.body)
			}
			if strings.Contains(p.body, tc.pw) {
				t.Fatal("the password came back in the page")
			}
			if p.cookie(session.Cookie) != nil {
				t.Fatal("a failed sign-up set a session cookie")
			}
		})
	}
}

func TestSiteSignInAndOut(t *testing.T) {
	t.Parallel()
	env := newSiteEnv(t, Config{}, nil)
	email := siteEmail("signin")
	env.browser(t).mustSignUp(email)
	ctx := context.Background()

	t.Run("failures say the same whether or not the account exists", func(t *testing.T) {
		var bodies []string
		for _, tc := range []struct{ email, pw string }{
			{email, "wrong password"},
			{siteEmail("nobody"), "wrong password"},
			{siteEmail("nobody"), sitePassword},
		} {
			p := env.browser(t).signIn(tc.email, tc.pw)
			wantStatus(t, p, http.StatusUnauthorized)
			if !strings.Contains(p.body, errBadCredentials) {
				t.Fatalf("page lacks %q:\n%s", errBadCredentials, p.body)
			}
			if p.cookie(session.Cookie) != nil {
				t.Fatal("a failed sign-in set a session cookie")
			}
			bodies = append(bodies, siteCSRFPattern.ReplaceAllString(strings.ReplaceAll(p.body, tc.email, "EMAIL"), ""))
		}
		if bodies[0] != bodies[1] || bodies[1] != bodies[2] {
			t.Fatal("sign-in failure pages differ between a known and an unknown email")
		}
	})

	t.Run("next", func(t *testing.T) {
		for _, tc := range []struct{ next, want string }{
			{"/settings/api?x=1", "/settings/api?x=1"},
			{"//evil.example/", "/settings/api"},
			{"/\\evil.example", "/settings/api"},
			{"https://evil.example/", "/settings/api"},
		} {
			b := env.browser(t)
			p := b.get("/signin?next=" + url.QueryEscape(tc.next))
			p = b.do("POST", "/signin", url.Values{"csrf": {p.csrf(t)}, "email": {email}, "password": {sitePassword}, "next": {tc.next}})
			wantRedirect(t, p, tc.want)
		}
	})

	b := env.browser(t)
	p := b.signIn(strings.ToUpper(email), sitePassword)
	wantRedirect(t, p, "/settings/api")
	ck := p.cookie(session.Cookie)
	if ck == nil || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/" || ck.Secure ||
		ck.MaxAge < int(session.TTL.Seconds())-5 || len(ck.Value) != 43 {
		t.Fatalf("session cookie = %+v", ck)
	}
	token := ck.Value
	p = b.get("/settings/api")
	wantStatus(t, p, http.StatusOK)
	if !strings.Contains(p.body, email) || !strings.Contains(p.body, `action="/signout"`) {
		t.Fatalf("keys page does not show the signed-in account:\n%s", p.body)
	}
	wantRedirect(t, b.get("/signin"), "/settings/api")

	p = b.do("POST", "/signout", url.Values{"csrf": {p.csrf(t)}})
	wantRedirect(t, p, "/")
	if ck := p.cookie(session.Cookie); ck == nil || ck.Value != "" || !ck.Expires.Before(time.Now()) {
		t.Fatalf("sign-out cookie = %+v, want it cleared", ck)
	}
	if _, _, err := env.st.SessionByToken(ctx, token, time.Now()); err != selah.ErrNotFound {
		t.Fatalf("session after sign-out: %v, want ErrNotFound", err)
	}
	// A copy of the old cookie is worth nothing.
	replay := env.browser(t)
	replay.jar.SetCookies(replay.base, []*http.Cookie{{Name: session.Cookie, Value: token}})
	wantRedirect(t, replay.get("/settings/api"), "/signin?next=%2Fsettings%2Fapi")

	if logs := env.logs.String(); strings.Contains(logs, sitePassword) || strings.Contains(logs, token) || strings.Contains(logs, "argon2") {
		t.Fatal("logs contain a password, session token or hash")
	}
}

func TestSiteSignInLimited(t *testing.T) {
	t.Parallel()
	env := newSiteEnv(t, Config{}, nil)
	email := siteEmail("limited")
	env.browser(t).mustSignUp(email)
	b := env.browser(t)

	wantStatus(t, b.signIn(email, "wrong password"), http.StatusUnauthorized)
	// the address app.Test requests come from
	key := "selah:limits:throttle:" + throttleName("signin", "0.0.0.0", store.NormalizeEmail(email))
	if n, err := env.srv.redis.Get(context.Background(), key).Int(); err != nil || n != 1 {
		t.Fatalf("failure count = %d, %v; want 1", n, err)
	}
	if ttl := env.srv.redis.TTL(context.Background(), key).Val(); ttl <= 0 || ttl > signInWindow {
		t.Fatalf("failure count TTL = %v", ttl)
	}
	env.srv.redis.Set(context.Background(), key, signInMaxFailures, signInWindow)
	p := b.signIn(email, sitePassword)
	wantStatus(t, p, http.StatusTooManyRequests)
	if !strings.Contains(p.body, "Too many failed attempts") {
		t.Fatalf("page lacks the reason:\n%s", p.body)
	}
	// Another email from the same place is not affected.
	other := siteEmail("unaffected")
	env.browser(t).mustSignUp(other)
	wantRedirect(t, env.browser(t).signIn(other, sitePassword), "/settings/api")
}

func TestSiteSessionExpiry(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(d) }
	env := newSiteEnv(t, Config{}, clock)
	b := env.browser(t)
	b.mustSignUp(siteEmail("expiry"))
	token := func() string {
		for _, c := range b.jar.Cookies(b.base) {
			if c.Name == session.Cookie {
				return c.Value
			}
		}
		t.Fatal("no session cookie")
		return ""
	}()

	// Within a day of sign-in nothing is renewed.
	advance(time.Hour)
	if p := b.get("/settings/api"); p.status != http.StatusOK || p.cookie(session.Cookie) != nil {
		t.Fatalf("after an hour: %d, cookie %+v", p.status, p.cookie(session.Cookie))
	}
	// After a few days, use slides the expiry and the cookie along.
	advance(3 * 24 * time.Hour)
	p := b.get("/settings/api")
	wantStatus(t, p, http.StatusOK)
	if ck := p.cookie(session.Cookie); ck == nil || ck.Value != token || ck.MaxAge < int(session.TTL.Seconds())-5 {
		t.Fatalf("renewed cookie = %+v", ck)
	}
	sess, _, err := env.st.SessionByToken(context.Background(), token, clock())
	if err != nil || sess.ExpiresAt.Before(clock().Add(session.TTL-time.Minute)) {
		t.Fatalf("session after renewal: %+v, %v", sess, err)
	}
	// Unused for longer than the lifetime, it is gone.
	advance(session.TTL + time.Minute)
	wantRedirect(t, b.get("/settings/api"), "/signin?next=%2Fsettings%2Fapi")
}

func TestSiteCookiesSecure(t *testing.T) {
	t.Parallel()
	email := siteEmail("secure")
	cases := []struct {
		name      string
		publicURL string
		proto     string
		secure    bool
	}{
		{"plain http", "", "", false},
		{"https public URL", "https://selah.example", "", true},
		{"behind a TLS proxy", "", "https", true},
	}
	env := newSiteEnv(t, Config{}, nil)
	env.browser(t).mustSignUp(email)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// X-Forwarded-Proto counts from a trusted proxy only (app.Test
			// requests come from 0.0.0.0).
			srv := NewTestServer(t, Config{PublicURL: tc.publicURL, TrustedProxies: []string{"0.0.0.0/32"}}, Deps{Store: env.st, Redis: env.srv.redis, Logger: env.srv.log})
			jar, _ := cookiejar.New(nil)
			b := &siteBrowser{t: t, srv: srv, base: siteBase, jar: jar, header: http.Header{}}
			if tc.proto != "" {
				b.header.Set("X-Forwarded-Proto", tc.proto)
			}
			p := b.get("/signin")
			csrfCk := p.cookie(session.CSRFCookie)
			if csrfCk == nil || csrfCk.Secure != tc.secure || !csrfCk.HttpOnly || csrfCk.SameSite != http.SameSiteLaxMode {
				t.Fatalf("csrf cookie = %+v, want Secure=%v", csrfCk, tc.secure)
			}
			// The jar does not send Secure cookies over http; a browser on
			// https would.
			b.jar.SetCookies(b.base, []*http.Cookie{{Name: session.CSRFCookie, Value: csrfCk.Value}})
			p = b.do("POST", "/signin", url.Values{"csrf": {p.csrf(t)}, "email": {email}, "password": {sitePassword}})
			wantStatus(t, p, http.StatusSeeOther)
			ck := p.cookie(session.Cookie)
			if ck == nil || ck.Secure != tc.secure || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/" {
				t.Fatalf("session cookie = %+v, want Secure=%v", ck, tc.secure)
			}
		})
	}
}

func TestSiteCSRF(t *testing.T) {
	t.Parallel()
	env := newSiteEnv(t, Config{}, nil)
	email := siteEmail("csrf")
	signedIn := env.browser(t)
	signedIn.mustSignUp(email)
	sessionToken := signedIn.get("/settings/api").csrf(t)

	// A signed-out browser's double-submit token, to try where the
	// session's token is required.
	anon := env.browser(t)
	anonToken := anon.get("/signin").csrf(t)

	cases := []struct {
		name      string
		b         *siteBrowser
		path      string
		fields    url.Values
		crossSite bool
	}{
		{"sign in without a token", env.browser(t), "/signin", url.Values{"email": {email}, "password": {sitePassword}}, false},
		{"sign in with a made-up token", anon, "/signin", url.Values{"csrf": {strings.Repeat("A", 43)}, "email": {email}, "password": {sitePassword}}, false},
		{"sign in cross-site", anon, "/signin", url.Values{"csrf": {anonToken}, "email": {email}, "password": {sitePassword}}, true},
		{"sign up without a cookie", env.browser(t), "/signup", url.Values{"csrf": {anonToken}, "email": {siteEmail("x")}, "password": {sitePassword}, "confirm": {sitePassword}}, false},
		{"create key without a token", signedIn, "/settings/api/keys", url.Values{"name": {"x"}, "mode": {"live"}}, false},
		{"create key with a signed-out token", signedIn, "/settings/api/keys", url.Values{"csrf": {anonToken}, "name": {"x"}, "mode": {"live"}}, false},
		{"create key cross-site", signedIn, "/settings/api/keys", url.Values{"csrf": {sessionToken}, "name": {"x"}, "mode": {"live"}}, true},
		{"sign out without a token", signedIn, "/signout", url.Values{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.crossSite {
				// Lower-case, as HTTP/2 proxies pass it on.
				tc.b.header["sec-fetch-site"] = []string{"cross-site"}
				defer delete(tc.b.header, "sec-fetch-site")
			}
			p := tc.b.do("POST", tc.path, tc.fields)
			wantStatus(t, p, http.StatusForbidden)
			if ct := p.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
				t.Fatalf("Content-Type = %q, want the HTML error page", ct)
			}
			if !strings.Contains(p.body, "reload the page") {
				t.Fatalf("error page lacks the reason:\n%s", p.body)
			}
		})
	}

	// Nothing happened: no key, still signed in.
	p := signedIn.get("/settings/api")
	wantStatus(t, p, http.StatusOK)
	if !strings.Contains(p.body, "You have no keys yet") {
		t.Fatal("a refused form created a key")
	}
	// The real token works.
	wantStatus(t, signedIn.shown(signedIn.do("POST", "/settings/api/keys", url.Values{"csrf": {sessionToken}, "name": {"x"}, "mode": {"live"}})), http.StatusOK)
}

func TestSiteDisabledAccount(t *testing.T) {
	t.Parallel()
	env := newSiteEnv(t, Config{}, nil)
	email := siteEmail("dormant")
	b := env.browser(t)
	b.mustSignUp(email)
	if err := env.st.DisableAccount(context.Background(), email); err != nil {
		t.Fatal(err)
	}
	// The session still exists but no longer signs anyone in.
	wantRedirect(t, b.get("/settings/api"), "/signin?next=%2Fsettings%2Fapi")

	// The right password learns that the account is disabled, a wrong one
	// learns nothing.
	p := env.browser(t).signIn(email, sitePassword)
	wantStatus(t, p, http.StatusForbidden)
	if !strings.Contains(p.body, "disabled") || p.cookie(session.Cookie) != nil {
		t.Fatalf("signing in to a disabled account:\n%s", p.body)
	}
	p = env.browser(t).signIn(email, "wrong password")
	wantStatus(t, p, http.StatusUnauthorized)
	if strings.Contains(p.body, "disabled") {
		t.Fatal("a wrong password learned that the account is disabled")
	}
}

func TestSiteRequireSignIn(t *testing.T) {
	t.Parallel()
	env := newSiteEnv(t, Config{}, nil)
	b := env.browser(t)
	for _, tc := range []struct{ method, path, want string }{
		{"GET", "/settings/api", "/signin?next=%2Fsettings%2Fapi"},
		{"GET", "/settings/api/keys/key_x/revoke", "/signin?next=%2Fsettings%2Fapi%2Fkeys%2Fkey_x%2Frevoke"},
		{"POST", "/settings/api/keys", "/signin?next=%2Fsettings%2Fapi"},
		{"POST", "/settings/api/keys/key_x/rotate", "/signin?next=%2Fsettings%2Fapi"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			var form url.Values
			if tc.method == "POST" {
				form = url.Values{}
			}
			wantRedirect(t, b.do(tc.method, tc.path, form), tc.want)
		})
	}
}

func TestSiteKeys(t *testing.T) {
	t.Parallel()
	env := newSiteEnv(t, Config{}, nil)
	ctx := context.Background()
	b := env.browser(t)
	b.mustSignUp(siteEmail("keys"))

	// Creating shows the key once, on the response, never to be seen again.
	p := b.createKey(url.Values{"name": {"production server"}, "mode": {"live"}})
	wantStatus(t, p, http.StatusOK)
	keys := siteKeyPattern.FindAllString(p.body, -1)
	if len(keys) != 1 || !strings.HasPrefix(keys[0], "svc_live_") {
		t.Fatalf("new key page shows keys %q, want one live key:\n%s", keys, p.body)
	}
	secret := keys[0]
	for _, w := range []string{`readonly value="` + secret + `"`, "will not be shown again", `data-copy="new-key"`, `<label for="new-key">`} {
		if !strings.Contains(p.body, w) {
			t.Errorf("new key page lacks %q", w)
		}
	}
	if cc := p.header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control = %q on the page with the key", cc)
	}
	// The copy script is allowed by its hash and by nothing looser.
	script := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindStringSubmatch(p.body)
	if script == nil {
		t.Fatal("no copy script")
	}
	sum := sha256.Sum256([]byte(script[1]))
	if csp := p.header.Get("Content-Security-Policy"); !strings.Contains(csp, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") ||
		strings.Contains(csp, "unsafe-inline") {
		t.Errorf("Content-Security-Policy %q does not allow exactly the copy script", csp)
	}

	list, err := env.st.ListKeys(ctx, siteAccountOf(t, env.st, b).ID)
	if err != nil || len(list) != 1 {
		t.Fatalf("ListKeys = %v, %v", list, err)
	}
	k := list[0]
	p = b.get("/settings/api")
	wantStatus(t, p, http.StatusOK)
	if strings.Contains(p.body, secret) || strings.Contains(p.body, secret[:20]) {
		t.Fatal("the keys page shows the key again")
	}
	for _, w := range []string{"production server", k.Prefix, ">live<", ">active<", "never", "/settings/api/keys/" + k.ID + "/revoke", "/settings/api/keys/" + k.ID + "/rotate"} {
		if !strings.Contains(p.body, w) {
			t.Errorf("keys page lacks %q", w)
		}
	}

	t.Run("form errors", func(t *testing.T) {
		for _, tc := range []struct {
			name    string
			fields  url.Values
			status  int
			message string
		}{
			{"expiry zero", url.Values{"name": {"a"}, "mode": {"live"}, "expires_in_days": {"0"}}, 400, "whole number of days"},
			{"expiry not a number", url.Values{"name": {"a"}, "mode": {"live"}, "expires_in_days": {"soon"}}, 400, "whole number of days"},
			{"no mode", url.Values{"name": {"a"}}, 400, "live or test"},
			{"name too long", url.Values{"name": {strings.Repeat("n", store.MaxKeyNameLength+1)}, "mode": {"test"}}, 400, "at most 100"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				p := b.createKey(tc.fields)
				wantStatus(t, p, tc.status)
				if !strings.Contains(p.body, tc.message) || siteKeyPattern.MatchString(p.body) {
					t.Fatalf("page lacks %q or shows a key:\n%s", tc.message, p.body)
				}
			})
		}
	})

	t.Run("test key with expiry", func(t *testing.T) {
		p := b.createKey(url.Values{"name": {"staging"}, "mode": {"test"}, "expires_in_days": {"30"}})
		wantStatus(t, p, http.StatusOK)
		if keys := siteKeyPattern.FindAllString(p.body, -1); len(keys) != 1 || !strings.HasPrefix(keys[0], "svc_test_") {
			t.Fatalf("keys shown: %q", keys)
		}
		want := time.Now().Add(30 * 24 * time.Hour).UTC().Format("2 Jan 2006")
		if p := b.get("/settings/api"); !strings.Contains(p.body, ">test<") || !strings.Contains(p.body, want) {
			t.Fatalf("keys page lacks the test key expiring %s", want)
		}
	})

	t.Run("rotate", func(t *testing.T) {
		p := b.get("/settings/api/keys/" + k.ID + "/rotate")
		wantStatus(t, p, http.StatusOK)
		if !strings.Contains(p.body, "revoked at once") || siteKeyPattern.MatchString(p.body) {
			t.Fatalf("confirm page:\n%s", p.body)
		}
		p = b.shown(b.do("POST", "/settings/api/keys/"+k.ID+"/rotate", url.Values{"csrf": {p.csrf(t)}}))
		wantStatus(t, p, http.StatusOK)
		keys := siteKeyPattern.FindAllString(p.body, -1)
		if len(keys) != 1 || keys[0] == secret || !strings.Contains(p.body, k.Prefix) {
			t.Fatalf("rotation page shows %q:\n%s", keys, p.body)
		}
		old, err := env.st.KeyByID(ctx, k.ID)
		if err != nil || old.Status != store.KeyRevoked || old.ReplacedBy == "" {
			t.Fatalf("old key after rotation: %+v, %v", old, err)
		}
		// Rotating it again is refused in words, not with an error page.
		p = b.get("/settings/api")
		p = b.do("POST", "/settings/api/keys/"+k.ID+"/rotate", url.Values{"csrf": {p.csrf(t)}})
		wantStatus(t, p, http.StatusConflict)
		if !strings.Contains(p.body, "already rotated") || !strings.Contains(p.body, `role="alert"`) {
			t.Fatalf("second rotation:\n%s", p.body)
		}
		k = old
	})

	t.Run("revoke", func(t *testing.T) {
		nk, err := env.st.KeyByID(ctx, k.ReplacedBy)
		if err != nil {
			t.Fatal(err)
		}
		p := b.get("/settings/api/keys/" + nk.ID + "/revoke")
		wantStatus(t, p, http.StatusOK)
		if !strings.Contains(p.body, "Revocation is permanent") || !strings.Contains(p.body, nk.Prefix) {
			t.Fatalf("confirm page:\n%s", p.body)
		}
		if got, _ := env.st.KeyByID(ctx, nk.ID); got.Status != store.KeyActive {
			t.Fatal("showing the confirmation revoked the key")
		}
		p = b.do("POST", "/settings/api/keys/"+nk.ID+"/revoke", url.Values{"csrf": {p.csrf(t)}})
		wantRedirect(t, p, "/settings/api?revoked="+nk.ID)
		if got, _ := env.st.KeyByID(ctx, nk.ID); got.Status != store.KeyRevoked {
			t.Fatalf("key status = %s after revoking", got.Status)
		}
		p = b.get(p.location())
		if !strings.Contains(p.body, "is revoked") || !strings.Contains(p.body, `role="status"`) {
			t.Fatalf("no confirmation on the keys page:\n%s", p.body)
		}
		// The confirmation is only for this account's revoked keys.
		if p := b.get("/settings/api?revoked=key_madeup"); strings.Contains(p.body, "is revoked") {
			t.Fatal("the query string put a confirmation on the page")
		}
	})

	t.Run("too many keys", func(t *testing.T) {
		acct := siteAccountOf(t, env.st, b)
		for {
			p := b.createKey(url.Values{"name": {"more"}, "mode": {"live"}})
			if p.status == http.StatusOK {
				continue
			}
			wantStatus(t, p, http.StatusConflict)
			if !strings.Contains(p.body, fmt.Sprintf("the most its plan allows (%d)", acct.Plan.MaxActiveKeys)) ||
				!strings.Contains(p.body, `value="more"`) || siteKeyPattern.MatchString(p.body) {
				t.Fatalf("over the limit:\n%s", p.body)
			}
			break
		}
	})

	if logs := env.logs.String(); strings.Contains(logs, secret) || strings.Contains(logs, sitePassword) || siteKeyPattern.MatchString(logs) {
		t.Fatal("logs contain a key or password")
	}
}

// siteAccountOf returns the account the browser is signed in as.
func siteAccountOf(t *testing.T, st *store.Store, b *siteBrowser) store.Account {
	t.Helper()
	var token string
	for _, c := range b.jar.Cookies(b.base) {
		if c.Name == session.Cookie {
			token = c.Value
		}
	}
	_, acct, err := st.SessionByToken(context.Background(), token, time.Now())
	if err != nil {
		t.Fatalf("account of the browser: %v", err)
	}
	return acct
}

func TestSiteKeysOfOthers(t *testing.T) {
	t.Parallel()
	env := newSiteEnv(t, Config{}, nil)
	ctx := context.Background()
	owner := env.browser(t)
	owner.mustSignUp(siteEmail("owner"))
	wantStatus(t, owner.createKey(url.Values{"name": {"mine"}, "mode": {"live"}}), http.StatusOK)
	keys, err := env.st.ListKeys(ctx, siteAccountOf(t, env.st, owner).ID)
	if err != nil || len(keys) != 1 {
		t.Fatalf("ListKeys = %v, %v", keys, err)
	}
	id := keys[0].ID

	other := env.browser(t)
	other.mustSignUp(siteEmail("other"))
	token := other.get("/settings/api").csrf(t)
	for _, tc := range []struct{ method, path string }{
		{"GET", "/settings/api/keys/" + id + "/revoke"},
		{"GET", "/settings/api/keys/" + id + "/rotate"},
		{"POST", "/settings/api/keys/" + id + "/revoke"},
		{"POST", "/settings/api/keys/" + id + "/rotate"},
		{"GET", "/settings/api/keys/key_doesnotexist/revoke"},
		{"POST", "/settings/api/keys/key_doesnotexist/rotate"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			var form url.Values
			if tc.method == "POST" {
				form = url.Values{"csrf": {token}}
			}
			p := other.do(tc.method, tc.path, form)
			wantStatus(t, p, http.StatusNotFound)
			if strings.Contains(p.body, "mine") || strings.Contains(p.body, keys[0].Prefix) {
				t.Fatal("the 404 page tells about the other account's key")
			}
		})
	}
	if k, _ := env.st.KeyByID(ctx, id); k.Status != store.KeyActive || k.ReplacedBy != "" {
		t.Fatalf("another account changed the key: %+v", k)
	}
	if p := other.get("/settings/api"); strings.Contains(p.body, id) {
		t.Fatal("another account's key is listed")
	}
}

func TestSiteRequireAdmin(t *testing.T) {
	t.Parallel()
	env := newSiteEnv(t, Config{}, nil)
	env.srv.App().Get("/admin/probe", env.srv.sessions.RequireAdmin, func(c *fiber.Ctx) error { return c.SendString("admin only") })

	hash, err := HashPassword(sitePassword)
	if err != nil {
		t.Fatal(err)
	}
	adminEmail := siteEmail("admin")
	if _, err := env.st.CreateAccount(context.Background(), adminEmail, hash, "", true); err != nil {
		t.Fatal(err)
	}
	admin := env.browser(t)
	wantRedirect(t, admin.signIn(adminEmail, sitePassword), "/settings/api")
	user := env.browser(t)
	user.mustSignUp(siteEmail("user"))

	for _, tc := range []struct {
		name     string
		b        *siteBrowser
		status   int
		location string
	}{
		{"signed out", env.browser(t), http.StatusSeeOther, "/signin?next=%2Fadmin%2Fprobe"},
		{"not an administrator", user, http.StatusNotFound, ""},
		{"administrator", admin, http.StatusOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.b.get("/admin/probe")
			wantStatus(t, p, tc.status)
			if p.location() != tc.location {
				t.Fatalf("Location = %q, want %q", p.location(), tc.location)
			}
			if (tc.status == http.StatusOK) != strings.Contains(p.body, "admin only") {
				t.Fatalf("body = %q", p.body)
			}
		})
	}
}
