package web_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/selahdev/selah/web"
)

func TestPassword(t *testing.T) {
	t.Parallel()
	h, err := web.HashPassword("correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	phc := regexp.MustCompile(`^\$argon2id\$v=19\$m=65536,t=3,p=4\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$`)
	if !phc.MatchString(h) {
		t.Fatalf("hash %q is not a PHC argon2id string", h)
	}
	h2, _ := web.HashPassword("correct horse battery staple")
	if h2 == h {
		t.Fatal("two hashes of one password are equal: salt missing")
	}
	parts := strings.Split(h, "$")
	for _, tc := range []struct {
		name, hash, pw string
		want           bool
	}{
		{"right password", h, "correct horse battery staple", true},
		{"other salt, same password", h2, "correct horse battery staple", true},
		{"wrong password", h, "correct horse battery stapler", false},
		{"empty password", h, "", false},
		{"empty hash", "", "x", false},
		{"other algorithm", strings.Replace(h, "argon2id", "argon2i", 1), "correct horse battery staple", false},
		{"other version", strings.Replace(h, "v=19", "v=16", 1), "correct horse battery staple", false},
		{"absurd memory", strings.Replace(h, "m=65536", "m=99999999", 1), "correct horse battery staple", false},
		{"bad base64", strings.Join(append(parts[:4:4], "!!!", parts[5]), "$"), "correct horse battery staple", false},
		{"missing part", strings.Join(parts[:5], "$"), "correct horse battery staple", false},
	} {
		if got := web.CheckPassword(tc.hash, tc.pw); got != tc.want {
			t.Errorf("%s: CheckPassword = %v, want %v", tc.name, got, tc.want)
		}
	}
}
