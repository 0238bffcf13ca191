// Package email sends the website's e-mail (sign-up verification links and
// notices): through an SMTP server in production (SMTP), or into the log in
// development (Log). The web package declares the one-method interface it
// needs; both types satisfy it.
package email

import (
	"context"
	"log/slog"
	"regexp"
	"strings"
)

// Message is one plain-text e-mail to one recipient.
type Message struct {
	To      string
	Subject string
	Text    string
}

// Log "sends" messages by writing them to the log, for development: no mail
// server is needed, and the verification link can be copied from the
// output. A link is a credential for one account, so Log must never be used
// in production (cmd/selah refuses to start without SMTP_URL there).
type Log struct {
	log *slog.Logger
}

// NewLog returns a sender that writes to l.
func NewLog(l *slog.Logger) *Log { return &Log{log: l} }

// urls finds the links in a message's text.
var urls = regexp.MustCompile(`https?://\S+`)

// Send logs the subject, the links on their own (text logs escape the
// newlines of the text around them) and the text. The recipient's address
// is left out, as from every log: the text says what the message is for.
func (l *Log) Send(ctx context.Context, m Message) error {
	l.log.LogAttrs(ctx, slog.LevelInfo, "e-mail not sent (development)",
		slog.String("subject", m.Subject), slog.String("links", strings.Join(urls.FindAllString(m.Text, -1), " ")),
		slog.String("text", m.Text))
	return nil
}
