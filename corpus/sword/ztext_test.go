package sword

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/selahdev/selah/corpus"
)

// Library is where Debian's sword-text-* packages put the modules;
// deploy/setup.sh installs them before the tests run.
const library = "/usr/share/sword"

func openKJV(t *testing.T) *Text {
	t.Helper()
	m, err := Open(library, "engKJV2006eb")
	if err != nil {
		t.Fatalf("open KJV (run deploy/setup.sh): %v", err)
	}
	return m
}

// verseLine is one verse as diatheke prints it in plain format: an
// optional indent (after a heading line), "Book C:V: " and the text.
var verseLine = regexp.MustCompile(`^ *((?:I{1,3} )?[A-Z][A-Za-z ]+?) (\d+):(\d+): (.*)$`)

// TestKJVAgainstDiatheke reads every verse of the KJV with our reader and
// compares it with what SWORD's own diatheke prints for the whole Bible.
// diatheke keeps the ¶ mark in the text and prints psalm titles (and, from
// a bug of its own, stale headings) on lines of their own; the comparison
// is of verse text, with the mark and runs of spaces normalised.
func TestKJVAgainstDiatheke(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("diatheke"); err != nil {
		t.Fatalf("diatheke is not installed (run deploy/setup.sh): %v", err)
	}
	out, err := exec.Command("diatheke", "-b", "engKJV2006eb", "-f", "plain", "-k", "Gen 1:1-Rev 22:21").Output()
	if err != nil {
		t.Fatalf("diatheke: %v", err)
	}
	var want []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		if m := verseLine.FindStringSubmatch(sc.Text()); m != nil {
			want = append(want, collapse(strings.ReplaceAll(m[4], "¶", "")))
		}
	}
	if len(want) != corpus.VerseCount {
		t.Fatalf("diatheke printed %d verses, want %d", len(want), corpus.VerseCount)
	}
	i, paragraphs := 0, 0
	err = openKJV(t).Each(func(book string, ch, v int, raw string) error {
		p := PlainText(raw)
		if i < len(want) && p.Text != want[i] {
			t.Errorf("%s %d:%d\n got %q\nwant %q", book, ch, v, p.Text, want[i])
		}
		if p.Paragraph {
			paragraphs++
		}
		i++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if i != corpus.VerseCount {
		t.Fatalf("Each visited %d verses, want %d", i, corpus.VerseCount)
	}
	// Every ¶ of the module opens a verse (counted from the raw data).
	if paragraphs < 2900 || paragraphs > 3000 {
		t.Errorf("%d verses open a paragraph, want the module's 2,970", paragraphs)
	}
}

// TestPsalmTitles checks titles against the printed KJV: 116 psalms carry
// a title, kept apart from verse 1.
func TestPsalmTitles(t *testing.T) {
	t.Parallel()
	want := map[string]string{
		"Ps 3:1":   "A Psalm of David, when he fled from Absalom his son.",
		"Ps 23:1":  "A Psalm of David.",
		"Ps 51:1":  "To the chief Musician, A Psalm of David, when Nathan the prophet came unto him, after he had gone in to Bath-sheba.",
		"Ps 90:1":  "A Prayer of Moses the man of God.",
		"Ps 119:1": "",
		"Ps 1:1":   "",
	}
	titles := 0
	err := openKJV(t).Each(func(book string, ch, v int, raw string) error {
		p := PlainText(raw)
		if p.Title != "" {
			titles++
			if book != "Ps" || v != 1 {
				t.Errorf("%s %d:%d has a title %q", book, ch, v, p.Title)
			}
		}
		key := fmt.Sprintf("%s %d:%d", book, ch, v)
		if w, ok := want[key]; ok && p.Title != w {
			t.Errorf("%s title = %q, want %q", key, p.Title, w)
		}
		if key == "Ps 23:1" && p.Text != "The LORD is my shepherd; I shall not want." {
			t.Errorf("Ps 23:1 text = %q", p.Text)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if titles != 116 {
		t.Errorf("%d psalm titles, want 116", titles)
	}
}

// TestWEBOntoKJV reads the WEB (NRSVA versification, with deuterocanon)
// and maps its verses onto KJV ids: every KJV verse but the few the WEB
// leaves empty gets modern wording, and no deuterocanonical verse maps.
func TestWEBOntoKJV(t *testing.T) {
	t.Parallel()
	m, err := Open(library, "engWEB2015eb")
	if err != nil {
		t.Fatal(err)
	}
	if m.Versification != "NRSVA" {
		t.Fatalf("versification %q", m.Versification)
	}
	got := map[corpus.VerseID]string{}
	err = m.Each(func(book string, ch, v int, raw string) error {
		id, ok := KJVVerseID(book, ch, v)
		if _, kjv := corpus.BookByOSIS(book); ok && !kjv {
			t.Errorf("%s %d:%d is not in the KJV canon but maps to %v", book, ch, v, id)
		}
		if ok {
			got[id] += PlainText(raw).Text
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < corpus.VerseCount-50 {
		t.Errorf("%d KJV verses have WEB wording, want nearly all %d", len(got), corpus.VerseCount)
	}
	if s := got[corpus.NewVerseID(43, 3, 16)]; !strings.HasPrefix(s, "For God so loved the world") {
		t.Errorf("WEB John 3:16 = %q", s)
	}
	// The module stores its glossary in the last verse, after the book's
	// end: none of it is the verse.
	if s := got[corpus.NewVerseID(66, 22, 21)]; s != "The grace of the Lord Jesus Christ be with all the saints. Amen." {
		t.Errorf("WEB Revelation 22:21 = %.200q", s)
	}
	for id, s := range got {
		if len(s) > 1000 {
			t.Errorf("WEB %v holds %d characters: more than a verse", id, len(s))
		}
	}
	for _, c := range []struct {
		book   string
		ch, v  int
		want   corpus.VerseID
		wantOK bool
	}{
		{"John", 3, 16, corpus.NewVerseID(43, 3, 16), true},
		{"3John", 1, 15, corpus.NewVerseID(64, 1, 14), true},
		{"Rev", 12, 18, corpus.NewVerseID(66, 13, 1), true},
		{"Tob", 1, 1, 0, false},
		{"Ps", 151, 1, 0, false},
	} {
		if id, ok := KJVVerseID(c.book, c.ch, c.v); id != c.want || ok != c.wantOK {
			t.Errorf("KJVVerseID(%s %d:%d) = %v, %v", c.book, c.ch, c.v, id, ok)
		}
	}
}

// copyModule copies the KJV module into a temporary library so a test can
// damage it.
func copyModule(t *testing.T) (dir, data string) {
	t.Helper()
	dir = t.TempDir()
	data = filepath.Join(dir, "modules/texts/ztext/engKJV2006eb")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "mods.d"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, conf, err := findConf(library, "engKJV2006eb")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "mods.d/kjv.conf"), conf, 0o644)
	for _, f := range []string{"ot.bzs", "ot.bzv", "ot.bzz", "nt.bzs", "nt.bzv", "nt.bzz"} {
		b, err := os.ReadFile(filepath.Join(library, "modules/texts/ztext/engKJV2006eb", f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(data, f), b, 0o644)
	}
	return dir, data
}

// TestDamagedModule: a truncated or corrupted module is an error, never a
// panic, and the checksum sees any change.
func TestDamagedModule(t *testing.T) {
	t.Parallel()
	if _, err := Open(library, "noSuchModule"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing module: %v", err)
	}
	orig, err := openKJV(t).Checksum()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		file   string
		damage func([]byte) []byte
	}{
		{"index truncated", "nt.bzv", func(b []byte) []byte { return b[:len(b)/2] }},
		{"data truncated", "ot.bzz", func(b []byte) []byte { return b[:len(b)/3] }},
		{"block index truncated", "ot.bzs", func(b []byte) []byte { return b[:24] }},
		{"data corrupted", "nt.bzz", func(b []byte) []byte {
			for i := 100; i < len(b); i += 997 {
				b[i] ^= 0x5a
			}
			return b
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, data := copyModule(t)
			p := filepath.Join(data, c.file)
			b, _ := os.ReadFile(p)
			os.WriteFile(p, c.damage(b), 0o644)
			m, err := Open(dir, "engKJV2006eb")
			if err != nil {
				t.Fatal(err)
			}
			if sum, _ := m.Checksum(); sum == orig {
				t.Error("checksum unchanged by damage")
			}
			if err := m.Each(func(string, int, int, string) error { return nil }); err == nil {
				t.Error("Each read a damaged module without error")
			}
		})
	}
}

func TestParseConf(t *testing.T) {
	t.Parallel()
	c, ok := parseConf([]byte("# comment\n[Globals]\nX=1\n[engKJV]\nDataPath=./modules/texts/ztext/kjv/\nModDrv = zText\nModDrv=other\n\nAbout=a=b\n[Other]\nVersion=9\n"))
	if !ok || c.Name != "engKJV" || c.Get("ModDrv") != "zText" || c.Get("About") != "a=b" || c.Get("Version") != "" {
		t.Fatalf("parseConf = %+v, %v", c, ok)
	}
	if got := c.dataPath("/lib"); got != "/lib/modules/texts/ztext/kjv" {
		t.Errorf("dataPath = %q", got)
	}
	if _, ok := parseConf([]byte("[Globals]\nA=b\n")); ok {
		t.Error("a conf without a module section parsed")
	}
}
