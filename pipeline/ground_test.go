package pipeline_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/pipeline"
)

// groundCands are candidates as retrieval might return them: numbered from
// 1, with two adjacent verses (Matthew 5:3 and 5:4).
func groundCands() []pipeline.Candidate {
	return candidatesOf(
		verseText{corpus.NewVerseID(43, 3, 16), "For God so loved the world, that he gave his only begotten Son, that whosoever believeth in him should not perish, but have everlasting life."},
		verseText{corpus.NewVerseID(40, 5, 4), "Blessed are they that mourn: for they shall be comforted."},
		verseText{corpus.NewVerseID(60, 5, 7), "Casting all your care upon him; for he careth for you."},
		verseText{corpus.NewVerseID(40, 5, 3), "Blessed are the poor in spirit: for theirs is the kingdom of heaven."},
		verseText{corpus.NewVerseID(19, 23, 1), "The LORD is my shepherd; I shall not want."},
	)
}

type verseText struct {
	id   corpus.VerseID
	text string
}

// candidatesOf numbers verses as candidates from 1.
func candidatesOf(verses ...verseText) []pipeline.Candidate {
	out := make([]pipeline.Candidate, len(verses))
	for i, v := range verses {
		b, _ := corpus.BookByNumber(v.id.Book())
		out[i] = pipeline.Candidate{N: i + 1, Verse: corpus.Verse{ID: v.id, Book: b, Chapter: v.id.Chapter(), Number: v.id.Verse(), Text: v.text}}
	}
	return out
}

func refStrings(groups [][]corpus.VerseID) []string {
	var out []string
	for _, g := range groups {
		ref, err := corpus.ReferenceForRange(g[0], g[len(g)-1])
		if err != nil {
			panic(err)
		}
		out = append(out, ref.String())
	}
	return out
}

func TestGround(t *testing.T) {
	t.Parallel()
	const sum = "God loves the world."
	tests := []struct {
		name    string
		draft   pipeline.Draft
		maxRefs int
		want    []string // references; nil: ungrounded
		answer  string   // the answer as grounded, or for nil want a part of the reason
	}{
		{"numbers", pipeline.Draft{Answer: `Jesus said, "For God so loved the world" (John 3:16).`, Summary: sum, Citations: []int{1}}, 3,
			[]string{"John 3:16"}, ""},
		{"reference strings", pipeline.Draft{Answer: "God cares for you.", Summary: sum, References: []string{"1 Pet 5:7", "Ps 23:1"}}, 3,
			[]string{"1 Peter 5:7", "Psalms 23:1"}, ""},
		{"adjacent verses merge", pipeline.Draft{Answer: "The Beatitudes bless the poor and the mourning.", Summary: sum, Citations: []int{2, 3, 4}}, 2,
			[]string{"Matthew 5:3-4", "1 Peter 5:7"}, ""},
		{"range reference string", pipeline.Draft{Answer: "Blessed are the poor (Matthew 5:3-4).", Summary: sum, References: []string{"Matthew 5:3-5"}}, 3,
			[]string{"Matthew 5:3-4"}, ""},
		{"non-candidates dropped", pipeline.Draft{Answer: "God loves you.", Summary: sum, Citations: []int{0, 99, 1}, References: []string{"Romans 8:28", "Hezekiah 3:5", "nonsense"}}, 3,
			[]string{"John 3:16"}, ""},
		{"maxRefs keeps the first", pipeline.Draft{Answer: "Trust God.", Summary: sum, Citations: []int{3, 5, 1}}, 2,
			[]string{"1 Peter 5:7", "Psalms 23:1"}, ""},
		{"candidate named in text is cited", pipeline.Draft{Answer: "See Psalms 23:1 and John 3:16.", Summary: sum, Citations: []int{1}}, 3,
			[]string{"John 3:16", "Psalms 23:1"}, ""},
		{"markers become references", pipeline.Draft{Answer: "God gave his Son [1]; he cares for you [3, 5].", Summary: sum}, 3,
			[]string{"John 3:16", "1 Peter 5:7", "Psalms 23:1"}, "God gave his Son (John 3:16); he cares for you (1 Peter 5:7; Psalms 23:1)."},
		{"chapter of a cited verse", pipeline.Draft{Answer: "Psalm 23 is a comfort: \"The LORD is my shepherd\".", Summary: sum, Citations: []int{5}}, 3,
			[]string{"Psalms 23:1"}, ""},
		{"quote with ellipsis and case", pipeline.Draft{Answer: `"for god so loved the world … that whosoever believeth in him should not perish…"`, Summary: sum, Citations: []int{1}}, 3,
			[]string{"John 3:16"}, ""},
		{"quote across merged verses", pipeline.Draft{Answer: `“Blessed are the poor in spirit: for theirs is the kingdom of heaven. Blessed are they that mourn”`, Summary: sum, Citations: []int{4, 2}}, 3,
			[]string{"Matthew 5:3-4"}, ""},
		{"punctuation differences", pipeline.Draft{Answer: `"Casting all your care upon him, for he careth for you!"`, Summary: sum, Citations: []int{3}}, 3,
			[]string{"1 Peter 5:7"}, ""},
		{"short phrases are not quotations", pipeline.Draft{Answer: `He is "the shepherd" who cares.`, Summary: sum, Citations: []int{5}}, 3,
			[]string{"Psalms 23:1"}, ""},

		{"no citation", pipeline.Draft{Answer: "God loves you.", Summary: sum}, 3, nil, "no citation"},
		{"only non-candidates", pipeline.Draft{Answer: "God loves you.", Summary: sum, Citations: []int{42}, References: []string{"Romans 8:28"}}, 3, nil, "no citation"},
		{"empty answer", pipeline.Draft{Summary: sum, Citations: []int{1}}, 3, nil, "empty"},
		{"empty summary", pipeline.Draft{Answer: "God loves you.", Citations: []int{1}}, 3, nil, "empty"},
		{"misquote", pipeline.Draft{Answer: `"For God so loved the whole world" (John 3:16).`, Summary: sum, Citations: []int{1}}, 3, nil, "misquote"},
		{"modernised quote", pipeline.Draft{Answer: `"The Lord is my shepherd; I have everything I need."`, Summary: sum, Citations: []int{5}}, 3, nil, "misquote"},
		{"quote of an uncited candidate", pipeline.Draft{Answer: `"Casting all your care upon him" says Peter.`, Summary: sum, Citations: []int{1}}, 3, nil, "misquote"},
		{"misquote in summary", pipeline.Draft{Answer: "God loves you.", Summary: `"God so loved all of us."`, Citations: []int{1}}, 3, nil, "misquote"},
		{"unclosed quotation", pipeline.Draft{Answer: `He said "For God so loved the world`, Summary: sum, Citations: []int{1}}, 3, nil, "unclosed"},
		{"text names a verse not retrieved", pipeline.Draft{Answer: "As Romans 8:28 says, all things work together.", Summary: sum, Citations: []int{1}}, 3, nil, "Romans 8:28"},
		{"text names an invented verse", pipeline.Draft{Answer: "Hezekiah 3:5 says so.", Summary: sum, Citations: []int{1}}, 3, nil, "no verse of the KJV"},
		{"text names a verse beyond maxRefs", pipeline.Draft{Answer: "See John 3:16 and Psalms 23:1.", Summary: sum, Citations: []int{1}}, 1, nil, "Psalms 23:1"},
		{"text names another chapter", pipeline.Draft{Answer: "Psalm 91 says God protects.", Summary: sum, Citations: []int{5}}, 3, nil, "Psalms 91"},
		{"marker out of range", pipeline.Draft{Answer: "God loves you [7].", Summary: sum, Citations: []int{1}}, 3, nil, "[7]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			answer, _, groups, err := pipeline.Ground(tt.draft, groundCands(), tt.maxRefs)
			if tt.want == nil {
				if err == nil {
					t.Fatalf("grounded %v, want ungrounded", refStrings(groups))
				}
				if !strings.Contains(err.Error(), tt.answer) {
					t.Errorf("reason %q, want it to say %q", err, tt.answer)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := refStrings(groups); !slices.Equal(got, tt.want) {
				t.Errorf("references %v, want %v", got, tt.want)
			}
			if tt.answer != "" && answer != tt.answer {
				t.Errorf("answer %q, want %q", answer, tt.answer)
			}
			if strings.ContainsAny(answer, "[]") {
				t.Errorf("answer keeps a marker: %q", answer)
			}
		})
	}
}

// TestGroundKeepsPassagesWhole: a passage whose verses are cited out of
// order (Matthew 5:5, then 5:3, then 5:4) is kept whole when it fits, not
// cut at the verse that did not fit when it came (the composer's "Naaman
// (2 Kings 5:8-9)" beside 2 Kings 5:10-12 was refused so).
func TestGroundKeepsPassagesWhole(t *testing.T) {
	t.Parallel()
	cands := candidatesOf(
		verseText{corpus.NewVerseID(40, 5, 3), "Blessed are the poor in spirit: for theirs is the kingdom of heaven."},
		verseText{corpus.NewVerseID(40, 5, 4), "Blessed are they that mourn: for they shall be comforted."},
		verseText{corpus.NewVerseID(40, 5, 5), "Blessed are the meek: for they shall inherit the earth."},
		verseText{corpus.NewVerseID(19, 23, 1), "The LORD is my shepherd; I shall not want."},
	)
	d := pipeline.Draft{Answer: "The meek are blessed (Matthew 5:5), and the poor and the mourning (Matthew 5:3-4); the LORD is a shepherd (Psalms 23:1).",
		Summary: "The meek are blessed (Matthew 5:5).", Citations: []int{3, 4, 1, 2}}
	_, _, groups, err := pipeline.Ground(d, cands, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := refStrings(groups), []string{"Matthew 5:3-5", "Psalms 23:1"}; !slices.Equal(got, want) {
		t.Errorf("references %v, want %v", got, want)
	}
}

func TestExtractiveDeterministic(t *testing.T) {
	t.Parallel()
	q := pipeline.Question{Text: "Who cares for me?", Candidates: groundCands(), MaxRefs: 3}
	for i := range q.Candidates {
		q.Candidates[i].Evidence = 0.5
	}
	first, err := pipeline.Extractive{}.Generate(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		again, _ := pipeline.Extractive{}.Generate(t.Context(), q)
		if again.Answer != first.Answer || again.Summary != first.Summary || !slices.Equal(again.Citations, first.Citations) {
			t.Fatalf("answers differ:\n%+v\n%+v", first, again)
		}
	}
	want := `The King James Bible speaks to this: "For God so loved the world, that he gave his only begotten Son, that whosoever believeth in him should not perish, but have everlasting life" (John 3:16).` +
		` It also says: "Blessed are the poor in spirit: for theirs is the kingdom of heaven. Blessed are they that mourn: for they shall be comforted" (Matthew 5:3-4).` +
		` And again: "Casting all your care upon him; for he careth for you" (1 Peter 5:7).`
	if first.Answer != want {
		t.Errorf("answer\n%s\nwant\n%s", first.Answer, want)
	}
	if want := `In short: "For God so loved the world, that he gave his only begotten Son…" (John 3:16).`; first.Summary != want {
		t.Errorf("summary %q, want %q", first.Summary, want)
	}
	if _, _, _, err := pipeline.Ground(first, q.Candidates, 3); err != nil {
		t.Errorf("extractive answer is not grounded: %v", err)
	}
}

func TestExtractiveShape(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("and the people went up unto the mountain of the LORD, ", 8) + "and they rested."
	cands := groundCands()
	cands = append(cands, pipeline.Candidate{N: 6, Evidence: 1, Verse: corpus.Verse{ID: corpus.NewVerseID(17, 8, 9), Text: long}})
	tests := []struct {
		name    string
		cands   []pipeline.Candidate
		maxRefs int
		refs    int
		check   func(t *testing.T, d pipeline.Draft)
	}{
		{"one reference", cands[:1], 3, 1, func(t *testing.T, d pipeline.Draft) {
			if !strings.Contains(d.Answer, "The verses around it in John 3 give the fuller context.") {
				t.Errorf("answer %q", d.Answer)
			}
		}},
		{"maxRefs 1", cands, 1, 1, nil},
		{"long verse shortened", cands[5:], 3, 1, func(t *testing.T, d pipeline.Draft) {
			if !strings.Contains(d.Answer, "…\" (Esther 8:9).") || strings.Contains(d.Answer, "rested") {
				t.Errorf("answer %q", d.Answer)
			}
		}},
		{"adjacent verses quoted together", []pipeline.Candidate{cands[3], cands[1]}, 3, 1, func(t *testing.T, d pipeline.Draft) {
			if !strings.Contains(d.Answer, "heaven. Blessed are they that mourn: for they shall be comforted\" (Matthew 5:3-4).") {
				t.Errorf("answer %q", d.Answer)
			}
		}},
		{"no evidence, no companion", func() []pipeline.Candidate {
			cs := groundCands()
			cs[0].Evidence = 1
			return cs
		}(), 3, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range tt.cands {
				if tt.cands[i].Evidence == 0 && tt.name != "no evidence, no companion" {
					tt.cands[i].Evidence = 0.5
				}
			}
			d, err := pipeline.Extractive{}.Generate(t.Context(), pipeline.Question{Text: "q", Candidates: tt.cands, MaxRefs: tt.maxRefs})
			if err != nil {
				t.Fatal(err)
			}
			_, _, groups, err := pipeline.Ground(d, tt.cands, tt.maxRefs)
			if err != nil {
				t.Fatalf("not grounded: %v\n%s", err, d.Answer)
			}
			if len(groups) != tt.refs {
				t.Errorf("%d references, want %d: %s", len(groups), tt.refs, d.Answer)
			}
			if n := strings.Count(d.Answer, ". ") + 1; n < 2 || n > 4 {
				t.Errorf("%d sentences: %s", n, d.Answer)
			}
			if tt.check != nil {
				tt.check(t, d)
			}
		})
	}
	if _, err := (pipeline.Extractive{}).Generate(t.Context(), pipeline.Question{Text: "q", MaxRefs: 3}); err == nil {
		t.Error("no candidates: no error")
	}
}

func TestExtractivePsalmContext(t *testing.T) {
	t.Parallel()
	cands := groundCands()[4:]
	cands[0].N, cands[0].Evidence = 1, 1
	d, err := pipeline.Extractive{}.Generate(t.Context(), pipeline.Question{Text: "q", Candidates: cands, MaxRefs: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := `The King James Bible speaks to this: "The LORD is my shepherd; I shall not want" (Psalms 23:1). The verses around it in Psalm 23 give the fuller context.`
	if d.Answer != want {
		t.Errorf("answer %q, want %q", d.Answer, want)
	}
	if _, _, _, err := pipeline.Ground(d, cands, 3); err != nil {
		t.Error(err)
	}
}

// TestGroundWholeChapterCited: a sentence naming a whole chapter cites it
// when every verse of the chapter is kept ("What is Psalm 117 about?"
// cites Psalms 117), and not when one verse of it is: a chapter then
// points at no verse in particular.
func TestGroundWholeChapterCited(t *testing.T) {
	t.Parallel()
	cands := candidatesOf(
		verseText{corpus.NewVerseID(19, 117, 1), "O praise the LORD, all ye nations: praise him, all ye people."},
		verseText{corpus.NewVerseID(19, 117, 2), "For his merciful kindness is great toward us: and the truth of the LORD endureth for ever. Praise ye the LORD."},
	)
	draft := func(cites ...int) pipeline.Draft {
		return pipeline.Draft{Answer: "Psalms 117 calls all nations to praise the LORD.", Summary: "Psalms 117 calls all nations to praise the LORD.",
			Citations: cites, CitedSentences: true}
	}
	_, _, groups, err := pipeline.Ground(draft(1, 2), cands, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got := refStrings(groups); !slices.Equal(got, []string{"Psalms 117"}) {
		t.Errorf("references %v, want [Psalms 117]", got)
	}
	if _, _, _, err := pipeline.Ground(draft(1), cands, 3); err == nil || !strings.Contains(err.Error(), "sentence without a citation") {
		t.Errorf("one verse of the chapter kept: %v, want a sentence without a citation", err)
	}
}
