package email_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"mime/quotedprintable"
	"net"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"sync"
	"testing"

	"github.com/selahdev/selah/email"
)

// smtpServer is a minimal SMTP server on a loopback port, standing in for
// the mail provider (go-mail ships no test server). It speaks just enough
// of RFC 5321 and 3207 for one client: EHLO, STARTTLS, AUTH PLAIN, MAIL,
// RCPT, DATA, QUIT.
type smtpServer struct {
	ln   net.Listener
	opts smtpOptions

	mu        sync.Mutex
	conns     []net.Conn
	auth      string // "user:password" of AUTH PLAIN
	authOnTLS bool   // the AUTH came over TLS
	from, to  string
	data      string
}

type smtpOptions struct {
	startTLS   bool // offer STARTTLS
	implicit   bool // TLS from the first byte (smtps)
	rejectRcpt bool // RCPT TO fails with 550, as for an unknown mailbox
}

// testTLS is a certificate for 127.0.0.1 (httptest's) and a pool that
// trusts it.
var testTLS = sync.OnceValues(func() (*tls.Config, *x509.CertPool) {
	hs := httptest.NewUnstartedServer(nil)
	hs.StartTLS()
	defer hs.Close()
	pool := x509.NewCertPool()
	pool.AddCert(hs.Certificate())
	return &tls.Config{Certificates: hs.TLS.Certificates}, pool
})

func newSMTPServer(t *testing.T, opts smtpOptions) *smtpServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if opts.implicit {
		cfg, _ := testTLS()
		ln = tls.NewListener(ln, cfg)
	}
	s := &smtpServer{ln: ln, opts: opts}
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns = append(s.conns, conn)
			s.mu.Unlock()
			wg.Go(func() { s.serve(conn) })
		}
	})
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		for _, c := range s.conns {
			c.Close() // a client that gave up may have left its connection open
		}
		s.mu.Unlock()
		wg.Wait()
	})
	return s
}

func (s *smtpServer) addr() string { return s.ln.Addr().String() }

func (s *smtpServer) serve(conn net.Conn) {
	defer conn.Close()
	_, isTLS := conn.(*tls.Conn)
	tp := textproto.NewConn(conn)
	reply := func(format string, args ...any) { tp.PrintfLine(format, args...) }
	reply("220 fake ESMTP")
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return
		}
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO", "HELO":
			reply("250-fake")
			if s.opts.startTLS && !isTLS {
				reply("250-STARTTLS")
			}
			reply("250-AUTH PLAIN")
			reply("250 8BITMIME")
		case "STARTTLS":
			if !s.opts.startTLS || isTLS {
				reply("502 not implemented")
				continue
			}
			reply("220 go ahead")
			cfg, _ := testTLS()
			tc := tls.Server(conn, cfg)
			if err := tc.Handshake(); err != nil {
				return
			}
			conn, isTLS, tp = tc, true, textproto.NewConn(tc)
			s.mu.Lock()
			s.conns = append(s.conns, tc)
			s.mu.Unlock()
		case "AUTH":
			mech, resp, _ := strings.Cut(arg, " ")
			b, err := base64.StdEncoding.DecodeString(resp)
			if mech != "PLAIN" || err != nil {
				reply("504 unsupported")
				continue
			}
			parts := strings.Split(string(b), "\x00")
			s.mu.Lock()
			s.auth, s.authOnTLS = strings.Join(parts[1:], ":"), isTLS
			s.mu.Unlock()
			reply("235 ok")
		case "MAIL":
			s.mu.Lock()
			s.from = arg
			s.mu.Unlock()
			reply("250 ok")
		case "RCPT":
			if s.opts.rejectRcpt {
				reply("550 no such mailbox")
				continue
			}
			s.mu.Lock()
			s.to = arg
			s.mu.Unlock()
			reply("250 ok")
		case "DATA":
			reply("354 go on")
			b, err := io.ReadAll(tp.DotReader())
			if err != nil {
				return
			}
			s.mu.Lock()
			s.data = string(b)
			s.mu.Unlock()
			reply("250 queued")
		case "RSET", "NOOP":
			reply("250 ok")
		case "QUIT":
			reply("221 bye")
			return
		default:
			reply("502 not implemented")
		}
	}
}

func TestSMTPSends(t *testing.T) {
	t.Parallel()
	m := email.Message{To: "ann@example.com", Subject: "Confirm your e-mail address for selah",
		Text: "Open this link:\n\nhttps://selah.example/verify?token=abc\n"}
	for _, tc := range []struct {
		name     string
		opts     smtpOptions
		url      string // %s is the server's address
		wantAuth string
	}{
		{"STARTTLS with a password", smtpOptions{startTLS: true}, "smtp://mailer:s3cret@%s", "mailer:s3cret"},
		{"implicit TLS with a password", smtpOptions{implicit: true}, "smtps://mailer:s3cret@%s", "mailer:s3cret"},
		{"private relay without TLS or password", smtpOptions{}, "smtp://%s?tls=none", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newSMTPServer(t, tc.opts)
			_, pool := testTLS()
			s, err := email.NewSMTP(email.SMTPConfig{URL: fmt.Sprintf(tc.url, srv.addr()), From: "selah <no-reply@selah.example>", RootCAs: pool})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Send(context.Background(), m); err != nil {
				t.Fatal(err)
			}
			srv.mu.Lock()
			defer srv.mu.Unlock()
			if srv.auth != tc.wantAuth || (tc.wantAuth != "" && !srv.authOnTLS) {
				t.Errorf("AUTH PLAIN = %q (over TLS: %v), want %q over TLS", srv.auth, srv.authOnTLS, tc.wantAuth)
			}
			if !strings.Contains(srv.from, "<no-reply@selah.example>") || !strings.Contains(srv.to, "<ann@example.com>") {
				t.Errorf("envelope from %q to %q", srv.from, srv.to)
			}
			r := bufio.NewReader(strings.NewReader(srv.data))
			msg, err := textproto.NewReader(r).ReadMIMEHeader()
			if err != nil {
				t.Fatalf("message headers: %v\n%s", err, srv.data)
			}
			body, err := io.ReadAll(quotedprintable.NewReader(r))
			if err != nil || msg.Get("Content-Transfer-Encoding") != "quoted-printable" {
				t.Fatalf("body (%s): %v\n%s", msg.Get("Content-Transfer-Encoding"), err, srv.data)
			}
			for k, want := range map[string]string{"Subject": m.Subject, "To": "<ann@example.com>", "From": `"selah" <no-reply@selah.example>`} {
				if got := msg.Get(k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
			if msg.Get("Date") == "" || msg.Get("Message-Id") == "" {
				t.Errorf("no Date or Message-ID: %v", msg)
			}
			if string(body) != m.Text {
				t.Errorf("the body lacks the link:\n%s", srv.data)
			}
		})
	}
}

func TestSMTPFailures(t *testing.T) {
	t.Parallel()
	m := email.Message{To: "ann@example.com", Subject: "s", Text: "t"}
	for _, tc := range []struct {
		name string
		opts smtpOptions
		url  string
	}{
		// The server refuses the recipient: the message was not accepted.
		{"recipient refused", smtpOptions{startTLS: true, rejectRcpt: true}, "smtp://mailer:s3cret@%s"},
		// smtp:// requires STARTTLS: without it the link would cross the
		// network in clear text.
		{"no STARTTLS", smtpOptions{}, "smtp://mailer:s3cret@%s"},
		// Over tls=none the password is never sent in clear text (the
		// server offers only PLAIN).
		{"password without TLS", smtpOptions{}, "smtp://mailer:s3cret@%s?tls=none"},
		// A certificate no trusted authority signed.
		{"untrusted certificate", smtpOptions{implicit: true}, "smtps://mailer:s3cret@%s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newSMTPServer(t, tc.opts)
			var pool *x509.CertPool
			if tc.name != "untrusted certificate" {
				_, pool = testTLS()
			}
			s, err := email.NewSMTP(email.SMTPConfig{URL: fmt.Sprintf(tc.url, srv.addr()), From: "no-reply@selah.example", RootCAs: pool})
			if err != nil {
				t.Fatal(err)
			}
			err = s.Send(context.Background(), m)
			if err == nil {
				t.Fatal("Send succeeded")
			}
			if strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "ann@example.com") {
				t.Fatalf("the error repeats the password or the recipient's address: %v", err)
			}
			srv.mu.Lock()
			defer srv.mu.Unlock()
			if srv.data != "" {
				t.Fatalf("a message was delivered:\n%s", srv.data)
			}
			if tc.name != "recipient refused" && srv.auth != "" {
				t.Fatalf("the server got the password %q", srv.auth)
			}
		})
	}
}

func TestNewSMTPRefusesBadSettings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ url, from, want string }{
		{"http://mailer:s3cret@mail.example", "a@selah.example", "SMTP_URL: the scheme"},
		{"smtp://mailer:s3cret@:25", "a@selah.example", "SMTP_URL: must be"},
		{"smtp://mailer:s3cret@mail.example/path", "a@selah.example", "SMTP_URL: must be"},
		{"smtp://mailer:s3cret@mail.example:0", "a@selah.example", "SMTP_URL: the port"},
		{"smtp://mailer:s3cret@mail.example:smtp", "a@selah.example", "SMTP_URL"},
		{"smtps://mailer:s3cret@mail.example?tls=none", "a@selah.example", "tls=none is only for smtp://"},
		{"smtp://mailer:s3cret@mail.example?tls=maybe", "a@selah.example", "tls=none is only"},
		{"smtp://mailer:s3cret@mail.example?debug=1", "a@selah.example", `unknown parameter "debug"`},
		{"smtp://mailer:s3cret@mail.example\x7f", "a@selah.example", "SMTP_URL: not a URL"},
		{"smtp://mail.example", "", "MAIL_FROM"},
		{"smtp://mail.example", "selah", "MAIL_FROM"},
	} {
		_, err := email.NewSMTP(email.SMTPConfig{URL: tc.url, From: tc.from})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewSMTP(%q, %q) = %v, want an error with %q", tc.url, tc.from, err, tc.want)
			continue
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("NewSMTP(%q): the error repeats the password: %v", tc.url, err)
		}
	}
	for _, ok := range []string{"smtps://u:p@mail.example", "smtp://u:p@mail.example:2525", "smtp://relay.internal:25?tls=none", "smtp://mail.example"} {
		if _, err := email.NewSMTP(email.SMTPConfig{URL: ok, From: "selah <no-reply@selah.example>"}); err != nil {
			t.Errorf("NewSMTP(%q): %v", ok, err)
		}
	}
}

func TestLogWritesTheMessage(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	l := email.NewLog(slog.New(slog.NewJSONHandler(&b, nil)))
	if err := l.Send(context.Background(), email.Message{To: "ann@example.com", Subject: "Confirm", Text: "https://selah.example/verify?token=abc"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "https://selah.example/verify?token=abc") || strings.Contains(b.String(), "ann@example.com") {
		t.Fatalf("log = %s; want the text without the address", b.String())
	}
}
