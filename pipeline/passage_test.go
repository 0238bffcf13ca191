package pipeline_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/selahdev/selah/pipeline"
)

// TestAnswerNamedPassage: a question naming a passage is answered by it,
// cited whole and quoted, with where Nave's files it. Searched, "What
// does Psalm 23 say?" cited Colossians 3:16 ("psalms and hymns").
func TestAnswerNamedPassage(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.answerer(nil)
	for _, tc := range []struct {
		question string
		maxRefs  int
		refs     []string
		says     []string // parts of the answer
	}{
		{"What does John 3:16 mean?", 3, []string{"John 3:16"},
			[]string{`John 3:16 reads: "For God so loved the world`, "Nave's Topical Bible lists John 3:16 under", "God (love of)"}},
		{"what is psalm 23 about", 3, []string{"Psalms 23"},
			[]string{`Psalms 23 reads: "The LORD is my shepherd`, "Shepherd ("}},
		{"Compare Romans 3:23 and Romans 6:23", 5, []string{"Romans 3:23", "Romans 6:23"},
			[]string{"Romans 3:23 reads:", "Romans 6:23 reads:"}},
		// A verse named twice is cited once.
		{"Compare John 3:16 with John 3:15-17", 5, []string{"John 3:15-17"}, []string{"John 3:16 reads:"}},
		// No more passages than references asked for.
		{"Compare Romans 3:23 and Romans 6:23", 1, []string{"Romans 3:23"}, nil},
		// A passage named by a name the KJV never writes, from the
		// passages cited for it (nickname.go); adjacent ones merge.
		// Searched, "mount" found Zechariah 14:4.
		{"What is the Sermon on the Mount?", 3, []string{"Matthew 5:1-20", "Matthew 6:1-18"},
			[]string{`For the Sermon on the Mount, Matthew 5:1-16 reads: "And seeing the multitudes`}},
		// A topic whose one entry is a plain list of scriptures is
		// those passages, the question naming its title whole.
		{"What is the Lord's Prayer?", 3, []string{"Matthew 6:9-13", "Luke 11:2-4"},
			[]string{`Matthew 6:9-13 reads: "After this manner therefore pray ye`, "Luke 11:2-4 reads:"}},
		// The question's frame is no word it asks of the passage.
		{"What does the Bible say about the Lord's Prayer?", 3, []string{"Matthew 6:9-13", "Luke 11:2-4"}, nil},
		// A long passage is narrowed to what the question asks of it.
		{"I read Mark 2 last night. Why did Jesus eat with sinners?", 3, []string{"Mark 2:16"},
			[]string{"Mark 2:16 reads:"}},
	} {
		ans, err := a.Answer(t.Context(), tc.question, tc.maxRefs, pipeline.AnswerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range ans.References {
			got = append(got, r.Reference)
		}
		if !slices.Equal(got, tc.refs) {
			t.Errorf("%q (max %d) cites %q, want %q", tc.question, tc.maxRefs, got, tc.refs)
		}
		for _, s := range tc.says {
			if !strings.Contains(ans.Text, s) {
				t.Errorf("%q answered %q, want it to say %q", tc.question, ans.Text, s)
			}
		}
	}
	// Psalm 23 whole: its six verses, and their text from the database.
	ans, err := a.Answer(t.Context(), "What is Psalm 23 about?", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.References) != 1 || len(ans.References[0].VerseIDs()) != 6 || !strings.HasSuffix(ans.References[0].Text, "for ever.") {
		t.Errorf("Psalm 23 cited as %+v", ans.References)
	}
	// A number after "Is" names no Isaiah.
	ans, err = a.Answer(t.Context(), "Is 5 or 6 beers every night a problem?", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range ans.References {
		if strings.HasPrefix(r.Reference, "Isaiah 5") {
			t.Errorf("Is 5 or 6 beers … cites %s", r.Reference)
		}
	}
}

// TestChatNamedPassage: a model is told the passage the question names
// and offered its verses, and its answer citing them is kept.
func TestChatNamedPassage(t *testing.T) {
	t.Parallel()
	fake := &fakeChat{t: t, model: func(vs []offered) string {
		return draftJSON(fmt.Sprintf(`It tells of God's love: "%s" (%s).`, firstWords(vs[0].Text, 6), vs[0].Reference), "God loves the world.", 1)
	}}
	chat := fake.serve(pipeline.ChatConfig{})
	b := setup(t)
	ans, err := b.answerer(chat).Answer(t.Context(), "What does John 3:16 mean?", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Generator != "openai" || ans.Fallback || len(ans.References) != 1 || ans.References[0].Reference != "John 3:16" {
		t.Errorf("generator %q fallback %v (%s), references %+v", ans.Generator, ans.Fallback, ans.FallbackReason, ans.References)
	}
	prompt := fake.prompt()
	for _, want := range []string{"The question names John 3:16 [1]", "[1] John 3:16: For God so loved the world", "Nave's Topical Bible lists John 3:16 under God (love of)"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt %q lacks %q", prompt, want)
		}
	}
}

// TestAnswerContextPassage: in a conversation a verse or chapter named
// alone is of the passage the last answer cited.
func TestAnswerContextPassage(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.answerer(nil)
	turns := []pipeline.Turn{
		{Question: "Who was Ruth?", References: []string{"Ruth 1:4"}},
		{Question: "What does John 3:16 mean?", References: []string{"John 3:16"}},
	}
	for _, tc := range []struct {
		question string
		turns    []pipeline.Turn
		refs     []string // nil: no passage of John 3 or 4
	}{
		{"And verse 17?", turns, []string{"John 3:17"}},
		{"what about verses 17-18", turns, []string{"John 3:17-18"}},
		{"What happens in chapter 4?", turns, []string{"John 4:1-40"}},
		// Alone, or past the chapter's end, it names nothing.
		{"And verse 17?", nil, nil},
		{"And verse 99?", turns, nil},
	} {
		ans, err := a.Answer(t.Context(), tc.question, 3, pipeline.AnswerOptions{Context: tc.turns})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range ans.References {
			got = append(got, r.Reference)
		}
		if tc.refs == nil {
			if slices.ContainsFunc(got, func(r string) bool { return strings.HasPrefix(r, "John 3:17") || strings.HasPrefix(r, "John 4") }) {
				t.Errorf("%q (turns %d) cites %q", tc.question, len(tc.turns), got)
			}
			continue
		}
		if !slices.Equal(got, tc.refs) {
			t.Errorf("%q cites %q, want %q", tc.question, got, tc.refs)
		}
	}
}
