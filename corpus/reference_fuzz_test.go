package corpus

import (
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/selahdev/selah"
)

// FuzzParseReference checks that no input panics the parser, that every
// failure is a *selah.Error the web layer can map, and that every success
// renders to a canonical form that parses back to the same reference.
func FuzzParseReference(f *testing.F) {
	for _, s := range []string{
		"John 3:16", "jn 3:16-18", "John+3:16", "1 Cor. 13", "1st John 4:8",
		"IIKings 2:11", "Third John", "Ps 23-24", "Psalm 119", "Genesis 1:31–2:3",
		"Gen.1.1", "Jude", "Jude 1", "Jude 3-5", "Jude 1:3-1:5", "Obadiah 21",
		"Song of Songs 2:1", "Revelation of John 22:21", "I Sa 3:10", "Isa 53:5",
		"", " ", "+", "3:16", "John", "John 0", "John 3:37", "John 3:18-16",
		"John 4-3", "John 3-4:5", "John 99999999999999999999",
		"John 3:16-18446744073709551617", "John 3:16a", "John 3:16,18",
		"John ３:１６", "John \xff3:16", "\x00", "John 3:16.",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseReference(s)
		if err != nil {
			var e *selah.Error
			if !errors.As(err, &e) {
				t.Fatalf("ParseReference(%q) error %v is not a *selah.Error", s, err)
			}
			if e.Code != selah.EINVALIDREF && e.Code != selah.EPASSAGENOTFOUND {
				t.Fatalf("ParseReference(%q) error code %q", s, e.Code)
			}
			if !utf8.ValidString(e.Message) {
				t.Fatalf("ParseReference(%q) message is not valid UTF-8: %q", s, e.Message)
			}
			return
		}
		if !r.First().Valid() || !r.Last().Valid() || r.First() > r.Last() {
			t.Fatalf("ParseReference(%q) = %+v, not a valid range", s, r)
		}
		if n := r.VerseCount(); n < 1 || n > VerseCount {
			t.Fatalf("ParseReference(%q).VerseCount() = %d", s, n)
		}
		canon := r.String()
		again, err := ParseReference(canon)
		if err != nil {
			t.Fatalf("ParseReference(%q) = %q, which does not parse: %v", s, canon, err)
		}
		if !sameReference(again, r) {
			t.Fatalf("ParseReference(%q) = %+v, but its form %q parses to %+v", s, r, canon, again)
		}
		if again.String() != canon {
			t.Fatalf("canonical form %q renders again as %q", canon, again.String())
		}
	})
}
