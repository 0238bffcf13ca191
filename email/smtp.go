package email

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/url"
	"regexp"
	"strconv"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// SMTPConfig configures the SMTP sender.
type SMTPConfig struct {
	// URL is the server (SMTP_URL):
	//   smtps://user:pass@host:465   implicit TLS (default port 465)
	//   smtp://user:pass@host:587    STARTTLS, required (default port 587)
	//   smtp://host:25?tls=none      no TLS, for a relay on a private network
	// User and password are optional (no authentication without them).
	URL string
	// From is the sender address (MAIL_FROM), e.g.
	// "selah <no-reply@selah.example>".
	From string
	// Timeout bounds connecting and each command (default 15s).
	Timeout time.Duration
	// RootCAs are the authorities the server's certificate must chain to;
	// nil means the system's (tests set their own).
	RootCAs *x509.CertPool
}

// WithDefaults returns c with zero values replaced by defaults.
func (c SMTPConfig) WithDefaults() SMTPConfig {
	if c.Timeout == 0 {
		c.Timeout = 15 * time.Second
	}
	return c
}

// SMTP sends messages through an SMTP server, one connection per message:
// sign-ups are rare, and a fresh connection needs no keep-alive or
// reconnection logic.
type SMTP struct {
	host string
	port int
	from string
	opts []gomail.Option
}

// NewSMTP checks the configuration and returns the sender; it does not
// connect. Errors name SMTP_URL or MAIL_FROM and never repeat the URL,
// which may hold a password.
func NewSMTP(cfg SMTPConfig) (*SMTP, error) {
	cfg = cfg.WithDefaults()
	if cfg.Timeout < 0 {
		return nil, errors.New("email: SMTP timeout must be positive")
	}
	from, err := mail.ParseAddress(cfg.From)
	if err != nil {
		return nil, errors.New(`MAIL_FROM: not an e-mail address (e.g. "selah <no-reply@selah.example>")`)
	}
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return nil, errors.New("SMTP_URL: not a URL (smtp://user:password@host:587 or smtps://user:password@host:465)")
	}
	if u.Hostname() == "" || (u.Path != "" && u.Path != "/") {
		return nil, errors.New("SMTP_URL: must be smtp://[user:password@]host[:port] or smtps://…, with no path")
	}
	opts := []gomail.Option{gomail.WithTimeout(cfg.Timeout)}
	port := 0
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil || port < 1 || port > 65535 {
			return nil, errors.New("SMTP_URL: the port must be a number from 1 to 65535")
		}
	}
	tlsMode := u.Query().Get("tls")
	for k := range u.Query() {
		if k != "tls" {
			return nil, fmt.Errorf("SMTP_URL: unknown parameter %q (only tls=none is known)", k)
		}
	}
	switch {
	case u.Scheme == "smtps" && tlsMode == "":
		opts = append(opts, gomail.WithSSL())
		port = defaultPort(port, 465)
	case u.Scheme == "smtp" && tlsMode == "":
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
		port = defaultPort(port, 587)
	case u.Scheme == "smtp" && tlsMode == "none":
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
		port = defaultPort(port, 25)
	case u.Scheme != "smtp" && u.Scheme != "smtps":
		return nil, errors.New("SMTP_URL: the scheme must be smtp (STARTTLS) or smtps (implicit TLS)")
	default:
		return nil, errors.New("SMTP_URL: tls=none is only for smtp://, and none is its only value")
	}
	opts = append(opts, gomail.WithPort(port),
		gomail.WithTLSConfig(&tls.Config{ServerName: u.Hostname(), RootCAs: cfg.RootCAs, MinVersion: tls.VersionTLS12}))
	if user := u.User.Username(); user != "" {
		// The strongest mechanism the server offers; over tls=none only
		// challenge-response ones, never the password in clear text.
		pass, _ := u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(user), gomail.WithPassword(pass))
	}
	return &SMTP{host: u.Hostname(), port: port, from: from.String(), opts: opts}, nil
}

func defaultPort(port, def int) int {
	if port == 0 {
		return def
	}
	return port
}

// Send delivers m to the server; an error means the server did not accept
// it.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	msg := gomail.NewMsg()
	if err := msg.From(s.from); err != nil {
		return fmt.Errorf("email: from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("email: recipient: %w", err)
	}
	msg.Subject(m.Subject)
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	// A client per message: go-mail's Client keeps per-connection state, and
	// making one does no I/O.
	c, err := gomail.NewClient(s.host, s.opts...)
	if err != nil {
		return fmt.Errorf("email: smtp client: %w", err)
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("email: send through %s: %w", net.JoinHostPort(s.host, strconv.Itoa(s.port)),
			redacted{err: err, addr: regexp.MustCompile(`(?i)` + regexp.QuoteMeta(m.To))})
	}
	return nil
}

// redacted is err with the recipient's address taken out of its message:
// servers quote it in their replies, and errors go to the log, which holds
// no e-mail addresses.
type redacted struct {
	err  error
	addr *regexp.Regexp
}

func (r redacted) Error() string { return r.addr.ReplaceAllLiteralString(r.err.Error(), "[recipient]") }
func (r redacted) Unwrap() error { return r.err }
