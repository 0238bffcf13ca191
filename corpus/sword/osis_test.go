package sword

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPlainText(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/plaintext.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name, Raw, Text, Title string
		Paragraph              bool
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got := PlainText(c.Raw)
			if got.Text != c.Text || got.Title != c.Title || got.Paragraph != c.Paragraph {
				t.Errorf("PlainText(%q)\n got %+v\nwant {Text:%s Title:%s Paragraph:%v}", c.Raw, got, c.Text, c.Title, c.Paragraph)
			}
		})
	}
}

// FuzzPlainText checks that no markup panics the renderer and that its
// output is collapsed text without the paragraph mark.
func FuzzPlainText(f *testing.F) {
	for _, s := range []string{"", "<", ">", "</>", "<w>a</w>", "<note>", "</note>x", "¶ a", "<title type=\"psalm\">t</title>v",
		"<divineName>Lord</divineName>", "&amp", "a<note/>b", "<<>>", "\xff<w>\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		p := PlainText(raw)
		for _, s := range []string{p.Text, p.Title} {
			if s != collapse(s) {
				t.Fatalf("not collapsed: %q", s)
			}
		}
		if !utf8.ValidString(p.Text) || !utf8.ValidString(p.Title) {
			t.Fatalf("invalid UTF-8 output %+v", p)
		}
		if strings.Contains(p.Text, "¶") {
			t.Fatalf("paragraph mark left in %q", p.Text)
		}
	})
}
