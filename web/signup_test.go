package web

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/selahdev/selah/email"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/session"
)

// TestSiteSignUpSameAnswer (issue 14, defect 6): signing up with an address
// that had an account was a 409 "already exists", which told anyone which
// addresses have accounts. Every address now gets the same page; only the
// e-mail, which its owner alone reads, differs.
func TestSiteSignUpSameAnswer(t *testing.T) {
	t.Parallel()
	env := newSiteEnv(t, Config{}, nil)
	taken, pending, fresh := siteEmail("taken"), siteEmail("pending"), siteEmail("fresh")
	env.browser(t).mustSignUp(taken)
	wantStatus(t, env.browser(t).signUp(pending, sitePassword), http.StatusOK)
	sentBefore := len(env.mail.to(taken)) + len(env.mail.to(pending))

	type answer struct {
		status  int
		body    string
		cookies []string
	}
	answers := map[string]answer{}
	for _, tc := range []struct{ name, addr string }{
		{"new address", fresh},
		{"verified account, other case", strings.ToUpper(taken)},
		{"unverified account", pending},
	} {
		p := env.browser(t).signUp(tc.addr, "another good passphrase")
		var cookies []string
		for _, c := range (&http.Response{Header: p.header}).Cookies() {
			cookies = append(cookies, c.Name)
		}
		slices.Sort(cookies)
		body := siteCSRFPattern.ReplaceAllString(strings.ReplaceAll(p.body, store.NormalizeEmail(tc.addr), "EMAIL"), "")
		answers[tc.name] = answer{p.status, body, cookies}
		if p.status != http.StatusOK || !strings.Contains(p.body, "Check your e-mail") {
			t.Fatalf("%s: %d:\n%s", tc.name, p.status, p.body)
		}
		if p.cookie(session.Cookie) != nil {
			t.Fatalf("%s: sign-up set a session cookie", tc.name)
		}
	}
	want := answers["new address"]
	for name, got := range answers {
		if got.status != want.status || got.body != want.body || !slices.Equal(got.cookies, want.cookies) {
			t.Errorf("%s answered %d %v, the new address %d %v; bodies equal: %v", name, got.status, got.cookies,
				want.status, want.cookies, got.body == want.body)
		}
	}

	// What differs goes by e-mail: a link for the new and the unverified
	// address, a notice without a link for the taken one.
	if n := len(env.mail.to(taken)) + len(env.mail.to(pending)); n != sentBefore+2 {
		t.Fatalf("%d e-mails to the taken and the pending address, want %d", n, sentBefore+2)
	}
	env.mail.verifyPath(t, fresh)
	notice := env.mail.to(taken)[len(env.mail.to(taken))-1]
	if !strings.Contains(notice.Text, "already has an account") || strings.Contains(notice.Text, "/verify?") ||
		!strings.Contains(notice.Text, "http://selah.test/signin") {
		t.Fatalf("notice to an existing account:\n%s", notice.Text)
	}
	if ls := env.mail.to(pending); len(ls) != 2 || env.mail.verifyPath(t, pending) == verifyLinkPattern.FindStringSubmatch(ls[0].Text)[1] {
		t.Fatalf("signing up again with an unverified address did not send a fresh link: %d messages", len(ls))
	}
	// The taken account is as it was: its password still works.
	wantRedirect(t, env.browser(t).signIn(taken, sitePassword), "/settings/api")
	wantStatus(t, env.browser(t).signIn(taken, "another good passphrase"), http.StatusUnauthorized)
}

// TestSiteVerifyLink: a link works once and within verifyLinkTTL; an
// unverified account cannot sign in, and says so only to someone who knows
// its password.
func TestSiteVerifyLink(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	env := newSiteEnv(t, Config{}, clock)

	addr := siteEmail("verify")
	wantStatus(t, env.browser(t).signUp(addr, sitePassword), http.StatusOK)
	link := env.mail.verifyPath(t, addr)

	t.Run("unverified cannot sign in", func(t *testing.T) {
		p := env.browser(t).signIn(addr, sitePassword)
		wantStatus(t, p, http.StatusForbidden)
		if !strings.Contains(p.body, "Confirm your e-mail address first") || p.cookie(session.Cookie) != nil {
			t.Fatalf("unverified sign-in:\n%s", p.body)
		}
		p = env.browser(t).signIn(addr, "wrong password")
		wantStatus(t, p, http.StatusUnauthorized)
		if !strings.Contains(p.body, errBadCredentials) {
			t.Fatalf("wrong password of an unverified account:\n%s", p.body)
		}
	})

	b := env.browser(t)
	p := b.get(link)
	wantStatus(t, p, http.StatusOK)
	if !strings.Contains(p.body, "Confirm my address") {
		t.Fatalf("link page:\n%s", p.body)
	}
	wantStatus(t, b.get(link), http.StatusOK) // opening it (a mail scanner) does not use it up
	token := strings.TrimPrefix(link, "/verify?token=")
	p = b.do("POST", "/verify", url.Values{"csrf": {p.csrf(t)}, "token": {token}})
	wantStatus(t, p, http.StatusOK)
	if !strings.Contains(p.body, "Your e-mail address is confirmed") || !strings.Contains(p.body, `action="/signin"`) {
		t.Fatalf("after verifying:\n%s", p.body)
	}
	if p.cookie(session.Cookie) != nil {
		t.Fatal("following the link signed in: the link alone is not the password")
	}
	wantRedirect(t, env.browser(t).signIn(addr, sitePassword), "/settings/api")

	refused := func(t *testing.T, p sitePage) {
		t.Helper()
		wantStatus(t, p, http.StatusBadRequest)
		if !strings.Contains(p.body, "This confirmation link does not work") || !strings.Contains(p.body, `role="alert"`) {
			t.Fatalf("refused link page:\n%s", p.body)
		}
	}
	t.Run("used", func(t *testing.T) {
		b := env.browser(t)
		refused(t, b.get(link))
		p := b.get("/signin") // a form page, for a CSRF token
		refused(t, b.do("POST", "/verify", url.Values{"csrf": {p.csrf(t)}, "token": {token}}))
	})
	t.Run("malformed", func(t *testing.T) {
		refused(t, env.browser(t).get("/verify?token=abc"))
		refused(t, env.browser(t).get("/verify"))
	})
	t.Run("expired", func(t *testing.T) {
		addr := siteEmail("expired")
		wantStatus(t, env.browser(t).signUp(addr, sitePassword), http.StatusOK)
		link := env.mail.verifyPath(t, addr)
		b := env.browser(t)
		p := b.get(link)
		wantStatus(t, p, http.StatusOK)
		mu.Lock()
		now = now.Add(verifyLinkTTL)
		mu.Unlock()
		refused(t, b.get(link))
		refused(t, b.do("POST", "/verify", url.Values{"csrf": {p.csrf(t)}, "token": {strings.TrimPrefix(link, "/verify?token=")}}))
		wantStatus(t, env.browser(t).signIn(addr, sitePassword), http.StatusForbidden)
		// Signing up again sends a link that works.
		wantStatus(t, env.browser(t).signUp(addr, sitePassword), http.StatusOK)
		env.browser(t).mustVerify(addr)
		wantRedirect(t, env.browser(t).signIn(addr, sitePassword), "/settings/api")
	})
}

// TestSiteVerifyLinkSetsItsPassword: each link sets the password chosen in
// the sign-up that sent it, so someone who signed up first with another's
// address cannot choose the password of the account its owner confirms;
// and following one link retires the others.
func TestSiteVerifyLinkSetsItsPassword(t *testing.T) {
	t.Parallel()
	env := newSiteEnv(t, Config{}, nil)
	addr := siteEmail("twice")
	first, second := "first long passphrase", "second long passphrase"
	wantStatus(t, env.browser(t).signUp(addr, first), http.StatusOK)
	firstLink := env.mail.verifyPath(t, addr)
	wantStatus(t, env.browser(t).signUp(addr, second), http.StatusOK)
	secondLink := env.mail.verifyPath(t, addr)

	b := env.browser(t)
	p := b.get(secondLink)
	p = b.do("POST", "/verify", url.Values{"csrf": {p.csrf(t)}, "token": {strings.TrimPrefix(secondLink, "/verify?token=")}})
	wantStatus(t, p, http.StatusOK)
	wantStatus(t, env.browser(t).signIn(addr, first), http.StatusUnauthorized)
	wantRedirect(t, env.browser(t).signIn(addr, second), "/settings/api")
	wantStatus(t, env.browser(t).get(firstLink), http.StatusBadRequest)
}

// TestSiteSignUpMailFailure: when the e-mail cannot be sent, every address
// gets the same 503 page, with Retry-After.
func TestSiteSignUpMailFailure(t *testing.T) {
	t.Parallel()
	env := newSiteEnv(t, Config{}, nil)
	taken := siteEmail("taken")
	env.browser(t).mustSignUp(taken)
	srv := NewTestServer(t, Config{}, Deps{Store: env.st, Redis: env.srv.redis, Logger: env.srv.log, Mailer: failingMailer{}})
	var bodies []string
	for _, addr := range []string{taken, siteEmail("new")} {
		b := &siteBrowser{t: t, srv: srv, base: siteBase, jar: env.browser(t).jar, header: http.Header{}}
		p := b.signUp(addr, sitePassword)
		wantStatus(t, p, http.StatusServiceUnavailable)
		if p.header.Get("Retry-After") == "" || !strings.Contains(p.body, "could not send you an e-mail") {
			t.Fatalf("mail failure page (Retry-After %q):\n%s", p.header.Get("Retry-After"), p.body)
		}
		bodies = append(bodies, siteCSRFPattern.ReplaceAllString(strings.ReplaceAll(p.body, addr, "EMAIL"), ""))
	}
	if bodies[0] != bodies[1] {
		t.Fatal("the mail failure page differs between a taken and a new address")
	}
}

// failingMailer is an SMTP server that refuses every message.
type failingMailer struct{}

func (failingMailer) Send(context.Context, email.Message) error {
	return errors.New("554 transaction failed")
}

// TestSiteSignUpDevMailer: without a Mailer (development) the link is
// written to the log, where a developer finds it, and it works; the
// address itself is not logged.
func TestSiteSignUpDevMailer(t *testing.T) {
	t.Parallel()
	env := newSiteEnv(t, Config{}, nil)
	logs := &siteLogs{}
	srv := NewTestServer(t, Config{}, Deps{Store: env.st, Redis: env.srv.redis, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	b := &siteBrowser{t: t, srv: srv, base: siteBase, jar: env.browser(t).jar, header: http.Header{}}
	addr := siteEmail("dev")
	wantStatus(t, b.signUp(addr, sitePassword), http.StatusOK)
	m := verifyLinkPattern.FindStringSubmatch(strings.ReplaceAll(logs.String(), `\n`, "\n"))
	if m == nil {
		t.Fatalf("no verification link in the log:\n%s", logs.String())
	}
	if strings.Contains(logs.String(), addr) {
		t.Fatalf("the log holds the e-mail address:\n%s", logs.String())
	}
	p := b.get(m[1])
	wantStatus(t, b.do("POST", "/verify", url.Values{"csrf": {p.csrf(t)}, "token": {strings.TrimPrefix(m[1], "/verify?token=")}}), http.StatusOK)
	wantRedirect(t, b.signIn(addr, sitePassword), "/settings/api")
}
