package pipeline_test

import (
	"testing"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store/storetest"
)

// TestTopicSense: the Bible's sense of a topic's word is read off Nave's
// and the verses it lists, not WordNet's most frequent sense: STOCKS is
// the frame for prisoners' feet (a thing), though "stock" is first the
// capital of a corporation; ENEMY is a person, which counts as no thing.
func TestTopicSense(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, tt := range []struct {
		title           string
		known, physical bool
	}{
		{"STOCKS", true, true},
		{"FERRET", true, true},
		{"PIPE", true, true},
		{"ANGER", true, false},
		{"DEBT", true, false},
		{"ENEMY", true, false},
		// A verb form as a title stands for the verb's nouns.
		{"DOUBTING", true, false},
		{"NO SUCH TOPIC", false, false},
	} {
		known, physical := pipeline.TopicSense(b.r, tt.title)
		if known != tt.known || physical != tt.physical {
			t.Errorf("%s: known %v physical %v, want %v %v", tt.title, known, physical, tt.known, tt.physical)
		}
	}
}

// TestSearchSenseTrapWeak: /search says a sense trap's best match is weak,
// as /ask declines it, though its verses hold the query's words (the
// stocks of Acts 16:24); a quotation of those verses, a thing in the
// Bible's setting, and a thing beside a name the Bible writes ("the road
// to Damascus": ROADS' text holds neither name; "Paul's shoes", the name
// as a possessive) are not.
func TestSearchSenseTrapWeak(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for q, weak := range map[string]bool{
		"which stocks should I buy":                     true,
		"What should I feed my pet ferret?":             true,
		"When were the Dead Sea Scrolls discovered?":    true,
		"he put their feet fast in the stocks":          false,
		"Why did Jesus curse the fig tree?":             false,
		"How should I treat my enemies?":                false,
		"what happened to Saul on the road to Damascus": false,
		"what were Paul's shoes like":                   false,
	} {
		res, err := b.r.Search(t.Context(), q, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 || res.Weak != weak {
			t.Errorf("%q: weak %v (confidence %.2f, %d hits), want %v", q, res.Weak, res.Confidence, len(res.Hits), weak)
		}
	}
}

// TestAnswerThemeSenses: a thing named outside the Bible's setting is
// declined, and a long pastoral question naming an abstraction Nave's
// teaches under a section is answered from that section, though no verse
// holds its words (the calibrated confidence alone declined it).
func TestAnswerThemeSenses(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := pipeline.NewAnswerer(b.st, b.r, nil)
	// Verses Nave's lists under ANGER's "General scriptures concerning".
	anger := storetest.Verses(t, "Proverbs 14:29", "Proverbs 15:1", "Proverbs 16:32", "Proverbs 29:11", "Ecclesiastes 7:9",
		"Ephesians 4:26", "Ephesians 4:31", "James 1:19", "James 1:20", "Colossians 3:8", "Proverbs 19:11")
	// What a teacher cites for marriage and for prayer's answer; the
	// verses holding "marriage" that search ranks first (1 Timothy 3:2,
	// 1 Corinthians 7:38) are about bishops and virgins.
	marriage := storetest.Verses(t, "Genesis 2:24", "Matthew 19:4-6", "Mark 10:6-9", "Ephesians 5:31", "Hebrews 13:4")
	prayer := storetest.Verses(t, "Matthew 7:7-11", "Philippians 4:6", "James 5:16", "1 John 5:14-15", "John 14:13-14")
	// CARE's teaching (ANXIETY: See CARE) and TEMPTATION's.
	care := storetest.Verses(t, "Philippians 4:6-7", "1 Peter 5:7", "Matthew 6:25-34")
	temptation := storetest.Verses(t, "1 Corinthians 10:13", "Matthew 26:41", "James 1:12-15", "Hebrews 4:15")
	// DRUNKENNESS's "General scriptures concerning".
	drunkenness := storetest.Verses(t, "Proverbs 20:1", "Proverbs 23:20-21", "Proverbs 23:29-35", "Isaiah 5:11-12", "Isaiah 5:22",
		"Luke 21:34", "Romans 13:13", "Galatians 5:19-21", "Ephesians 5:18", "1 Thessalonians 5:7-8")
	for _, tt := range []struct {
		q       string
		decline bool
		cites   []corpus.VerseID // one of them, when set
	}{
		// A theme's teaching joins the candidates when search found
		// verses holding its word (MARRIAGE: Hebrews 13:4 is beyond the
		// first verses Nave's lists), and a theme whose best matching
		// entry is a note (PRAYER's "Answer to, exceeds petition") still
		// answers from its sections.
		{"What does the Bible teach about marriage?", false, marriage},
		{"Why pray if God already knows everything? Does he answer every prayer?", false, prayer},
		{"which stocks should I buy", true, nil},
		{"What should I feed my pet ferret?", true, nil},
		{"When were the Dead Sea Scrolls discovered?", true, nil},
		// A thing in the Bible's setting, a person, a word that reaches
		// a thing by its stem only ("tired": TIRE, a headdress), and a
		// figure (WAY's "Of holiness", not the road).
		{"Why did Jesus curse the fig tree?", false, nil},
		// "happened" frames an event question, as "say about" a topic.
		{"what happened at the burning bush", false, storetest.Verses(t, "Exodus 3:2-6")},
		{"How should I treat my enemies?", false, nil},
		{"I am so tired. Where can I find rest?", false, nil},
		{"treat others the way you want to be treated", false, nil},
		{"My husband and I fight constantly and I say things I regret afterwards. How do I get my anger under control?", false, anger},
		// The theme gate (gate.go): a pastoral question in words none of
		// the theme's verses hold, the theme chosen by likeness over the
		// word the router names first (BEATING), and theme words in
		// questions about things the Bible does not speak of.
		{"How do I deal with anxiety?", false, care},
		// A time the question names as its circumstance is not its theme
		// (NIGHT), one it asks about is (SABBATH, NIGHT).
		{"my anxiety keeps me up at night", false, care},
		{"Is it wrong to work on the Sabbath?", false, storetest.Verses(t, "Exodus 20:8-11", "Mark 2:27-28")},
		{"What does the Bible say about the night?", false, nil},
		// A question whose words name no theme, one of them a kind of
		// anxiety to WordNet (ANXIETY: See CARE): Jesus' words on it. The
		// word vectors' bridge reaches CARE from "I worry about
		// everything" as before.
		{"What did Jesus say about worry?", false, storetest.Verses(t, "Matthew 6:25-34", "Luke 12:22-31")},
		{"I worry about everything", false, care},
		// A number in digits is a quantity told, not a theme's word
		// (spelled, it named SEVENTY and the question was declined).
		{"im 78 and lately im scared of dying", false, storetest.Verses(t, "John 11:25-26", "Hebrews 9:27-28", "Romans 6:23")},
		{"keep falling into the same temptation over and over. i pray about it and then do it again. why can't i beat this", false, temptation},
		// A question naming a thing may name a theme besides (the
		// bottles are WINE's and BOTTLE's, the drinking DRUNKENNESS's),
		// but not one filed under the thing's own words (ABLUTION, the
		// washing of feet with water).
		{"I hide bottles in the garage because I drink too much", false, drunkenness},
		{"boiling point of water at 5000 feet elevation", true, nil},
		{"what's a good prayer journal app for iphone that syncs with icloud", true, nil},
		{"Does 16:8 intermittent fasting slow down your metabolism?", true, nil},
	} {
		t.Run(tt.q, func(t *testing.T) {
			ans, err := a.Answer(t.Context(), tt.q, 3, pipeline.AnswerOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkGrounded(t, b.st, ans, 3)
			if ans.NoPassage != tt.decline {
				t.Fatalf("declined %v, want %v: %s %+v", ans.NoPassage, tt.decline, ans.Text, ans.References)
			}
			if tt.cites == nil {
				return
			}
			if !citesAny(ans, tt.cites) {
				t.Errorf("cites none of its theme's teaching: %+v", ans.References)
			}
		})
	}
}

// TestAnswerHubReferences: a question naming God is not answered from
// the themes GOD's two dozen "See" links reach (gate.go, maxSeeThemes):
// PREDESTINATION's Romans 8:28 and Ephesians 1:3-6 for a drinker asking
// whether God can help him stop.
func TestAnswerHubReferences(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := pipeline.NewAnswerer(b.st, b.r, nil)
	q := "i get drunk every weekend and passed out in front of my kids. can god actually help me stop?"
	ans, err := a.Answer(t.Context(), q, 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkGrounded(t, b.st, ans, 3)
	if citesAny(ans, storetest.Verses(t, "Romans 8:28", "Ephesians 1:3-6", "Job 6:13")) {
		t.Errorf("answered from a theme GOD refers to: %+v", ans.References)
	}
}

// TestAnswerAsksParticular: a question asking who did something is
// answered by the verse that names him, though a verse naming people is
// set back for an everyday question.
func TestAnswerAsksParticular(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := pipeline.NewAnswerer(b.st, b.r, nil)
	ans, err := a.Answer(t.Context(), "which prophet went up to heaven in a whirlwind", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkGrounded(t, b.st, ans, 3)
	elijah := storetest.Verses(t, "2 Kings 2:1", "2 Kings 2:11")
	if !citesAny(ans, elijah) {
		t.Errorf("cites %+v, want 2 Kings 2:11", ans.References)
	}
}
