package web

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/reqlog"
	"github.com/selahdev/selah/web/session"
)

// Sign-in and sign-out of the website. The session they start and end is
// web/session's; sign-up and the e-mail confirmation are in signup.go, the
// throttles in front of both in throttle.go.

const (
	minPasswordLen = 10
	// maxPasswordLen bounds what is fed to argon2; no one types more.
	maxPasswordLen = 1000
)

// authForm is the data of the sign-in and sign-up pages. It never holds a
// password: a failed form comes back with the email only.
type authForm struct {
	Email  string
	Next   string
	Error  string
	Notice string // a success to report, e.g. a confirmed address
}

func (s *Server) signInForm(c *fiber.Ctx) error {
	next := session.LocalPath(c.Query("next"))
	if sess, err := s.sessions.Of(c); err != nil || sess != nil {
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
	form := authForm{Email: strings.TrimSpace(c.FormValue("email")), Next: session.LocalPath(c.FormValue("next"))}
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
		reqlog.From(c).Info("sign-in failed")
		return fail(fiber.StatusUnauthorized, errBadCredentials)
	}
	if acct.Status != store.AccountActive {
		// The password was right, so saying this reveals nothing new.
		return fail(fiber.StatusForbidden, "This account is disabled.")
	}
	// A success forgets the client's failures and gives back its own
	// attempt of the e-mail's budget; the failures of others stay.
	if err := s.limits.Reset(c.UserContext(), clientKey); err != nil {
		reqlog.From(c).Warn("reset sign-in failures", slog.String("error", err.Error()))
	}
	if err := s.limits.Undo(c.UserContext(), emailKey); err != nil {
		reqlog.From(c).Warn("undo sign-in attempt", slog.String("error", err.Error()))
	}
	if !acct.Verified {
		// Said only after the right password, so it tells an outsider
		// nothing about the address.
		return fail(fiber.StatusForbidden, errNotVerified)
	}
	if err := s.sessions.Start(c, acct); err != nil {
		return err
	}
	return c.Redirect(cmp.Or(form.Next, "/settings/api"), fiber.StatusSeeOther)
}

func (s *Server) signOut(c *fiber.Ctx) error {
	if err := s.sessions.End(c); err != nil {
		return err
	}
	return c.Redirect("/", fiber.StatusSeeOther)
}

func (s *Server) alreadySignedIn(c *fiber.Ctx, err error, next string) error {
	if err != nil {
		return err
	}
	return c.Redirect(cmp.Or(next, "/settings/api"), fiber.StatusSeeOther)
}
