package web

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/limits"
)

// Website sessions, and the sign-up, sign-in and sign-out that make and end
// them. The browser holds a 256-bit random token in the selah_session
// cookie; the database holds its SHA-256 (store/sessions.go).
// Every POST form carries a CSRF token: the session's own once signed in,
// and before that (sign-in and sign-up forms) a random token that is also
// in the selah_csrf cookie, which a cross-site page can neither read nor
// set. Both cookies are SameSite=Lax, which already keeps them off
// cross-site POSTs in current browsers; the tokens do not depend on that.
const (
	sessionCookie = "selah_session"
	csrfCookie    = "selah_csrf"
	csrfField     = "csrf"
	csrfHeader    = "X-CSRF-Token"

	// sessionTTL is how long a session lasts without use. Use slides it:
	// a session seen with less than sessionTTL-sessionRenewEvery left is
	// extended, so an active user signs in about once a month at most and
	// the expiry is written at most once a day per session.
	sessionTTL        = 30 * 24 * time.Hour
	sessionRenewEvery = 24 * time.Hour

	localSession = "siteSession"
	localCSRF    = "siteCSRF"

	minPasswordLen = 10
	// maxPasswordLen bounds what is fed to argon2; no one types more.
	maxPasswordLen = 1000

	// A client (IP and email together) that fails to sign in
	// signInMaxFailures times is refused for the rest of signInWindow.
	// Keying on both stops password guessing from one place without letting
	// anyone lock a victim out from everywhere.
	signInMaxFailures = 10
	signInWindow      = 15 * time.Minute
)

var errCSRF = selah.Errorf(selah.EFORBIDDEN,
	"This form has expired or did not come from this site. Go back, reload the page and try again.")

// session is the signed-in state of a request.
type session struct {
	token   string
	account store.Account
	csrf    string
}

// sessionOf returns the request's session, nil when signed out. The lookup
// runs at most once per request, whichever middleware or handler asks
// first; routes that never ask (the API) never touch the sessions table.
func (s *Server) sessionOf(c *fiber.Ctx) (*session, error) {
	if sess, ok := c.Locals(localSession).(*session); ok { // a nil *session means "looked, signed out"
		return sess, nil
	}
	sess, err := s.loadSession(c)
	if err != nil {
		return nil, err
	}
	c.Locals(localSession, sess)
	return sess, nil
}

func (s *Server) loadSession(c *fiber.Ctx) (*session, error) {
	token := c.Cookies(sessionCookie)
	if token == "" {
		return nil, nil
	}
	token = strings.Clone(token) // Fiber reuses the request buffer
	now := s.now()
	st, acct, err := s.store.SessionByToken(c.UserContext(), token, now)
	if errors.Is(err, selah.ErrNotFound) {
		s.clearCookie(c, sessionCookie)
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
	if st.ExpiresAt.Sub(now) < sessionTTL-sessionRenewEvery {
		exp := now.Add(sessionTTL)
		if err := s.store.ExtendSession(c.UserContext(), token, exp); err != nil {
			// The session is still valid for a while; renewal can wait.
			logger(c).Warn("extend session", slog.String("error", err.Error()))
		} else {
			s.setSessionCookie(c, token, exp)
		}
	}
	c.Locals(localLogger, logger(c).With(slog.Int64("accountId", acct.ID)))
	return &session{token: token, account: acct, csrf: st.CSRFToken}, nil
}

// startSession signs the account in: a new session, whatever cookie the
// browser had before, so a token planted before sign-in is worthless after.
func (s *Server) startSession(c *fiber.Ctx, acct store.Account) error {
	token, st, err := s.store.CreateSession(c.UserContext(), acct.ID, s.now(), sessionTTL)
	if err != nil {
		return fmt.Errorf("web: start session: %w", err)
	}
	s.setSessionCookie(c, token, st.ExpiresAt)
	c.Locals(localSession, &session{token: token, account: acct, csrf: st.CSRFToken})
	logger(c).Info("signed in", slog.Int64("accountId", acct.ID))
	return nil
}

// endSession signs out: the session row goes, so the token is dead even if
// the cookie survives somewhere.
func (s *Server) endSession(c *fiber.Ctx) error {
	sess, err := s.sessionOf(c)
	if err != nil {
		return err
	}
	if sess != nil {
		if err := s.store.DeleteSession(c.UserContext(), sess.token); err != nil {
			return fmt.Errorf("web: end session: %w", err)
		}
		logger(c).Info("signed out")
	}
	s.clearCookie(c, sessionCookie)
	c.Locals(localSession, (*session)(nil))
	return nil
}

func (s *Server) setSessionCookie(c *fiber.Ctx, token string, expires time.Time) {
	c.Cookie(&fiber.Cookie{
		Name:     sessionCookie,
		Value:    token,
		Path:     "/",
		MaxAge:   max(1, int(expires.Sub(s.now()).Seconds())),
		Secure:   s.secureCookies(c),
		HTTPOnly: true,
		SameSite: fiber.CookieSameSiteLaxMode,
	})
}

func (s *Server) clearCookie(c *fiber.Ctx, name string) {
	c.Cookie(&fiber.Cookie{
		Name:     name,
		Path:     "/",
		Expires:  time.Unix(0, 0), // in the past: the browser drops it
		Secure:   s.secureCookies(c),
		HTTPOnly: true,
		SameSite: fiber.CookieSameSiteLaxMode,
	})
}

// secureCookies reports whether cookies must be Secure: on HTTPS requests
// (directly or as told by the proxy) and whenever the site's public URL is
// HTTPS, so that a proxy that forgets X-Forwarded-Proto cannot downgrade
// them.
func (s *Server) secureCookies(c *fiber.Ctx) bool {
	return c.Protocol() == "https" || strings.HasPrefix(strings.ToLower(s.cfg.PublicURL), "https://")
}

// csrfToken returns the token the request's forms must carry: the
// session's, or for a signed-out visitor the double-submit token of the
// selah_csrf cookie, issuing that cookie on first need.
func (s *Server) csrfToken(c *fiber.Ctx) (string, error) {
	sess, err := s.sessionOf(c)
	if err != nil {
		return "", err
	}
	if sess != nil {
		return sess.csrf, nil
	}
	if t, ok := c.Locals(localCSRF).(string); ok {
		return t, nil
	}
	t := c.Cookies(csrfCookie)
	if !selah.WellFormedToken(t) {
		t = selah.NewToken()
		c.Cookie(&fiber.Cookie{
			Name:        csrfCookie,
			Value:       t,
			Path:        "/",
			SessionOnly: true,
			Secure:      s.secureCookies(c),
			HTTPOnly:    true,
			SameSite:    fiber.CookieSameSiteLaxMode,
		})
	}
	t = strings.Clone(t)
	c.Locals(localCSRF, t)
	return t, nil
}

// checkCSRF guards every state-changing form route: the form's csrf field
// must equal the session's token, or, signed out, the selah_csrf cookie.
// Requests the browser itself labels cross-site are refused outright.
func (s *Server) checkCSRF(c *fiber.Ctx) error {
	if c.Get("Sec-Fetch-Site") == "cross-site" {
		return errCSRF
	}
	sess, err := s.sessionOf(c)
	if err != nil {
		return err
	}
	want := c.Cookies(csrfCookie)
	if sess != nil {
		want = sess.csrf
	}
	got := c.FormValue(csrfField)
	if got == "" {
		got = c.Get(csrfHeader) // scripts posting JSON (the chat)
	}
	if !selah.WellFormedToken(want) || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
		logger(c).Info("csrf token refused", slog.Bool("signedIn", sess != nil))
		return errCSRF
	}
	return c.Next()
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

// requireSignIn sends signed-out visitors to the sign-in page, which
// returns them here afterwards.
func (s *Server) requireSignIn(c *fiber.Ctx) error {
	sess, err := s.sessionOf(c)
	if err != nil {
		return err
	}
	if sess == nil {
		return c.Redirect(signInURL(c), fiber.StatusSeeOther)
	}
	return c.Next()
}

// requireAdmin guards administrator pages (the queue dashboard): signed-out
// visitors are sent to sign in, signed-in non-administrators get a plain
// 404, so the pages' existence is not advertised.
func (s *Server) requireAdmin(c *fiber.Ctx) error {
	sess, err := s.sessionOf(c)
	if err != nil {
		return err
	}
	if sess == nil {
		return c.Redirect(signInURL(c), fiber.StatusSeeOther)
	}
	if !sess.account.IsAdmin {
		return fiber.ErrNotFound
	}
	return c.Next()
}

// signInURL is the sign-in page with a way back to the current page. Only
// GETs can be returned to; a form posted after the session ended returns
// to the keys page.
func signInURL(c *fiber.Ctx) string {
	next := "/settings/api"
	if c.Method() == fiber.MethodGet {
		// Path and query only, even if the request line was absolute.
		next = string(c.Request().URI().RequestURI())
	}
	return "/signin?next=" + url.QueryEscape(next)
}

// localPath returns next if it is a path on this site, else "". It stops
// sign-in from redirecting elsewhere (an open redirect): "//evil.example"
// and "/\evil.example" are other hosts to browsers.
func localPath(next string) string {
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

// authForm is the data of the sign-in and sign-up pages. It never holds a
// password: a failed form comes back with the email only.
type authForm struct {
	Email  string
	Next   string
	Error  string
	Notice string // a success to report, e.g. a confirmed address
}

func (s *Server) signUpForm(c *fiber.Ctx) error {
	next := localPath(c.Query("next"))
	if sess, err := s.sessionOf(c); err != nil || sess != nil {
		return s.alreadySignedIn(c, err, next)
	}
	return s.renderPage(c, fiber.StatusOK, "signup", authForm{Next: next})
}

func (s *Server) signUp(c *fiber.Ctx) error {
	form := authForm{Email: strings.TrimSpace(c.FormValue("email")), Next: localPath(c.FormValue("next"))}
	pw, confirm := c.FormValue("password"), c.FormValue("confirm")
	fail := func(status int, msg string) error {
		form.Error = msg
		return s.renderPage(c, status, "signup", form)
	}
	switch n := utf8.RuneCountInString(pw); {
	case form.Email == "":
		return fail(fiber.StatusBadRequest, "Enter your email address.")
	case n < minPasswordLen:
		return fail(fiber.StatusBadRequest, fmt.Sprintf("Choose a password of at least %d characters.", minPasswordLen))
	case n > maxPasswordLen:
		return fail(fiber.StatusBadRequest, fmt.Sprintf("Choose a password of at most %d characters.", maxPasswordLen))
	case pw != confirm:
		return fail(fiber.StatusBadRequest, "The two passwords do not match.")
	}
	if msg := weakPassword(pw, form.Email); msg != "" {
		return fail(fiber.StatusBadRequest, msg)
	}
	ip := c.IP()
	for _, th := range []func(context.Context) (bool, time.Duration, error){
		func(ctx context.Context) (bool, time.Duration, error) {
			return s.limits.Attempt(ctx, throttleName("signup-ip", ip), signUpPerClient)
		},
		func(ctx context.Context) (bool, time.Duration, error) {
			return s.limits.Attempt(ctx, "signup-global", signUpGlobal)
		},
	} {
		if err := s.throttled(c, th, "Too many accounts were created recently. Try again later."); err != nil {
			if selah.ErrorCode(err) == selah.ERATELIMITED {
				setRetryAfter(c, err)
				return fail(fiber.StatusTooManyRequests, selah.ErrorMessage(err))
			}
			return err
		}
	}
	var hash string
	err := withPasswordSlot(c.UserContext(), func() (err error) {
		hash, err = HashPassword(pw)
		return err
	})
	if err != nil {
		return err
	}
	// From here on every address is answered alike, taken or not (issue
	// 14): the same hash above, one e-mail, the same page.
	su, err := s.store.SignUp(c.UserContext(), form.Email, hash, s.now(), verifyLinkTTL)
	if code := selah.ErrorCode(err); code != "" && code != selah.EINTERNAL {
		return fail(StatusOf(code), selah.ErrorMessage(err))
	}
	if err != nil {
		return fmt.Errorf("web: sign up: %w", err)
	}
	logger(c).Info("sign-up", slog.Int64("accountId", su.Account.ID), slog.Bool("created", su.Outcome == store.SignUpCreated))
	if err := s.sendSignUpMail(c, su); err != nil {
		setRetryAfter(c, err)
		return fail(StatusOf(selah.ErrorCode(err)), selah.ErrorMessage(err))
	}
	return s.renderPage(c, fiber.StatusOK, "signup_sent", signUpSent{Email: su.Account.Email, Next: form.Next})
}

func (s *Server) signInForm(c *fiber.Ctx) error {
	next := localPath(c.Query("next"))
	if sess, err := s.sessionOf(c); err != nil || sess != nil {
		return s.alreadySignedIn(c, err, next)
	}
	return s.renderPage(c, fiber.StatusOK, "signin", authForm{Next: next})
}

// errBadCredentials is the one message for every failed sign-in, so the
// page never tells whether an account with the email exists.
const errBadCredentials = "The email address or password is not correct."

const errNotVerified = "Confirm your e-mail address first: open the link in the message we sent to it. " +
	"To get a new link, sign up again with the same address."

func (s *Server) signIn(c *fiber.Ctx) error {
	form := authForm{Email: strings.TrimSpace(c.FormValue("email")), Next: localPath(c.FormValue("next"))}
	pw := c.FormValue("password")
	fail := func(status int, msg string) error {
		form.Error = msg
		return s.renderPage(c, status, "signin", form)
	}
	if form.Email == "" || pw == "" {
		return fail(fiber.StatusBadRequest, "Enter your email address and password.")
	}
	if utf8.RuneCountInString(pw) > maxPasswordLen {
		return fail(fiber.StatusUnauthorized, errBadCredentials)
	}
	ip := c.IP()
	clientKey, emailKey := throttleName("signin", ip, store.NormalizeEmail(form.Email)), throttleName("signin-email", store.NormalizeEmail(form.Email))
	busy := "Too many attempts to sign in from your network. Wait a minute and try again."
	locked := "Too many failed attempts to sign in. Wait 15 minutes and try again."
	for _, th := range []struct {
		check func(context.Context) (bool, time.Duration, error)
		msg   string
	}{
		{func(ctx context.Context) (bool, time.Duration, error) {
			return s.limits.Bucket(ctx, throttleName("signin-ip", ip), signInBucketPerMinute, signInBucketBurst)
		}, busy},
		{func(ctx context.Context) (bool, time.Duration, error) {
			return s.limits.Attempt(ctx, clientKey, signInPerClient)
		}, locked},
		{func(ctx context.Context) (bool, time.Duration, error) {
			return s.limits.Attempt(ctx, emailKey, signInPerEmail)
		}, locked},
	} {
		if err := s.throttled(c, th.check, th.msg); err != nil {
			if selah.ErrorCode(err) == selah.ERATELIMITED {
				setRetryAfter(c, err)
				return fail(fiber.StatusTooManyRequests, selah.ErrorMessage(err))
			}
			return err
		}
	}
	acct, hash, err := s.store.AccountForLogin(c.UserContext(), form.Email)
	if err != nil && !errors.Is(err, selah.ErrNotFound) {
		return fmt.Errorf("web: sign in: %w", err)
	}
	var ok bool
	err = withPasswordSlot(c.UserContext(), func() error {
		// An unknown email, or an account without a password, costs the
		// same hash as a known one, so timing does not tell them apart.
		if hash == "" {
			CheckPassword(dummyHash(), pw)
			return nil
		}
		ok = CheckPassword(hash, pw)
		return nil
	})
	if err != nil {
		return err
	}
	if !ok {
		logger(c).Info("sign-in failed")
		return fail(fiber.StatusUnauthorized, errBadCredentials)
	}
	if acct.Status != store.AccountActive {
		// The password was right, so saying this reveals nothing new.
		return fail(fiber.StatusForbidden, "This account is disabled.")
	}
	// A success forgets the client's failures and gives back its own
	// attempt of the e-mail's budget; the failures of others stay.
	if err := s.limits.Reset(c.UserContext(), clientKey); err != nil {
		logger(c).Warn("reset sign-in failures", slog.String("error", err.Error()))
	}
	if err := s.limits.Undo(c.UserContext(), emailKey); err != nil {
		logger(c).Warn("undo sign-in attempt", slog.String("error", err.Error()))
	}
	if !acct.Verified {
		// Said only after the right password, so it tells an outsider
		// nothing about the address.
		return fail(fiber.StatusForbidden, errNotVerified)
	}
	if err := s.startSession(c, acct); err != nil {
		return err
	}
	return c.Redirect(orDefault(form.Next, "/settings/api"), fiber.StatusSeeOther)
}

func (s *Server) signOut(c *fiber.Ctx) error {
	if err := s.endSession(c); err != nil {
		return err
	}
	return c.Redirect("/", fiber.StatusSeeOther)
}

func (s *Server) alreadySignedIn(c *fiber.Ctx, err error, next string) error {
	if err != nil {
		return err
	}
	return c.Redirect(orDefault(next, "/settings/api"), fiber.StatusSeeOther)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// passwordSlots bounds concurrent argon2id work: each hash holds 64 MiB
// while it runs, so a burst of sign-ins must queue rather than exhaust
// memory.
var passwordSlots = make(chan struct{}, max(2, runtime.NumCPU()))

// passwordSlotWait is shorter than it was (10 s): the per-address bucket
// keeps floods out, so a request that still finds every slot busy is
// better told soon. A variable only so that the test binary, whose
// parallel tests all hash passwords through these few slots under the race
// detector, can wait longer.
var passwordSlotWait = 5 * time.Second

func withPasswordSlot(ctx context.Context, f func() error) error {
	t := time.NewTimer(passwordSlotWait)
	defer t.Stop()
	select {
	case passwordSlots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return &selah.Error{Code: selah.EUNAVAILABLE, Message: "The site is busy. Try again in a moment.", RetryAfter: 5}
	}
	defer func() { <-passwordSlots }()
	return f()
}

// dummyHash is checked against when there is no real hash to check. It is
// made on first use, not at start, so commands that never serve sign-ins
// do not pay for it.
var dummyHash = sync.OnceValue(func() string {
	h, err := HashPassword("not a password anyone has")
	if err != nil {
		panic(err)
	}
	return h
})

// throttleName names a throttle by a hash of its parts, so that Redis
// holds no e-mail or client addresses.
func throttleName(kind string, parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return kind + ":" + hex.EncodeToString(sum[:16])
}

// throttleState tracks how long the throttles' Redis has been failing.
type throttleState struct {
	downSince atomic.Int64 // unix ns of the first failure of the outage; 0 when up
}

// throttleGrace is how long the sign-in and sign-up throttles stay open
// while Redis cannot be asked: a blip must not lock everyone out, but an
// outage must not leave sign-in unthrottled either (argon2id alone let a
// flood starve real users). After it they fail closed with 503.
const throttleGrace = 30 * time.Second

// throttleErr turns a Redis failure of a throttle into nil (fail open,
// within throttleGrace of the outage's start) or a 503.
func (s *Server) throttleErr(c *fiber.Ctx, err error) error {
	now := s.now().UnixNano()
	s.throttle.downSince.CompareAndSwap(0, now)
	if time.Duration(now-s.throttle.downSince.Load()) < throttleGrace {
		logger(c).Warn("throttle unavailable, open during grace", slog.String("error", err.Error()))
		return nil
	}
	logger(c).Error("throttle unavailable, failing closed", slog.String("error", err.Error()))
	return &selah.Error{Code: selah.EUNAVAILABLE, Message: "Signing in and up is unavailable right now. Try again shortly.", RetryAfter: 5}
}

// throttled runs one throttle check: nil to go on, a *selah.Error 429
// (EFORBIDDEN-free, rendered on the form by the caller) when refused, or a
// 503 when Redis has been down past the grace.
func (s *Server) throttled(c *fiber.Ctx, check func(ctx context.Context) (bool, time.Duration, error), msg string) error {
	ok, retry, err := check(c.UserContext())
	if err != nil {
		return s.throttleErr(c, err)
	}
	s.throttle.downSince.Store(0)
	if ok {
		return nil
	}
	return &selah.Error{Code: selah.ERATELIMITED, Message: msg, RetryAfter: max(1, int((retry+time.Second-1)/time.Second))}
}

// Sign-in and sign-up throttles (issue 14). Every check reserves before
// the work, atomically, so parallel requests cannot overrun a limit.
var (
	// signInPerClient: failures of one client address and e-mail; the
	// classic lockout, reset by a successful sign-in.
	signInPerClient = limits.Budget{Limit: signInMaxFailures, Window: signInWindow}
	// signInPerEmail: failures for one e-mail from all addresses, so a
	// botnet cannot spread guesses over addresses. It is larger, so one
	// attacker cannot lock a user out alone; a success gives back its own
	// attempt only.
	signInPerEmail = limits.Budget{Limit: 5 * signInMaxFailures, Window: signInWindow}
	// signUpPerClient and signUpGlobal: every account brings its own free
	// quota, so accounts are throttled per client address and overall.
	signUpPerClient = limits.Budget{Limit: 5, Window: time.Hour}
	signUpGlobal    = limits.Budget{Limit: 60, Window: time.Minute}
)

// Password attempts per client address: a token bucket in front of the
// argon2id slots, so a flood from one address is refused before it costs
// a hash and real users keep their slots.
const (
	signInBucketPerMinute = 20
	signInBucketBurst     = 10
)

// setRetryAfter copies a refusal's Retry-After to the response of a page
// that renders the refusal itself.
func setRetryAfter(c *fiber.Ctx, err error) {
	var ae *selah.Error
	if errors.As(err, &ae) && ae.RetryAfter > 0 {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(ae.RetryAfter))
	}
}

// mustSession is the session of a route behind requireSignIn.
func mustSession(c *fiber.Ctx) *session {
	sess, _ := c.Locals(localSession).(*session)
	if sess == nil {
		panic("web: signed-in route without requireSignIn")
	}
	return sess
}
