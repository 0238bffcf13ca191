package pipeline_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store/storetest"
)

// naveRouter is a test double of the TopicRouter contract (route.go) over
// a few real Nave's Topical Bible entries, phrases and verses as the Nave
// module has them (diatheke -b Nave -k MELCHIZEDEK). The router itself is
// tested where it is built; here it only feeds the composer.
type naveRouter map[string][]pipeline.Routed

func (r naveRouter) Route(_ context.Context, query string, limit int) ([]pipeline.Routed, error) {
	for name, routed := range r {
		if strings.Contains(strings.ToLower(query), name) {
			return routed[:min(limit, len(routed))], nil
		}
	}
	return nil, nil
}

// entry lists a Nave's sub-entry's verses, given as references.
func entry(t testing.TB, topic, phrase string, refs ...string) []pipeline.Routed {
	t.Helper()
	var out []pipeline.Routed
	for _, id := range storetest.Verses(t, refs...) {
		out = append(out, pipeline.Routed{Verse: id, Score: 0.9, Topic: topic, Entry: phrase})
	}
	return out
}

func naves(t testing.TB) naveRouter {
	return naveRouter{
		"melchizedek": slices.Concat(
			entry(t, "MELCHIZEDEK", "King of Salem", "Genesis 14:18-20", "Psalms 110:4"),
			entry(t, "MELCHIZEDEK", "A priest and type of Christ", "Hebrews 7:1-3", "Hebrews 5:6")),
		"ruth": slices.Concat(
			entry(t, "RUTH", "The daughter-in-law of Naomi", "Ruth 1:4"),
			entry(t, "RUTH", "Marries Boaz", "Ruth 4:13"),
			entry(t, "RUTH", "Becomes an ancestor of Jesus", "Ruth 4:17")),
		"pentecost": slices.Concat(
			entry(t, "PENTECOST", "Holy Spirit given to the apostles on the first day of", "Acts 2:1-4"),
			entry(t, "PENTECOST", "Institution of", "Leviticus 23:15-16")),
		"feast of weeks": slices.Concat(
			entry(t, "PENTECOST", "Called — Feast of Weeks", "Exodus 34:22"),
			entry(t, "PENTECOST", "Called — Feast of Harvest", "Exodus 23:16")),
	}
}

// checkSentences asserts that every sentence of the answer names one of
// its references and the summary is one sentence.
func checkSentences(t *testing.T, ans pipeline.Answer) {
	t.Helper()
	for _, s := range pipeline.Sentences(ans.Text) {
		if !slices.ContainsFunc(ans.References, func(r pipeline.Reference) bool {
			return strings.Contains(s, fmt.Sprintf("%s %d:", r.Book, r.Chapter))
		}) {
			t.Errorf("sentence without a citation: %q", s)
		}
	}
	if n := len(pipeline.Sentences(ans.Summary)); n != 1 {
		t.Errorf("summary of %d sentences: %q", n, ans.Summary)
	}
}

func TestComposerNavesFacts(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a, st := b.answerer(nil), b.st
	a.Router = naves(t)
	for _, tt := range []struct {
		q     string
		want  []string
		first string
	}{
		{"Who was Melchizedek?", []string{"Melchizedek was king of Salem (Genesis 14:18-20) and a priest and type of Christ (Hebrews 7:1-3)."}, "Genesis 14:18-20"},
		{"Who was Ruth?", []string{"Ruth was the daughter-in-law of Naomi (Ruth 1:4), married Boaz (Ruth 4:13) and became an ancestor of Jesus (Ruth 4:17)."}, "Ruth 1:4"},
		// The first reference runs to Acts 2:4 ("filled with the Holy Ghost"),
		// which the search ranks among the first since Nave's leads for a
		// named entity (retrieve.go, NamedRouterWeight).
		{"What happened at Pentecost?", []string{"Scripture tells of the Holy Spirit given to the apostles on the first day of Pentecost (Acts 2:1-3)"}, "Acts 2:1-4"},
		// A one-word parent ("Called") leads its sub-entries' phrases, said
		// once.
		{"What was the feast of weeks?", []string{"Pentecost was called Feast of Weeks (Exodus 34:22) and Feast of Harvest (Exodus 23:"}, "Exodus 34:22"},
	} {
		t.Run(tt.q, func(t *testing.T) {
			ans, err := a.Answer(t.Context(), tt.q, 5, pipeline.AnswerOptions{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("answer: %s", ans.Text)
			checkGrounded(t, st, ans, 5)
			checkSentences(t, ans)
			for _, w := range tt.want {
				if !strings.Contains(ans.Text, w) {
					t.Errorf("answer lacks %q", w)
				}
			}
			if ans.NoPassage || ans.References[0].Reference != tt.first || ans.Summary != pipeline.Sentences(ans.Text)[0] {
				t.Errorf("answer %+v", ans)
			}
		})
	}
}

func TestComposerReferences(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a, st := b.answerer(nil), b.st
	ctx := context.Background()
	// maxReferences is filled when that many are relevant (it stopped at 3).
	// (The calibrated confidence, relevance.go, finds "forgiving someone
	// who hurt me" weak with lexical search alone, so the test asks
	// plainly.)
	const q = "What does the Bible say about forgiveness?"
	for _, n := range []int{5, 8} {
		ans, err := a.Answer(ctx, q, n, pipeline.AnswerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checkGrounded(t, st, ans, n)
		checkSentences(t, ans)
		if len(ans.References) != n {
			t.Errorf("maxRefs %d: %d references", n, len(ans.References))
		}
	}
	// A passage whose sentence runs over two verses is cited whole.
	ans, err := a.Answer(ctx, "What is the fruit of the Spirit?", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkGrounded(t, st, ans, 3)
	if !slices.ContainsFunc(ans.References, func(r pipeline.Reference) bool { return r.Reference == "Galatians 5:22-23" }) ||
		strings.Contains(ans.Text, "faith…") {
		t.Errorf("Galatians 5:22-23 not cited whole: %s %+v", ans.Text, ans.References)
	}
	// A verse asking the question is cited with the verse replying to it:
	// Peter's "how oft shall my brother sin against me, and I forgive
	// him?" (Matthew 18:21) with "Until seventy times seven" (18:22).
	ans, err = a.Answer(ctx, "How many times should I forgive my brother?", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkGrounded(t, st, ans, 3)
	if !slices.ContainsFunc(ans.References, func(r pipeline.Reference) bool { return r.Reference == "Matthew 18:21-22" }) {
		t.Errorf("Matthew 18:21 not cited with its reply: %s %+v", ans.Text, ans.References)
	}
}

func TestAnswerDeclines(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a, st := b.answerer(nil), b.st
	a.Router = naves(t)
	for _, tt := range []struct {
		q       string
		decline bool
	}{
		{"How many books are in the Bible?", true},
		{"Does the Bible talk about dinosaurs?", true},
		// A name the verses never write; only a Strong's gloss ("village,
		// hamlet") holds the word.
		{"Who wrote Hamlet?", true},
		// "which stocks should I buy" is made only of words the Bible uses:
		// the calibrated confidence (relevance.go) does not tell it apart.
		{"Who was Melchizedek?", false},
		{"What happened at Pentecost?", false},
		{"How can I stop worrying?", false},
	} {
		t.Run(tt.q, func(t *testing.T) {
			ans, err := a.Answer(t.Context(), tt.q, 3, pipeline.AnswerOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkGrounded(t, st, ans, 3)
			if ans.NoPassage != tt.decline {
				t.Fatalf("declined %v, want %v: %+v", ans.NoPassage, tt.decline, ans)
			}
			if tt.decline && (len(ans.References) != 0 || ans.Text != pipeline.NoPassageText || ans.Generator != pipeline.GeneratorNone) {
				t.Errorf("decline %+v", ans)
			}
		})
	}
	// Without the router, the names still reach their verses by search.
	plain := b.answerer(nil)
	for _, q := range []string{"Who was Melchizedek?", "What happened at Pentecost?"} {
		if ans, err := plain.Answer(t.Context(), q, 3, pipeline.AnswerOptions{}); err != nil || ans.NoPassage {
			t.Errorf("%s without a router: %+v, %v", q, ans, err)
		}
	}
}

func TestGroundCitedSentences(t *testing.T) {
	t.Parallel()
	john := corpus.Verse{ID: corpus.NewVerseID(43, 3, 16), Text: "For God so loved the world, that he gave his only begotten Son, that whosoever believeth in him should not perish, but have everlasting life."}
	cands := []pipeline.Candidate{{N: 1, Verse: john}}
	ok := pipeline.Draft{Answer: "God loved the world (John 3:16). He gave his Son (John 3:16).", Summary: "God gave his Son (John 3:16).", Citations: []int{1}, CitedSentences: true}
	if _, _, _, err := pipeline.Ground(ok, cands, 3); err != nil {
		t.Errorf("grounded draft refused: %v", err)
	}
	for _, bad := range []pipeline.Draft{
		{Answer: "God loved the world (John 3:16). He gave his Son.", Summary: "God gave his Son (John 3:16).", Citations: []int{1}, CitedSentences: true},
		{Answer: "God loved the world (John 3:16).", Summary: "God loved. He gave (John 3:16).", Citations: []int{1}, CitedSentences: true},
	} {
		if _, _, _, err := pipeline.Ground(bad, cands, 3); err == nil {
			t.Errorf("accepted %q / %q", bad.Answer, bad.Summary)
		}
	}
}

// TestChatGetsNavesFacts: the model is given the Nave's facts with the
// verses they rest on, and its draft is held to the same grounding; a draft
// citing nothing falls back to the composer's answer.
func TestChatGetsNavesFacts(t *testing.T) {
	t.Parallel()
	var drafted atomic.Int32
	fake := &fakeChat{t: t, model: func(vs []offered) string {
		if drafted.Add(1) == 1 {
			for _, v := range vs {
				if v.Reference == "Genesis 14:18" {
					return draftJSON("Melchizedek was king of Salem and priest of the most high God (Genesis 14:18).",
						"Melchizedek was king of Salem (Genesis 14:18).", v.N)
				}
			}
		}
		return draftJSON("He was a king.", "A king.")
	}}
	chat := fake.serve(pipeline.ChatConfig{MaxRetries: -1})
	b := setup(t)
	a, st := b.answerer(chat), b.st
	a.Router = naves(t)
	ans, err := a.Answer(t.Context(), "Who was Melchizedek?", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkGrounded(t, st, ans, 3)
	prompt := fake.prompt()
	if !strings.Contains(prompt, "MELCHIZEDEK: King of Salem [") || !strings.Contains(prompt, "A priest and type of Christ [") {
		t.Errorf("the Nave's facts are not in the prompt:\n%s", prompt)
	}
	if ans.Generator != "openai" || ans.Fallback || ans.References[0].Reference != "Genesis 14:18" {
		t.Errorf("answer %+v", ans)
	}
	// The second draft cites nothing: the composer answers.
	ans, err = a.Answer(t.Context(), "Who was Melchizedek?", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkGrounded(t, st, ans, 3)
	if ans.Generator != "extractive" || !ans.Fallback || !strings.Contains(ans.Text, "Melchizedek was king of Salem (Genesis 14:18-20)") {
		t.Errorf("fallback %+v", ans)
	}
}

// TestChatGetsListings: where Nave's files the candidates (a topic whose
// title holds the question's word) is among the model's facts too.
func TestChatGetsListings(t *testing.T) {
	t.Parallel()
	fake := &fakeChat{t: t, model: func(vs []offered) string {
		return draftJSON("The flood came on the earth (Genesis 6:17).", "The flood came (Genesis 6:17).", vs[0].N)
	}}
	chat := fake.serve(pipeline.ChatConfig{MaxRetries: -1})
	b := setup(t)
	// Asked "Why did God send the flood?", the verse giving a reason
	// answers (why.go), not the candidates' listings.
	if _, err := b.answerer(chat).Answer(t.Context(), "Tell me about God sending the flood", 3, pipeline.AnswerOptions{}); err != nil {
		t.Fatal(err)
	}
	prompt := fake.prompt()
	if !strings.Contains(prompt, "- FLOOD (a Nave's topic) lists [") {
		t.Errorf("the listing is not in the prompt:\n%s", prompt)
	}
}

// TestAnswerJesusWords: a question about what Jesus taught is answered
// first from his words, which ingest marks from the KJV module's red
// letters.
func TestAnswerJesusWords(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a, st := b.answerer(nil), b.st
	marked, err := st.VersesByID(t.Context(), []corpus.VerseID{corpus.NewVerseID(40, 6, 34), corpus.NewVerseID(1, 1, 1)})
	if err != nil {
		t.Fatal(err)
	}
	if len(marked) != 2 || !marked[0].WordsOfChrist || marked[1].WordsOfChrist {
		t.Fatalf("words of Christ: Matthew 6:34 and Genesis 1:1 read as %+v", marked)
	}
	ans, err := a.Answer(t.Context(), "What did Jesus teach about prayer?", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("answer: %s", ans.Text)
	if ans.NoPassage {
		t.Fatal("declined")
	}
	first, err := st.VersesByID(t.Context(), ans.References[0].VerseIDs())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(first, func(v corpus.Verse) bool { return v.WordsOfChrist }) {
		t.Errorf("first reference %s holds no words of Jesus", ans.References[0].Reference)
	}
	// A theme he spoke of, in a word the corpus never saw ("remarriage"):
	// answered from his words on it, every reference his.
	ans, err = a.Answer(t.Context(), "What does Jesus say about divorce and remarriage?", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ans.NoPassage || len(ans.References) == 0 {
		t.Fatalf("divorce declined: %+v", ans)
	}
	vs, err := st.VersesByID(t.Context(), ans.References[0].VerseIDs())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(vs, func(v corpus.Verse) bool { return v.WordsOfChrist }) {
		t.Errorf("divorce: first reference %s holds no words of Jesus", ans.References[0].Reference)
	}
	// The verb of his speaking is not the subject: "teach" routed this
	// to INSTRUCTION (Psalms 32:8) before; he taught the Lord's prayer.
	ans, err = a.Answer(t.Context(), "how did Jesus teach us to pray", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lords := corpus.NewVerseID(40, 6, 9)
	if !slices.ContainsFunc(ans.References, func(r pipeline.Reference) bool { return slices.Contains(r.VerseIDs(), lords) }) {
		var got []string
		for _, r := range ans.References {
			got = append(got, r.Reference)
		}
		t.Errorf("how did Jesus teach us to pray: %v, want Matthew 6:9 among them", got)
	}
	// When his words speak to it, every verse cited is his: "What did
	// Jesus say about anger?" told of "the anger of God (Numbers 12:9)"
	// and quoted Psalms 37:8 beside Matthew 5:21-22.
	ans, err = a.Answer(t.Context(), "What did Jesus say about anger?", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ans.NoPassage || len(ans.References) == 0 {
		t.Fatalf("anger declined: %+v", ans)
	}
	for _, r := range ans.References {
		vs, err := st.VersesByID(t.Context(), r.VerseIDs())
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(vs, func(v corpus.Verse) bool { return v.WordsOfChrist }) {
			t.Errorf("anger: %s holds no words of Jesus (%s)", r.Reference, ans.Text)
		}
	}
}

// TestAnswerBookWords: a question asking what one book (or a letters'
// writer) says is answered from that book alone, its name no word of its
// subject ("Proverbs" once cited 1 Kings 4:32, "he spake three thousand
// proverbs"; "James" the apostle's call, Matthew 4:21).
func TestAnswerBookWords(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.answerer(nil)
	for q, book := range map[string]int{
		"What does Proverbs say about fools?":     20,
		"what does james say about faith":         59,
		"verses in psalms about trusting god":     19,
		"What does 1 Corinthians say about love?": 46,
	} {
		ans, err := a.Answer(t.Context(), q, 3, pipeline.AnswerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if ans.NoPassage || len(ans.References) == 0 {
			t.Errorf("%q declined", q)
			continue
		}
		for _, r := range ans.References {
			if r.VerseIDs()[0].Book() != book {
				t.Errorf("%q cites %s, not of book %d", q, r.Reference, book)
			}
		}
	}
	// A letters' writer, learned from the letters' first verses: Paul's
	// are Romans (45) to Philemon (57). It cited Philemon 1:8-9 ("though I
	// might be much bold in Christ") before.
	ans, err := a.Answer(t.Context(), "What did Paul say about love?", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ans.NoPassage || len(ans.References) == 0 || !strings.HasPrefix(ans.References[0].Reference, "1 Corinthians 13") {
		t.Errorf("What did Paul say about love? %+v, want 1 Corinthians 13 first", ans.References)
	}
	for _, r := range ans.References {
		if b := r.VerseIDs()[0].Book(); b < 45 || b > 57 {
			t.Errorf("What did Paul say about love? cites %s, none of his letters", r.Reference)
		}
	}
}

// TestComposerListingFollowsLead: where Nave's files the cited passages
// leads a quotations-only answer when it files the first passage quoted;
// a listing of a later passage alone follows the first quotation, which it
// does not describe ("I can do all things" quotes Philippians 4:13, and
// MYSTERIES files only the Deuteronomy 29:29 cited after it).
func TestComposerListingFollowsLead(t *testing.T) {
	t.Parallel()
	phil, deut := corpus.NewVerseID(50, 4, 13), corpus.NewVerseID(5, 29, 29)
	cands := candidatesOf(
		verseText{phil, "I can do all things through Christ which strengtheneth me."},
		verseText{deut, "The secret things belong unto the LORD our God: but those things which are revealed belong unto us and to our children for ever, that we may do all the words of this law."},
	)
	cands[0].Evidence, cands[1].Evidence = 0.9, 0.5
	for _, tt := range []struct {
		listings []pipeline.Fact
		lead     string // the answer's first words
		listing  string // the listing sentence, somewhere
	}{
		{
			listings: []pipeline.Fact{{Topic: "MYSTERIES", Verses: []corpus.VerseID{deut}}},
			lead:     `Scripture says: "I can do all things`,
			listing:  "Nave's Topical Bible lists Deuteronomy 29:29 under the topic Mysteries.",
		},
		{
			listings: []pipeline.Fact{{Topic: "MYSTERIES", Verses: []corpus.VerseID{deut}}, {Topic: "STRENGTH", Verses: []corpus.VerseID{phil}}},
			lead:     "Nave's Topical Bible lists Philippians 4:13 under the topic Strength.",
			listing:  "Nave's Topical Bible lists Philippians 4:13 under the topic Strength.",
		},
	} {
		d, err := pipeline.Composer{}.Generate(t.Context(), pipeline.Question{Text: "I can do all things", Candidates: cands, MaxRefs: 3, Listings: tt.listings})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(d.Answer, tt.lead) || !strings.Contains(d.Answer, tt.listing) {
			t.Errorf("answer %q: want it to open %q and hold %q", d.Answer, tt.lead, tt.listing)
		}
	}
}

// TestHubNeedsEvidence: a curated hub matched on a word of the question
// ("lost") leads the answer only with a passage that speaks to it: "the
// parable of the lost sheep" is not answered with the hub on grief.
func TestHubNeedsEvidence(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ans := b.ask(t, "what does the parable of the lost sheep teach")
	if strings.Contains(ans.Text, "mourn") {
		t.Errorf("lost sheep: %q, want no hub on grief", ans.Text)
	}
}

// quotation is one quotation of an answer and the reference it names.
var quotation = regexp.MustCompile(`"[^"]*" \(([^)]*)\)`)

// TestComposerQuotesOnce: no two quotations of an answer hold the same
// verse. A candidate next to a quoted verse joined its passage when
// cited, and the passage was quoted again ("Scripture says: "But Gehazi
// …" (2 Kings 5:20). It also says: "But Gehazi …" (2 Kings 5:20-21).").
func TestComposerQuotesOnce(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.answerer(nil)
	for _, q := range []string{
		"what happened to gehazi after he took naaman's gifts",
		"did jesus teach anything about fasting",
		"How many days was Jesus tempted in the wilderness?",
		"what do the hidden treasure in the field and the pearl of great price mean",
		"jesus on swearing oaths",
	} {
		for _, n := range []int{3, 5} {
			ans, err := a.Answer(t.Context(), q, n, pipeline.AnswerOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkGrounded(t, b.st, ans, n)
			quoted := map[corpus.VerseID]string{}
			for _, m := range quotation.FindAllStringSubmatch(ans.Text, -1) {
				ref, err := corpus.ParseReference(m[1])
				if err != nil {
					t.Fatalf("%q: quotation of %q: %v", q, m[1], err)
				}
				for _, id := range ref.VerseIDs() {
					if other, ok := quoted[id]; ok {
						t.Errorf("%q (%d references): %s quoted again in %s: %s", q, n, other, m[1], ans.Text)
					}
					quoted[id] = m[1]
				}
			}
		}
	}
}
