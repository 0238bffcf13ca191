package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/email"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/reqlog"
	"github.com/selahdev/selah/web/session"
)

// E-mail verification of sign-ups (issue 14). The sign-up page answers
// alike whether or not its address has an account ("check your e-mail");
// what differs goes by e-mail to the address, which only its owner reads:
// a verification link for a new or still unverified account, a notice for
// an existing one. An unverified account cannot sign in.

// Mailer sends the site's e-mail: email.SMTP in production, email.Log in
// development.
type Mailer interface {
	Send(ctx context.Context, m email.Message) error
}

var (
	_ Mailer = (*email.SMTP)(nil)
	_ Mailer = (*email.Log)(nil)
)

// verifyLinkTTL is how long a verification link works.
const verifyLinkTTL = 24 * time.Hour

var errMailUnavailable = &selah.Error{Code: selah.EUNAVAILABLE, RetryAfter: 60,
	Message: "We could not send you an e-mail just now. Try again in a few minutes."}

// signUpSent is the page every accepted sign-up shows, whatever the
// address held.
type signUpSent struct {
	Email string
	Next  string
}

// sendSignUpMail sends the e-mail a sign-up's outcome calls for.
func (s *Server) sendSignUpMail(c *fiber.Ctx, su store.SignUp) error {
	base := s.publicBase(c)
	m := email.Message{To: su.Account.Email}
	switch su.Outcome {
	case store.SignUpExisting:
		m.Subject = "Someone tried to sign up with your address"
		m.Text = fmt.Sprintf(`Someone, perhaps you, tried to create a selah account with this e-mail
address. It already has an account, so nothing was created and nothing
about your account was changed.

To use your account, sign in at %s/signin

If it was not you, you can ignore this message.
`, base)
	default:
		m.Subject = "Confirm your e-mail address for selah"
		m.Text = fmt.Sprintf(`Someone, probably you, signed up for selah with this e-mail address.

To confirm it and finish creating your account, open this link within
24 hours, then sign in with the password you chose:

%s/verify?token=%s

If you did not sign up, ignore this message: the account cannot be used
unless the link is followed.
`, base, su.Token)
	}
	if err := s.mailer.Send(c.UserContext(), m); err != nil {
		// The address is not logged (no e-mail addresses in logs); the
		// account id says which sign-up it was.
		reqlog.From(c).Error("send sign-up e-mail", slog.Int64("accountId", su.Account.ID), slog.String("error", err.Error()))
		return errMailUnavailable
	}
	return nil
}

// verifyPage is the page a verification link opens: a button that
// confirms, or why the link no longer works.
type verifyPage struct {
	Token string
	Error string
}

const errVerifyLink = "This confirmation link does not work: it has expired, it has been used already, " +
	"or it was not copied completely. If your address is confirmed, sign in; " +
	"otherwise sign up again with the same address to get a new link."

// verifyForm shows the link's page. Following the link only shows a
// button: mail scanners open links in messages, and must not use up the
// token by doing so.
func (s *Server) verifyForm(c *fiber.Ctx) error {
	token := strings.Clone(c.Query("token"))
	if !selah.WellFormedToken(token) {
		return s.renderPage(c, fiber.StatusBadRequest, "verify", verifyPage{Error: errVerifyLink})
	}
	err := s.store.VerificationPending(c.UserContext(), token, s.now())
	if errors.Is(err, selah.ErrNotFound) {
		return s.renderPage(c, fiber.StatusBadRequest, "verify", verifyPage{Error: errVerifyLink})
	}
	if err != nil {
		return fmt.Errorf("web: verification link: %w", err)
	}
	return s.renderPage(c, fiber.StatusOK, "verify", verifyPage{Token: token})
}

// verify uses the link: the account is verified, and the sign-in page
// follows. It does not sign in: the link alone is not the password.
func (s *Server) verify(c *fiber.Ctx) error {
	token := c.FormValue("token")
	if !selah.WellFormedToken(token) {
		return s.renderPage(c, fiber.StatusBadRequest, "verify", verifyPage{Error: errVerifyLink})
	}
	acct, err := s.store.VerifyEmail(c.UserContext(), token, s.now())
	if errors.Is(err, selah.ErrNotFound) {
		reqlog.From(c).Info("verification link refused")
		return s.renderPage(c, fiber.StatusBadRequest, "verify", verifyPage{Error: errVerifyLink})
	}
	if err != nil {
		return fmt.Errorf("web: verify e-mail: %w", err)
	}
	reqlog.From(c).Info("e-mail verified", slog.Int64("accountId", acct.ID))
	return s.renderPage(c, fiber.StatusOK, "signin", authForm{Email: acct.Email,
		Notice: "Your e-mail address is confirmed. Sign in with the password you chose."})
}

func (s *Server) signUpForm(c *fiber.Ctx) error {
	next := session.LocalPath(c.Query("next"))
	if sess, err := s.sessions.Of(c); err != nil || sess != nil {
		return s.alreadySignedIn(c, err, next)
	}
	return s.renderPage(c, fiber.StatusOK, "signup", authForm{Next: next})
}

func (s *Server) signUp(c *fiber.Ctx) error {
	form := authForm{Email: strings.TrimSpace(c.FormValue("email")), Next: session.LocalPath(c.FormValue("next"))}
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
	reqlog.From(c).Info("sign-up", slog.Int64("accountId", su.Account.ID), slog.Bool("created", su.Outcome == store.SignUpCreated))
	if err := s.sendSignUpMail(c, su); err != nil {
		setRetryAfter(c, err)
		return fail(StatusOf(selah.ErrorCode(err)), selah.ErrorMessage(err))
	}
	return s.renderPage(c, fiber.StatusOK, "signup_sent", signUpSent{Email: su.Account.Email, Next: form.Next})
}
