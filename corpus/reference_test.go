package corpus

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/selahdev/selah"
)

// sameReference compares two references field by field: Reference is not
// comparable with == because Book carries its verse counts in a slice.
func sameReference(a, b Reference) bool {
	return a.Book.Number == b.Book.Number &&
		a.StartChapter == b.StartChapter && a.StartVerse == b.StartVerse &&
		a.EndChapter == b.EndChapter && a.EndVerse == b.EndVerse
}

// selahCode returns the code of err, failing the test when err is not a
// *selah.Error: the web layer would report anything else as internal.
func selahCode(t *testing.T, err error) string {
	t.Helper()
	var e *selah.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *selah.Error", err, err)
	}
	if e.Message == "" {
		t.Errorf("error %q has an empty message", e.Code)
	}
	return e.Code
}

type referenceCase struct {
	line   int
	input  string
	want   string // canonical reference, or "" when err is set
	err    string // expected error code
	verses int    // expected VerseCount, 0 when not given
}

// readReferenceCases reads testdata/references.txt; its header describes
// the format.
func readReferenceCases(t *testing.T) []referenceCase {
	t.Helper()
	f, err := os.Open("testdata/references.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()

	var cases []referenceCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) < 2 || len(fields) > 3 {
			t.Fatalf("references.txt:%d: want 2 or 3 tab-separated fields, got %d", n, len(fields))
		}
		c := referenceCase{line: n, input: fields[0]}
		if strings.HasPrefix(c.input, `"`) {
			if c.input, err = strconv.Unquote(c.input); err != nil {
				t.Fatalf("references.txt:%d: bad quoted input: %v", n, err)
			}
		}
		if code, ok := strings.CutPrefix(fields[1], "error:"); ok {
			c.err = code
		} else {
			c.want = fields[1]
		}
		if len(fields) == 3 {
			if c.verses, err = strconv.Atoi(fields[2]); err != nil {
				t.Fatalf("references.txt:%d: bad verse count: %v", n, err)
			}
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestParseReferenceFile(t *testing.T) {
	cases := readReferenceCases(t)
	if len(cases) < 200 {
		t.Fatalf("references.txt holds %d cases, want at least 200", len(cases))
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%d/%s", c.line, c.input), func(t *testing.T) {
			r, err := ParseReference(c.input)
			if c.err != "" {
				if err == nil {
					t.Fatalf("ParseReference(%q) = %q, want error %s", c.input, r, c.err)
				}
				if got := selahCode(t, err); got != c.err {
					t.Fatalf("ParseReference(%q) error code = %s (%v), want %s", c.input, got, err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseReference(%q): %v", c.input, err)
			}
			if got := r.String(); got != c.want {
				t.Errorf("ParseReference(%q) = %q, want %q", c.input, got, c.want)
			}
			if c.verses != 0 && r.VerseCount() != c.verses {
				t.Errorf("ParseReference(%q).VerseCount() = %d, want %d", c.input, r.VerseCount(), c.verses)
			}
			again, err := ParseReference(r.String())
			if err != nil || !sameReference(again, r) {
				t.Errorf("ParseReference(%q) = %+v, %v; want it to read back as %+v", r.String(), again, err, r)
			}
		})
	}
}

// TestReferenceFileCoversEveryBook guards the data file: every book must be
// exercised by its full name.
func TestReferenceFileCoversEveryBook(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range readReferenceCases(t) {
		seen[c.input] = true
	}
	for _, b := range Books() {
		if !seen[b.Name+" 1:1"] {
			t.Errorf("references.txt has no case %q", b.Name+" 1:1")
		}
	}
}

func TestParseReferenceMessages(t *testing.T) {
	tests := []struct {
		name, input, code, message string
	}{
		{"empty", "", selah.EINVALIDREF, `Empty reference. Try "John 3:16".`},
		{"unknown book", "Jhonn 3:16", selah.EINVALIDREF, `Unknown book "Jhonn". Try a reference like "John 3:16".`},
		{"missing book", "3:16", selah.EINVALIDREF, `Missing book name in "3:16". Try a reference like "John 3:16".`},
		{"chapter needed", "John", selah.EINVALIDREF, `A chapter is needed after "John": try "John 1" or "John 1:1".`},
		{"chapter past end", "John 22", selah.EPASSAGENOTFOUND, `John has 21 chapters.`},
		{"chapter zero", "John 0:1", selah.EPASSAGENOTFOUND, `Chapters start at 1; John has 21 chapters.`},
		{"verse past end", "John 3:37", selah.EPASSAGENOTFOUND, `John 3 has 36 verses.`},
		{"verse zero", "John 3:0", selah.EPASSAGENOTFOUND, `Verses start at 1; John 3 has 36 verses.`},
		{"end verse past end", "John 3:16-40", selah.EPASSAGENOTFOUND, `John 3 has 36 verses.`},
		{"single-chapter book chapter", "Jude 2:1", selah.EPASSAGENOTFOUND, `Jude has 1 chapter.`},
		{"single-chapter book verse", "Jude 26", selah.EPASSAGENOTFOUND, `Jude has 25 verses.`},
		{"overflow", "John 99999999999999999999", selah.EPASSAGENOTFOUND, `John has 21 chapters.`},
		{"reversed", "John 3:18-16", selah.EINVALIDREF, `The range in "John 3:18-16" runs backwards; put the earlier verse first.`},
		{"missing start verse", "John 3-4:5", selah.EINVALIDREF, `Could not read "John 3-4:5": give the start verse too, as in "John 3:1-4:5".`},
		{"list", "John 3:16,18", selah.EINVALIDREF, `Could not read "John 3:16,18": give one passage at a time, like "John 3:16" or "John 3:16-18".`},
		{"too long", "John 3:16" + strings.Repeat(" ", 192), selah.EINVALIDREF, `Reference is too long (more than 200 bytes). Try a reference like "John 3:16".`},
		{"invalid UTF-8", "John \xff3:16", selah.EINVALIDREF, `Reference is not valid UTF-8 text. Try a reference like "John 3:16".`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseReference(tt.input)
			if err == nil {
				t.Fatalf("ParseReference(%q) = %q, want an error", tt.input, r)
			}
			var e *selah.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not a *selah.Error", err)
			}
			if e.Code != tt.code || e.Message != tt.message {
				t.Errorf("ParseReference(%q) error = %s %q, want %s %q", tt.input, e.Code, e.Message, tt.code, tt.message)
			}
		})
	}
}

func TestParseReferenceLengthLimit(t *testing.T) {
	// 200 bytes is still read; one more is refused before any parsing.
	atLimit := "John 3:16" + strings.Repeat(" ", 200-len("John 3:16"))
	if r, err := ParseReference(atLimit); err != nil || r.String() != "John 3:16" {
		t.Errorf("ParseReference(200 bytes) = %q, %v; want John 3:16", r, err)
	}
	if _, err := ParseReference(atLimit + " "); selahCode(t, err) != selah.EINVALIDREF {
		t.Errorf("ParseReference(201 bytes): want %s, got %v", selah.EINVALIDREF, err)
	}
}

func TestLookupBook(t *testing.T) {
	tests := []struct {
		name, input, want string // want is an OSIS id, "" for no book
	}{
		{"full name", "Genesis", "Gen"},
		{"osis", "1Cor", "1Cor"},
		{"lower case", "revelation", "Rev"},
		{"trailing dot", "Gen.", "Gen"},
		{"dots inside", "1.Sam.", "1Sam"},
		{"space inside name", "Song of Songs", "Song"},
		{"no spaces in name", "songofsolomon", "Song"},
		{"digit", "2 Kings", "2Kgs"},
		{"digit glued", "2Kings", "2Kgs"},
		{"ordinal", "2nd Kings", "2Kgs"},
		{"ordinal glued", "2ndKings", "2Kgs"},
		{"roman", "II Kings", "2Kgs"},
		{"roman glued", "IIKings", "2Kgs"},
		{"word", "Second Kings", "2Kgs"},
		{"word glued", "secondkings", "2Kgs"},
		{"roman three", "III Jn", "3John"},
		{"word three", "Third John", "3John"},
		{"roman one spaced is a number", "I Sa", "1Sam"},
		{"roman one glued to Sa stays Isaiah", "Isa", "Isa"},
		{"Jud is Jude", "Jud", "Jude"},
		{"Jon is Jonah", "Jon", "Jonah"},
		{"Psalm singular", "Psalm", "Ps"},
		{"Qoheleth", "Qoh", "Eccl"},
		{"Canticles", "Canticles", "Song"},
		{"Apocalypse", "Apocalypse", "Rev"},
		{"Revelation of John", "Revelation of John", "Rev"},
		{"non-breaking space", "1\u00a0John", "1John"},
		{"empty", "", ""},
		{"only dots", "...", ""},
		{"only ordinal", "First", ""},
		{"ambiguous Ez", "Ez", ""},
		{"fourth", "4 John", ""},
		{"ordinal on unnumbered book", "1 Genesis", ""},
		{"typo", "Jhonn", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, ok := LookupBook(tt.input)
			if tt.want == "" {
				if ok {
					t.Errorf("LookupBook(%q) = %s, want no book", tt.input, b.OSIS)
				}
				return
			}
			if !ok || b.OSIS != tt.want {
				t.Errorf("LookupBook(%q) = %q, %v; want %q", tt.input, b.OSIS, ok, tt.want)
			}
		})
	}
}

// TestLookupBookEveryName checks every name in the tables, in the spellings
// a reader might use, against the book it was listed for.
func TestLookupBookEveryName(t *testing.T) {
	for _, b := range Books() {
		names := append([]string{b.OSIS, b.Name}, bookAliases[b.OSIS]...)
		for _, n := range names {
			for _, v := range []string{n, strings.ToUpper(n), strings.ToLower(n) + ".", strings.ReplaceAll(n, " ", "")} {
				got, ok := LookupBook(v)
				if !ok || got.Number != b.Number {
					t.Errorf("LookupBook(%q) = %q, %v; want %s", v, got.Name, ok, b.Name)
				}
			}
		}
	}
}

// TestEveryChapter parses every chapter of the canon by name and checks that
// the verse counts add up to the versification's totals.
func TestEveryChapter(t *testing.T) {
	chapters, verses := 0, 0
	for _, b := range Books() {
		for ch := 1; ch <= b.Chapters(); ch++ {
			in := fmt.Sprintf("%s %d", b.Name, ch)
			r, err := ParseReference(in)
			if err != nil {
				t.Fatalf("ParseReference(%q): %v", in, err)
			}
			if !r.WholeChapter() || r.String() != in || r.VerseCount() != b.Verses(ch) {
				t.Errorf("ParseReference(%q) = %q whole=%v verses=%d; want whole chapter of %d verses",
					in, r, r.WholeChapter(), r.VerseCount(), b.Verses(ch))
			}
			chapters++
			verses += r.VerseCount()
		}
		whole := fmt.Sprintf("%s 1-%d", b.Name, b.Chapters())
		if b.SingleChapter() {
			whole = b.Name
		}
		r, err := ParseReference(whole)
		if err != nil {
			t.Fatalf("ParseReference(%q): %v", whole, err)
		}
		n := 0
		for ch := 1; ch <= b.Chapters(); ch++ {
			n += b.Verses(ch)
		}
		if r.VerseCount() != n {
			t.Errorf("ParseReference(%q).VerseCount() = %d, want %d", whole, r.VerseCount(), n)
		}
	}
	if chapters != ChapterCount || verses != VerseCount {
		t.Errorf("canon has %d chapters and %d verses, want %d and %d", chapters, verses, ChapterCount, VerseCount)
	}
}

func mustParseReference(t *testing.T, s string) Reference {
	t.Helper()
	r, err := ParseReference(s)
	if err != nil {
		t.Fatalf("ParseReference(%q): %v", s, err)
	}
	return r
}

func TestReferenceMethods(t *testing.T) {
	tests := []struct {
		name        string
		input       string
		first, last VerseID
		verses      int
		whole       bool
	}{
		{"one verse", "John 3:16", 43003016, 43003016, 1, false},
		{"verse range", "John 3:16-18", 43003016, 43003018, 3, false},
		{"whole chapter", "Psalms 23", 19023001, 19023006, 6, true},
		{"whole chapters", "Psalms 23-24", 19023001, 19024010, 16, true},
		{"across chapters", "Genesis 1:31-2:3", 1001031, 1002003, 4, false},
		{"across three chapters", "John 2:25-4:1", 43002025, 43004001, 38, false},
		{"single-chapter verse", "Jude 3", 65001003, 65001003, 1, false},
		{"single-chapter book", "Jude", 65001001, 65001025, 25, true},
		{"chapter from whole book", "Genesis 1-50", 1001001, 1050026, 1533, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustParseReference(t, tt.input)
			if r.First() != tt.first || r.Last() != tt.last {
				t.Errorf("First, Last = %d, %d; want %d, %d", r.First(), r.Last(), tt.first, tt.last)
			}
			if r.VerseCount() != tt.verses {
				t.Errorf("VerseCount() = %d, want %d", r.VerseCount(), tt.verses)
			}
			if r.WholeChapter() != tt.whole {
				t.Errorf("WholeChapter() = %v, want %v", r.WholeChapter(), tt.whole)
			}
			// Count the verses Contains accepts in and around the range.
			b := r.Book
			inside := 0
			for ch := 1; ch <= b.Chapters(); ch++ {
				for v := 0; v <= b.Verses(ch)+1; v++ {
					if r.Contains(NewVerseID(b.Number, ch, v)) {
						inside++
					}
				}
			}
			if inside != tt.verses {
				t.Errorf("Contains accepts %d verses of %s, want %d", inside, b.Name, tt.verses)
			}
			if !r.Contains(tt.first) || !r.Contains(tt.last) {
				t.Errorf("Contains rejects an end of the range")
			}
			if r.Contains(tt.first-1) || r.Contains(tt.last+1) {
				t.Errorf("Contains accepts an id next to the range")
			}
			got, err := ReferenceForRange(r.First(), r.Last())
			if err != nil || !sameReference(got, r) {
				t.Errorf("ReferenceForRange(First, Last) = %+v, %v; want %+v", got, err, r)
			}
		})
	}
}

func TestReferenceContainsSkipsMissingVerses(t *testing.T) {
	r := mustParseReference(t, "John 3:30-4:2")
	// 43003040 sorts between 3:30 and 4:2 but John 3 has 36 verses.
	if r.Contains(43003040) {
		t.Error("Contains(John 3:40) = true, want false")
	}
	if r.Contains(44003031) {
		t.Error("Contains(Acts 3:31) = true, want false")
	}
}

func TestZeroReference(t *testing.T) {
	var r Reference
	if r.String() != "" || r.VerseCount() != 0 || r.WholeChapter() || r.Contains(43003016) {
		t.Errorf("zero Reference = %q, %d verses, whole %v; want empty", r, r.VerseCount(), r.WholeChapter())
	}
}

func TestReferenceForRange(t *testing.T) {
	tests := []struct {
		name        string
		first, last VerseID
		want        string // canonical reference, or "" on error
		code        string
	}{
		{"one verse", 43003016, 43003016, "John 3:16", ""},
		{"verses", 43003016, 43003018, "John 3:16-18", ""},
		{"whole chapter", 19023001, 19023006, "Psalms 23", ""},
		{"whole chapters", 19023001, 19024010, "Psalms 23-24", ""},
		{"across chapters", 1001031, 1002003, "Genesis 1:31-2:3", ""},
		{"single-chapter book", 65001001, 65001025, "Jude 1", ""},
		{"single-chapter verses", 65001003, 65001005, "Jude 1:3-5", ""},
		{"reversed", 43003018, 43003016, "", selah.EINVALIDREF},
		{"two books", 42024053, 43001001, "", selah.EINVALIDREF},
		{"first not a verse", 43003037, 43003040, "", selah.EPASSAGENOTFOUND},
		{"last not a verse", 43003016, 43022001, "", selah.EPASSAGENOTFOUND},
		{"zero id", 0, 43003016, "", selah.EPASSAGENOTFOUND},
		{"no such book", 67001001, 67001002, "", selah.EPASSAGENOTFOUND},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ReferenceForRange(tt.first, tt.last)
			if tt.code != "" {
				if err == nil {
					t.Fatalf("ReferenceForRange = %q, want error %s", r, tt.code)
				}
				if got := selahCode(t, err); got != tt.code {
					t.Errorf("error code = %s (%v), want %s", got, err, tt.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.String() != tt.want || r.First() != tt.first || r.Last() != tt.last {
				t.Errorf("ReferenceForRange = %q [%d, %d], want %q [%d, %d]", r, r.First(), r.Last(), tt.want, tt.first, tt.last)
			}
			back := mustParseReference(t, r.String())
			if !sameReference(back, r) {
				t.Errorf("ParseReference(%q) = %+v, want %+v", r.String(), back, r)
			}
		})
	}
}

func TestReferenceVerseIDs(t *testing.T) {
	for _, c := range []struct {
		ref  string
		n    int
		last string
	}{
		{"John 3:16", 1, "John 3:16"},
		{"Genesis 1:31-2:3", 4, "Genesis 2:3"},
		{"Psalms 119", 176, "Psalms 119:176"},
		{"Jude", 25, "Jude 1:25"},
		{"Ruth 1-4", 85, "Ruth 4:22"},
	} {
		r, err := ParseReference(c.ref)
		if err != nil {
			t.Fatal(err)
		}
		ids := r.VerseIDs()
		if len(ids) != c.n || len(ids) != r.VerseCount() || ids[len(ids)-1].String() != c.last || ids[0] != r.First() {
			t.Errorf("%s: %d verses ending %s", c.ref, len(ids), ids[len(ids)-1])
		}
	}
	if ids := (Reference{}).VerseIDs(); len(ids) != 0 {
		t.Errorf("zero reference: %v", ids)
	}
}
