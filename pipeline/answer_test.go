package pipeline_test

import (
	"context"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
)

// candidateNumber is a candidate's number left in prose ("[2]").
var candidateNumber = regexp.MustCompile(`\[\s*\d`)

// checkGrounded asserts what holds for every answer: at most maxRefs
// references, each made of retrieved verses with the database's text, and
// public fields free of candidate numbers and instructions.
func checkGrounded(t *testing.T, st *store.Store, ans pipeline.Answer, maxRefs int) {
	t.Helper()
	if len(ans.References) > maxRefs {
		t.Errorf("%d references, maxRefs %d", len(ans.References), maxRefs)
	}
	if !ans.NoPassage && len(ans.References) == 0 {
		t.Errorf("an answer without references: %+v", ans)
	}
	for _, ref := range ans.References {
		ids := ref.VerseIDs()
		if len(ids) == 0 || ref.Translation != "KJV" {
			t.Errorf("reference %+v", ref)
			continue
		}
		for _, id := range ids {
			if !slices.Contains(ans.Retrieved, id) {
				t.Errorf("%s cites %s, which was not retrieved", ref.Reference, id)
			}
		}
		verses, err := st.VersesByID(context.Background(), ids)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, v := range verses {
			texts = append(texts, v.Text)
		}
		if want := strings.Join(texts, " "); ref.Text != want {
			t.Errorf("%s text %q, database %q", ref.Reference, ref.Text, want)
		}
		want, _ := corpus.ReferenceForRange(ids[0], ids[len(ids)-1])
		if ref.Reference != want.String() || ref.Book != want.Book.Name || ref.Chapter != want.StartChapter {
			t.Errorf("reference %+v, want %s", ref, want)
		}
	}
	for _, s := range []string{ans.Text, ans.Summary} {
		if strings.TrimSpace(s) == "" || candidateNumber.MatchString(s) || strings.Contains(s, "numbered") {
			t.Errorf("public text %q", s)
		}
	}
}

func TestAnswerExtractive(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a, st := b.answerer(nil), b.st
	ctx := context.Background()
	ans, err := a.Answer(ctx, "How can I stop worrying?", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("answer: %s\nsummary: %s", ans.Text, ans.Summary)
	checkGrounded(t, st, ans, 3)
	if ans.Generator != "extractive" || ans.Fallback || ans.NoPassage ||
		len(ans.Retrieved) < pipeline.DefaultAskCandidates || len(ans.Retrieved) > 6*pipeline.DefaultAskCandidates {
		t.Errorf("answer %+v", ans)
	}
	// A sentence of the composer's own from the worry hub's summary, citing
	// 1 Peter 5:7 with the verse whose sentence it ends.
	if !strings.HasPrefix(ans.Text, "Passages such as 1 Peter 5:6-7 speak to people weighed down by worry") || ans.References[0].Reference != "1 Peter 5:6-7" {
		t.Errorf("first reference %+v in %q", ans.References[0], ans.Text)
	}
	again, err := a.Answer(ctx, "How can I stop worrying?", 3, pipeline.AnswerOptions{})
	if err != nil || !reflect.DeepEqual(ans, again) {
		t.Errorf("not deterministic:\n%+v\n%+v (%v)", ans, again, err)
	}
}

func TestAnswerNoPassage(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a, st := b.answerer(nil), b.st
	for _, q := range []string{
		"asdfgh qwerty",
		"what is the capital of France",
		"What is the capital of France?",
		"Who won the football world cup?",
		"Explain quantum physics",
		"Recommend a good laptop",
		"How do I fix my car's transmission?",
		"What is the best programming language?",
		"How tall is Mount Everest?",
	} {
		t.Run(q, func(t *testing.T) {
			ans, err := a.Answer(context.Background(), q, 3, pipeline.AnswerOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkGrounded(t, st, ans, 3)
			if !ans.NoPassage || ans.Text != pipeline.NoPassageText || len(ans.References) != 0 || ans.Generator != "none" {
				t.Errorf("answer %+v", ans)
			}
		})
	}
}

func TestAnswerMaxRefs(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a, st := b.answerer(nil), b.st
	ctx := context.Background()
	const q = "What does the Bible say about forgiving others?"
	for n := 1; n <= selah.MaxMaxReferences; n++ {
		ans, err := a.Answer(ctx, q, n, pipeline.AnswerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checkGrounded(t, st, ans, n)
		if n == 1 && len(ans.References) != 1 {
			t.Errorf("maxRefs 1: %d references", len(ans.References))
		}
	}
	ans, err := a.Answer(ctx, q, 0, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkGrounded(t, st, ans, selah.DefaultMaxReferences)
	for _, tt := range []struct {
		q       string
		maxRefs int
	}{
		{"  ", 3},
		{q, 9},
		{q, -1},
		{strings.Repeat("a", selah.MaxQuestionLength+1), 3},
	} {
		if _, err := a.Answer(ctx, tt.q, tt.maxRefs, pipeline.AnswerOptions{}); selah.ErrorCode(err) != selah.EINVALID {
			t.Errorf("question of %d runes, maxRefs %d: %v", utf8.RuneCountInString(tt.q), tt.maxRefs, err)
		}
	}
}

// stubGenerator drafts with a function: it stands for a model where the
// HTTP API is beside the point.
type stubGenerator func(q pipeline.Question) (pipeline.Draft, error)

func (stubGenerator) Name() string { return "stub" }
func (f stubGenerator) Generate(_ context.Context, q pipeline.Question) (pipeline.Draft, error) {
	return f(q)
}

func TestAnswerMergesAdjacentVerses(t *testing.T) {
	t.Parallel()
	mat5 := func(v int) corpus.VerseID { return corpus.NewVerseID(40, 5, v) }
	var retrieved []pipeline.Candidate
	cite := stubGenerator(func(q pipeline.Question) (pipeline.Draft, error) {
		retrieved = q.Candidates
		d := pipeline.Draft{Answer: "Jesus blesses the poor in spirit, the mourners and the meek.", Summary: "The Beatitudes bless the lowly."}
		for _, c := range q.Candidates {
			if c.Verse.ID >= mat5(3) && c.Verse.ID <= mat5(5) {
				d.Citations = append(d.Citations, c.N)
			}
		}
		return d, nil
	})
	b := setup(t)
	a, st := b.answerer(cite), b.st
	ans, err := a.Answer(context.Background(), "Blessed are the poor in spirit, they that mourn, and the meek", 2, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkGrounded(t, st, ans, 2)
	var ids []corpus.VerseID
	for _, c := range retrieved {
		ids = append(ids, c.Verse.ID)
	}
	if !slices.Contains(ids, mat5(3)) || !slices.Contains(ids, mat5(4)) || !slices.Contains(ids, mat5(5)) {
		t.Fatalf("Matthew 5:3-5 not all retrieved: %v", ids)
	}
	if ans.Generator != "stub" || ans.Fallback || len(ans.References) != 1 {
		t.Fatalf("answer %+v", ans)
	}
	ref := ans.References[0]
	if ref.Reference != "Matthew 5:3-5" || ref.Book != "Matthew" || ref.Chapter != 5 || ref.VerseStart != 3 || ref.VerseEnd != 5 ||
		!strings.HasPrefix(ref.Text, "Blessed are the poor in spirit") || !strings.HasSuffix(ref.Text, "inherit the earth.") {
		t.Errorf("reference %+v", ref)
	}
}

func TestEvidence(t *testing.T) {
	t.Parallel()
	r := setup(t).r
	tests := []struct {
		question string
		verse    corpus.VerseID
		want     float64
	}{
		// The WEB wording counts: 1 Peter 5:7 says "worries" there; "stop"
		// is in neither wording.
		{"How can I stop my worries?", corpus.NewVerseID(60, 5, 7), 0.5},
		{"Is it wrong to be angry?", corpus.NewVerseID(49, 4, 26), 0.5},
		// The question frame counts for nothing.
		{"What does the Bible say about lying?", corpus.NewVerseID(20, 14, 5), 1},
		// "France" is unknown to the corpus and weighs three known words;
		// the WEB says "capitals".
		{"What is the capital of France?", corpus.NewVerseID(11, 7, 16), 0.25},
		{"asdf love", corpus.NewVerseID(62, 4, 7), 0.25},
		{"the and of", john316, 0},
	}
	for _, tt := range tests {
		if got := pipeline.Evidence(r, tt.question, tt.verse); got != tt.want {
			t.Errorf("evidence(%q, %s) = %v, want %v", tt.question, tt.verse, got, tt.want)
		}
	}
}

// TestAnswerAskedPart: a question told with its story is searched also by
// what it asks. "bills", "jobs" and "pay" outweigh "worry" in the whole
// question's search (Matthew 21:28, "go work to day in my vineyard").
func TestAnswerAskedPart(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ans := b.ask(t, "I work two jobs and still can't pay the bills. What does the Bible say about worry?")
	checkGrounded(t, b.st, ans, 3)
	care := storetest.Verses(t, "Matthew 6:25-34", "Philippians 4:6-7", "1 Peter 5:7", "Luke 12:22-26")
	if !citesAny(ans, care) {
		t.Errorf("cites nothing on worry: %+v", ans.References)
	}
}

// TestAnswerParable: a parable is asked about by its name and the word
// "parable", which names PARABLES; Nave's lists Jesus' parables in a
// section of JESUS, THE CHRIST that PARABLES refers to ("See JESUS,
// PARABLES OF"), and the answer tells the parable from there. (The
// parables best known by name, the Good Samaritan's among them, are
// nicknames: nickname.go.)
func TestAnswerParable(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for q, want := range map[string]string{
		"Could you explain the parable of the two debtors?": "Luke 7:41-43",
		"what is the parable of the hidden treasure":        "Matthew 13:44",
	} {
		ans := b.ask(t, q)
		checkGrounded(t, b.st, ans, 3)
		if !citesAny(ans, storetest.Verses(t, want)) {
			t.Errorf("%q cites none of %s: %+v", q, want, ans.References)
		}
		// Nave's names the parables under JESUS' "PARABLES OF"; he told
		// them, he was none of them.
		if strings.Contains(ans.Text, "Jesus was") || !strings.Contains(ans.Text, "the parable of") {
			t.Errorf("%q: %q, want the parable told of, not what Jesus was", q, ans.Text)
		}
	}
}

// TestAnswerLongHistory: a question naming Jesus asks of him something
// none of the entries of JESUS, THE CHRIST says in its words (Nave's
// writes "Is immersed by John"): the hundreds of entries that tie on his
// name are no answer, and the first of them in Nave's order ("NAMES OF
// — Adam") is not told as one; the search speaks.
func TestAnswerLongHistory(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ans := b.ask(t, "What happened after Jesus was baptized?")
	checkGrounded(t, b.st, ans, 3)
	if strings.Contains(ans.Text, "Jesus was Adam") {
		t.Errorf("told a name's first entry as the answer: %q", ans.Text)
	}
	if !citesAny(ans, storetest.Verses(t, "Matthew 3:13-17", "Mark 1:9-11", "Luke 3:21-22", "John 1:32-34")) {
		t.Errorf("cites no telling of his baptism: %+v", ans.References)
	}
	// Another topic's entry tells it (JOHN's "Baptizes Jesus") and comes
	// first; the entries tied on his name after it answer nothing either:
	// "Jesus was advocate (1 John 2:1-2)".
	ans = b.ask(t, "What happened when Jesus was baptized?")
	checkGrounded(t, b.st, ans, 3)
	tellings := storetest.Verses(t, "Matthew 3:13-17", "Mark 1:9-11", "Luke 3:21-22", "John 1:29-34")
	for _, ref := range ans.References {
		if !slices.ContainsFunc(ref.VerseIDs(), func(id corpus.VerseID) bool { return slices.Contains(tellings, id) }) {
			t.Errorf("cites %s, no telling of his baptism: %q", ref.Reference, ans.Text)
		}
	}
}

// TestAnswerFactsOfNames: the Nave's facts of an answer about a named
// person, place or event are said of names; a theme or thing the question
// names in part, routed after the name, states nothing of it.
func TestAnswerFactsOfNames(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for q, not := range map[string]string{
		"What happened on the road to Damascus?": "highways",          // ROADS
		"Where did Jesus turn water into wine?":  "turned into blood", // WATER
	} {
		ans := b.ask(t, q)
		checkGrounded(t, b.st, ans, 3)
		if strings.Contains(ans.Text, not) {
			t.Errorf("%q: %q", q, ans.Text)
		}
	}
}

// TestAnswerHubFacts: a hub topic's entries (GOD refers to two dozen
// themes) become no sentence of an answer to a question naming it.
func TestAnswerHubFacts(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ans := b.ask(t, "Why did God flood the earth?")
	checkGrounded(t, b.st, ans, 3)
	if strings.Contains(ans.Text, "Creator") || citesAny(ans, storetest.Verses(t, "Genesis 1:26")) {
		t.Errorf("told of GOD's entries: %q", ans.Text)
	}
	if !citesAny(ans, storetest.Verses(t, "Genesis 6:5-8", "Genesis 6:11-13", "Genesis 6:17", "Genesis 7:10-24")) {
		t.Errorf("cites nothing of the flood: %+v", ans.References)
	}
}

// TestAnswerInstance: a theme's entry naming whom the question names is the
// instance asked about ("Who betrayed Jesus?": BETRAYAL's "Of Jesus"), not
// the theme's teaching; a question asking why keeps the teaching.
func TestAnswerInstance(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ans := b.ask(t, "Who betrayed Jesus?")
	checkGrounded(t, b.st, ans, 3)
	if !citesAny(ans, storetest.Verses(t, "Matthew 26:14-16", "Matthew 26:47-49", "Mark 14:10-11", "Luke 22:47-48", "John 18:2-5")) {
		t.Errorf("cites no telling of the betrayal: %+v", ans.References)
	}
	ans = b.ask(t, "How did Moses die?")
	checkGrounded(t, b.st, ans, 3)
	if !citesAny(ans, storetest.Verses(t, "Deuteronomy 31:14", "Deuteronomy 32:48-52", "Deuteronomy 34:1-8")) {
		t.Errorf("cites nothing of Moses' death: %+v", ans.References)
	}
	// A name in one verse of five ("Lord") is no person the question
	// asks of: COWARDICE's "Peter, in denying the Lord" shares only it
	// with the question, and Peter's denial was the answer.
	ans = b.ask(t, "What does it mean to fear the Lord?")
	checkGrounded(t, b.st, ans, 3)
	if citesAny(ans, storetest.Verses(t, "Matthew 26:69-75", "Mark 14:66-72", "Luke 22:54-62", "John 18:15-27")) {
		t.Errorf("cites Peter's denial: %+v", ans.References)
	}
}

// TestAnswerOccasion: a question asking what Jesus said to someone or
// at an event is answered with his words there, and only his: "to the
// woman at the well" was declined, and "to Zacchaeus" quoted Zacchaeus.
func TestAnswerOccasion(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for q, want := range map[string][]string{
		"What did Jesus say to the woman at the well?": {"John 4:7-26"},
		"What did Jesus say to Zacchaeus?":             {"Luke 19:5", "Luke 19:9-10"},
		"What did Jesus say to Nicodemus?":             {"John 3:3-21"},
	} {
		ans := b.ask(t, q)
		checkGrounded(t, b.st, ans, 3)
		if ans.NoPassage || !citesAny(ans, storetest.Verses(t, want...)) {
			t.Errorf("%q cites %+v, want one of %v", q, ans.References, want)
			continue
		}
		for _, ref := range ans.References {
			verses, err := b.st.VersesByID(t.Context(), ref.VerseIDs())
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(verses, func(v corpus.Verse) bool { return v.WordsOfChrist }) {
				t.Errorf("%q cites %s, which holds no word of his", q, ref.Reference)
			}
		}
	}
}

// TestAnswerReads: questions the offline answer once read wrongly are
// answered, citing one of the passages that answer them.
func TestAnswerReads(t *testing.T) {
	t.Parallel()
	b := setup(t)
	cases := []struct {
		why, question string
		cite          []string
	}{
		// A word no verse writes but a Nave's title does is no word the
		// corpus has never seen: "gluttony" counted as unknown, and the
		// theme gate declined GLUTTONY, which the question names whole.
		{"titled word", "What does the Bible say about gluttony?", []string{"Proverbs 23:1-3", "Proverbs 23:20-21", "Deuteronomy 21:20", "Philippians 3:19"}},
		// A count is answered by a verse stating one, and the search's
		// verses holding a number come first: the lepers' search found
		// lepers, not the ten, and the question was declined.
		{"count", "How many lepers did Jesus heal and how many came back to thank him?", []string{"Luke 17:12-17"}},
		// A where-question reaches the place's entry that says what it
		// asks: NOAH's "Builds an ark" came first and Genesis 8:4 went
		// uncited.
		{"place", "Where did Noah's ark come to rest?", []string{"Genesis 8:4"}},
		// A who-question's verb is read in its base form too ("built" of
		// NOAH's "Builds an ark"): ARK's title came first, and its verses
		// were 1 Peter 3:20's.
		{"who did", "Who built the ark?", []string{"Genesis 6:14-16", "Genesis 6:22", "Hebrews 11:7"}},
		// "Lot" is as often the common word as the man, so LOT was read
		// as a theme and its listing answered with Genesis 19:15; "Lot’s"
		// is always the man's, in the KJV as in the question, typed
		// with a plain or a phone's curly apostrophe.
		{"possessed name", "what happened to lot's wife", []string{"Genesis 19:26"}},
		{"possessed name, curly", "What happened to Lot’s wife?", []string{"Genesis 19:26"}},
		// A person's description lists no verses: HANNAH's "(The mother
		// of Samuel)" now answers with her entries, SAMUEL's came first.
		{"description", "Who was Samuel's mother?", []string{"1 Samuel 1:20"}},
		// A who-question asks for another than the person it names as a
		// verb's object: JESUS' "Parable of the barren fig tree" told of
		// him; the search's Luke 19:4 answers.
		{"object", "who climbed a tree to see jesus", []string{"Luke 19:2-4"}},
		// A title of two words WordNet does not hold is a kind of its
		// head: UNPARDONABLE SIN was no theme (its sense unknown), and
		// SIN's key passages answered with Romans 3:23.
		{"compound title", "What is the unpardonable sin?", []string{"Matthew 12:31-32", "Mark 3:28-29", "Luke 12:10"}},
		// A what-question that names a theme's entry better than any
		// theme asks of the entry: LOST SHEEP's "Parable of", where
		// SHEEP's key passages (John 10:11, Psalms 23:1) answered.
		{"instance", "what does the parable of the lost sheep teach", []string{"Luke 15:3-7", "Matthew 18:12-14"}},
		{"instance", "what is the parable of the wicked husbandmen about", []string{"Matthew 21:33-41", "Mark 12:1-9", "Luke 20:9-16"}},
		// An instance may be a section of teaching itself (ARK's "Called
		// THE ARK — OF THE COVENANT"): it was weighed against its own
		// score, outranked nothing, and COVENANT's teaching answered
		// (Genesis 17:7).
		{"section instance", "What is the ark of the covenant?", []string{"Numbers 10:33", "Deuteronomy 31:25-26", "Joshua 3:3-6", "Hebrews 9:4", "2 Samuel 15:24"}},
		// A theme listing its verses plainly, named whole, is its own
		// verses: "golden" found the bells of gold (Exodus 28:33).
		{"named theme", "What is the Golden Rule?", []string{"Matthew 7:12", "Luke 6:31"}},
		// A question asking what Jesus said is answered from his words:
		// a theme whose teaching holds none is no theme for it. RISING
		// (of rising early) and HEIR were chosen, and then declined.
		{"his words", "My mum passed away last week. What did Jesus say about the dead rising again?", []string{"John 11:25-26", "John 5:25-29"}},
		{"his words", "My brothers and I are fighting over our dad's inheritance. Did Jesus ever say anything about that?", []string{"Luke 12:13-21"}},
		// A what-happened question naming a place asks for the event
		// another topic's entry holds whole (JESUS' "Appears to Paul (on
		// the road to Damascus)"): the titles of DAMASCUS and ROADS came
		// first, and the answer told of the ancient city.
		{"what happened", "What happened on the road to Damascus?", []string{"Acts 9:3-6", "Acts 22:6-11", "Acts 26:12-18"}},
		// A topic the question names that Nave's files in plain entries,
		// no section, teaches by them: ARMOR's "FIGURATIVE" was passed
		// over for GOD's sections ("God was a Spirit (Acts 17:29)").
		{"plain entries", "What is the armor of God?", []string{"Ephesians 6:11-17"}},
		// A title of several words the question holds whole is the theme
		// (LORD'S PRAYER, not PRAYER), and the hub of the broader topic
		// does not speak for it: the prayer hub's "Prayer is speaking with
		// God" (Philippians 4:6) answered it.
		{"whole title", "What is the Lord's Prayer?", []string{"Matthew 6:9-13", "Luke 11:2-4"}},
		// One referring to a theme is read through it: LYING's own entry
		// is an instance ("Lying spirit from God"), FALSEHOOD teaches.
		// A yes-no question asking whether a thing is a sin is about the
		// thing (predicate.go): SIN named as its predicate answered with
		// its key passages (Romans 3:23, 1 John 3:4), whatever the thing.
		{"predicate", "Is laziness a sin?", []string{"Proverbs 6:6-11", "Proverbs 13:4", "Proverbs 10:4", "Proverbs 19:15", "Proverbs 24:30-34"}},
		{"predicate", "Is it a sin to be jealous of others?", []string{"Proverbs 27:4", "Song of Solomon 8:6", "Proverbs 14:30", "James 3:16"}},
		// A question told with its story names its theme in the part that
		// asks: weighed on the whole question, WAITING's text holds few
		// of the story's words and the gate declined it; the asking part
		// is about nothing else.
		{"asked theme", "the doctor found a lump and i have to wait two weeks for the biopsy results. i'm terrified and can't think about anything else. how do i get through the waiting?", []string{"Psalms 37:7", "Micah 7:7", "Psalms 27:14", "Isaiah 40:31", "Lamentations 3:25-26"}},
		{"referred theme", "What does the Bible say about lying?", []string{"Proverbs 12:22", "Proverbs 6:16-19", "Exodus 20:16", "Colossians 3:9", "Ephesians 4:25"}},
	}
	for _, c := range cases {
		ans := b.ask(t, c.question)
		checkGrounded(t, b.st, ans, 3)
		if ans.NoPassage || !citesAny(ans, storetest.Verses(t, c.cite...)) {
			t.Errorf("%s: %q cites %+v", c.why, c.question, ans.References)
		}
	}
}

// ask is the offline answer to q with three references; an error fails
// the test.
func (b bundle) ask(t *testing.T, q string) pipeline.Answer {
	t.Helper()
	ans, err := b.answerer(nil).Answer(t.Context(), q, 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ans
}

// citesAny reports whether the answer cites any of the verses.
func citesAny(a pipeline.Answer, verses []corpus.VerseID) bool {
	for _, ref := range a.References {
		for _, id := range ref.VerseIDs() {
			if slices.Contains(verses, id) {
				return true
			}
		}
	}
	return false
}
