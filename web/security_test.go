package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Tests of the defects the security audit of issue 14 found; each names
// its defect's number.

// TestSiteFormsRefuseControlCharacters (issue 14, defect 4): a NUL in a
// sign-in or sign-up e-mail reached Postgres and was a 500. Every form
// field with a control character other than tab and newline is now a 400
// that names the field.
func TestSiteFormsRefuseControlCharacters(t *testing.T) {
	t.Parallel()
	env := newSiteEnv(t, Config{}, nil)
	for _, tc := range []struct{ action, field string }{
		{"/signin", "email"},
		{"/signup", "email"},
		{"/signin", "password"},
		{"/ask", "question"},
	} {
		t.Run(tc.action+" "+tc.field, func(t *testing.T) {
			b := env.browser(t)
			fields := url.Values{"email": {"ann@example.com"}, "password": {sitePassword}, "confirm": {sitePassword},
				"question": {"Why worry?"}}
			fields.Set(tc.field, "ann\x00@example.com")
			p := b.submit(tc.action, tc.action, fields)
			wantStatus(t, p, http.StatusBadRequest)
			if !strings.Contains(p.body, tc.field) || !strings.Contains(p.body, "control character") {
				t.Fatalf("the error does not name the field %s:\n%s", tc.field, p.body)
			}
		})
	}
	// Newlines (CR LF from text areas) and tabs are text.
	p := env.browser(t).submit("/signin", "/signin", url.Values{"email": {"ann@example.com"}, "password": {"line one\r\n\tline two"}})
	wantStatus(t, p, http.StatusUnauthorized)
}

// TestSiteSignUpRefusesWeakPasswords (issue 14, defects 12 and 13):
// "aaaaaaaaaa" and other common passwords, the e-mail address as password,
// and addresses like "a@b" were accepted.
func TestSiteSignUpRefusesWeakPasswords(t *testing.T) {
	t.Parallel()
	env := newSiteEnv(t, Config{}, nil)
	email := siteEmail("weakpasswords")
	local, _, _ := strings.Cut(email, "@")
	for _, tc := range []struct{ name, email, pw, message string }{
		{"repeated character", email, "aaaaaaaaaa", "different characters"},
		{"two characters", email, "abababababab", "different characters"},
		{"common", email, "password123", "most common"},
		{"common any case", email, "QwertyUiop", "most common"},
		{"the email", email, email, "not your email"},
		{"the local part", email, strings.ToUpper(local), "not your email"},
		{"dotless domain", "ann@localhost", sitePassword, "not a valid email"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := env.browser(t).signUp(tc.email, tc.pw)
			wantStatus(t, p, http.StatusBadRequest)
			if !strings.Contains(p.body, tc.message) {
				t.Fatalf("page lacks %q:\n%s", tc.message, p.body)
			}
		})
	}
	if n := len(commonPasswords); n < 1000 {
		t.Fatalf("only %d common passwords embedded", n)
	}
}
