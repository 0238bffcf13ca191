package corpus

import (
	"strings"
	"testing"
)

func TestFindReferences(t *testing.T) {
	t.Parallel()
	type found struct{ text, ref, err string }
	for _, tc := range []struct {
		name, text string
		want       []found
	}{
		{"the issue's example", "Read Jn 3:16–18 and 1 Cor 13:4–7, then Ps 23.",
			[]found{{"Jn 3:16–18", "John 3:16-18", ""}, {"1 Cor 13:4–7", "1 Corinthians 13:4-7", ""}, {"Ps 23", "Psalms 23", ""}}},
		{"ordinals and em dash", "First Corinthians 13:4—7 and II Kings 2:11",
			[]found{{"First Corinthians 13:4—7", "1 Corinthians 13:4-7", ""}, {"II Kings 2:11", "2 Kings 2:11", ""}}},
		{"non-breaking spaces", "see 1\u00a0John\u00a04:8 today",
			[]found{{"1\u00a0John\u00a04:8", "1 John 4:8", ""}}},
		{"dotted abbreviation", "Gen. 1:1 and Rom. 8:28",
			[]found{{"Gen. 1:1", "Genesis 1:1", ""}, {"Rom. 8:28", "Romans 8:28", ""}}},
		{"multi-word names", "Song of Solomon 2:1; Acts of the Apostles 2:4",
			[]found{{"Song of Solomon 2:1", "Song of Solomon 2:1", ""}, {"Acts of the Apostles 2:4", "Acts 2:4", ""}}},
		{"same book continues", "Rom 8:28; 12:1-2, 15:13",
			[]found{{"Rom 8:28", "Romans 8:28", ""}, {"12:1-2", "Romans 12:1-2", ""}, {"15:13", "Romans 15:13", ""}}},
		{"across chapters", "Genesis 1:31-2:3", []found{{"Genesis 1:31-2:3", "Genesis 1:31-2:3", ""}}},
		{"single-chapter book", "Jude 3 and Philemon 1:6", []found{{"Jude 3", "Jude 1:3", ""}, {"Philemon 1:6", "Philemon 1:6", ""}}},
		{"lower case with verse", "as jn 3:16 says", []found{{"jn 3:16", "John 3:16", ""}}},
		{"no verse past the end", "John 3:99 and Jude 2", []found{{"John 3:99", "", "passage_not_found"}, {"Jude 2", "Jude 1:2", ""}}},
		{"backwards range", "John 3:18-16", []found{{"John 3:18-16", "", "invalid_reference"}}},
		{"prose is not a reference", "I am 5 years old, the score is 3:1, he has 2 jobs and mark 4 of them; acts 2 times", nil},
		{"a name alone is not a reference", "John wrote to the Romans about Job.", nil},
		{"a number running into a word", "Ps 23rd time", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms := FindReferences(tc.text)
			var got []found
			for _, m := range ms {
				if tc.text[m.Start:m.End] != m.Text {
					t.Errorf("span %d-%d is %q, text %q", m.Start, m.End, tc.text[m.Start:m.End], m.Text)
				}
				f := found{text: m.Text}
				if m.Err != nil {
					f.err = selahCode(t, m.Err)
				} else {
					f.ref = m.Reference.String()
				}
				got = append(got, f)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("FindReferences(%q) = %+v, want %+v", tc.text, got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("mention %d = %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestFindPassages(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"What does John 3:16 mean?", []string{"John 3:16"}},
		{"What is Psalm 23 about?", []string{"Psalms 23"}},
		{"what is psalm 91 about", []string{"Psalms 91"}},
		{"what is genesis 1 about", []string{"Genesis 1"}},
		{"How should I understand Jn 14:6?", []string{"John 14:6"}},
		{"What does Romans 3:23 and Romans 6:23 say?", []string{"Romans 3:23", "Romans 6:23"}},
		{"I read Mark 2 last night", []string{"Mark 2"}},
		{"What is 1 Corinthians 15 about?", []string{"1 Corinthians 15"}},
		{"Explain Revelations 21", []string{"Revelation 21"}},
		{"What does Job 3 say?", []string{"Job 3"}},
		// A chapter alone needs the full name, and in lower case a name
		// that is no English word.
		{"Is 5 or 6 beers every night a problem?", nil},
		{"Ps 23 please", nil},
		{"i lost my job 3 weeks ago", nil},
		{"my son is 17 and acts like church is a waste of time", nil},
		// No such passage.
		{"What does John 3:99 say?", nil},
	} {
		var got []string
		for _, m := range FindPassages(tc.text) {
			got = append(got, m.Reference.String())
		}
		if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
			t.Errorf("FindPassages(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func FuzzFindReferences(f *testing.F) {
	for _, s := range []string{"Read Jn 3:16–18 and 1 Cor 13:4–7, then Ps 23.", "Rom 8:28; 12:1", "1\u00a0John 4:8", "\xff3:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		last := 0
		for _, m := range FindReferences(s) {
			if m.Start < last || m.End <= m.Start || m.End > len(s) || s[m.Start:m.End] != m.Text {
				t.Fatalf("bad span %d-%d after %d in %q", m.Start, m.End, last, s)
			}
			if (m.Err == nil) == (m.Reference.Book.Number == 0) || !strings.ContainsAny(m.Text, "0123456789") {
				t.Fatalf("mention %+v", m)
			}
			last = m.End
		}
	})
}
