package session_test

import (
	"testing"

	"github.com/selahdev/selah/web/session"
)

func TestLocalPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"/settings/api", "/settings/api"},
		{"/ask?q=grace", "/ask?q=grace"},
		{"", ""},
		{"settings", ""},
		{"//evil.example", ""},
		{"/\\evil.example", ""},
		{"https://evil.example/x", ""},
		{"/a\nb", ""},
	} {
		if got := session.LocalPath(tc.in); got != tc.want {
			t.Errorf("session.LocalPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
