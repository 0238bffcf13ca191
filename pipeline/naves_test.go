package pipeline_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/sword"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store/storetest"
)

func TestNaveRouter(t *testing.T) {
	t.Parallel()
	router := setup(t).router(t)
	cases := []struct {
		query string
		limit int
		topic string // of the first verse
		// has: verses that must be among the results; entry: a sub-entry
		// (full sense) some result must be listed under.
		has      []string
		entry    string
		minScore float64
	}{
		{query: "Who was Ruth?", limit: 10, topic: "RUTH", has: []string{"Ruth 1:4", "Ruth 1:16"}, minScore: 0.99},
		{query: "Who was Melchizedek?", limit: 10, topic: "MELCHIZEDEK", has: []string{"Genesis 14:18", "Psalms 110:4", "Hebrews 7:1"}, minScore: 0.99},
		{query: "What happened at Pentecost?", limit: 10, topic: "PENTECOST", has: []string{"Acts 2:1"},
			entry: "Holy Spirit given to the apostles on the first day of", minScore: 0.5},
		// The sub-entry that accounts for more of the question ranks first.
		{query: "the Holy Spirit at Pentecost", limit: 3, topic: "PENTECOST", has: []string{"Acts 2:1", "Acts 2:2", "Acts 2:3"},
			entry: "Holy Spirit given to the apostles on the first day of", minScore: 0.99},
		// ANXIETY has no verses of its own, only "See CARE".
		{query: "anxiety", limit: 10, topic: "CARE", has: []string{"Psalms 55:22"}, minScore: 0.5},
		// An inverted title is meant by its head alone, in any order.
		{query: "Who was Pilate?", limit: 5, topic: "PILATE, PONTIUS", minScore: 0.99},
		{query: "the Mount of Olives", limit: 5, topic: "OLIVES, MOUNT OF", minScore: 0.99},
		// A rare name outweighs a common theme word: LOVE alone would give
		// Exodus 20:6 first; its entry naming Naomi and Ruth wins.
		{query: "Did Ruth love Naomi?", limit: 5, has: []string{"Ruth 1:1"}, entry: "INSTANCES OF — Naomi, Ruth, and Boaz", minScore: 0.99},
		// "Tell me about" and "biblical" frame a question as "what does
		// the Bible say about" does: the name or theme is all of it.
		{query: "tell me about prayer", limit: 5, topic: "PRAYER", minScore: 0.99},
		{query: "what is biblical faith", limit: 5, topic: "FAITH", minScore: 0.99},
		// STEPHEN's description "(A Christian martyr)" lists no verses:
		// echoing it reaches Stephen's.
		{query: "who was the first christian martyr", limit: 40, has: []string{"Acts 7:59"}, minScore: 0.3},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			got, err := router.Route(context.Background(), c.query, c.limit)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 || len(got) > c.limit {
				t.Fatalf("%d routes, want 1 to %d", len(got), c.limit)
			}
			if c.topic != "" && got[0].Topic != c.topic {
				t.Errorf("first topic %q, want %q: %+v", got[0].Topic, c.topic, got[0])
			}
			if got[0].Score < c.minScore || got[0].Score > 1 {
				t.Errorf("best score %v, want in [%v, 1]", got[0].Score, c.minScore)
			}
			ids := map[corpus.VerseID]bool{}
			entries := map[string]bool{}
			for i, g := range got {
				ids[g.Verse] = true
				entries[g.Entry] = true
				if g.Score <= 0 || g.Score > 1 || i > 0 && g.Score > got[i-1].Score {
					t.Errorf("route %d score %v: scores must be in (0,1], best first", i, g.Score)
				}
			}
			for _, h := range c.has {
				r, err := corpus.ParseReference(h)
				if err != nil {
					t.Fatal(err)
				}
				if !ids[r.First()] {
					t.Errorf("%s not routed: %v", h, describe(got))
				}
			}
			if c.entry != "" && !entries[c.entry] {
				t.Errorf("no route under %q: %v", c.entry, describe(got))
			}
		})
	}
}

// TestNaveRouterNoTopic: questions that name no topic reach nothing, or
// nothing a topic accounts for.
func TestNaveRouterNoTopic(t *testing.T) {
	t.Parallel()
	router := setup(t).router(t)
	for _, q := range []string{"I can do all things", "asdf qwerty", "recommend a good laptop", "", "   ?!"} {
		got, err := router.Route(context.Background(), q, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) > 0 && got[0].Score >= 0.5 {
			t.Errorf("%q routed to %v", q, describe(got))
		}
	}
	if got, _ := router.Route(context.Background(), "Who was Ruth?", 0); len(got) != 0 {
		t.Errorf("limit 0 gave %d routes", len(got))
	}
}

// TestNaveRouterAlternatives: an alternative in a title's parentheses
// names its topic ("LEAVEN (YEAST)"), unless several titles give it, where
// it qualifies them: "(PEOPLE)" of DEAD and WICKED is no name of either.
func TestNaveRouterAlternatives(t *testing.T) {
	t.Parallel()
	router := setup(t).router(t)
	got, err := router.Route(context.Background(), "yeast", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || got[0].Topic != "LEAVEN (YEAST)" || got[0].Score < 0.99 {
		t.Errorf("yeast routed to %v", describe(got))
	}
	got, err = router.Route(context.Background(), "How should I treat other people?", 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range got {
		if strings.HasSuffix(r.Topic, "(PEOPLE)") {
			t.Errorf("people named %s: %v", r.Topic, describe(got))
			break
		}
	}
}

// TestNaveRouterWho: a who-question asks for a person it does not name
// when it names one as the object of what it asks; the person it asks
// about otherwise. The router is the production one (its Entity, Place
// and Noun hooks read the KJV's names and WordNet).
func TestNaveRouterWho(t *testing.T) {
	t.Parallel()
	b := setup(t)
	cases := []struct{ question, topic, entry string }{
		{"Who was the mother of Jesus?", "MARY", "mother of Jesus"},        // not JESUS' "mother-in-law"
		{"Who baptized Jesus?", "JOHN", "Baptizes Jesus"},                  // not JESUS' baptism
		{"Who betrayed Jesus?", "JUDAS (JUDE)", "Betrays the Lord Jesus"},  // not GETHSEMANE's "Jesus betrayed in"
		{"Who was Abraham's wife?", "SARAH", "Wife of Abraham"},            // a possessor is an object
		{"Who was thrown into the lions' den?", "DANIEL", "lions' den"},    // no name: not DENS or LION
		{"Who was King Hezekiah?", "HEZEKIAH", ""},                         // after a noun, the name is asked about
		{"Who is the Holy Spirit and what does he do?", "HOLY SPIRIT", ""}, // a title of two words is the subject
		{"Who did Moses marry?", "MOSES", "marries his daughter Zipporah"}, // after "did" the name is the subject: its entries stay
		{"Who was Solomon's father?", "SOLOMON", ""},                       // not PHARAOH's "Father-in-law of Solomon", nor ABINADAB's "Father of one of Solomon's purveyors"
		{"Who built the ark?", "NOAH", "Builds an ark"},                    // "built" is WordNet's form of "build"; not ARK's title
		{"Who was Samuel's mother?", "HANNAH", "Samuel born to"},           // HANNAH's "(The mother of Samuel)" lists no verses: her entries answer, those naming Samuel first
		{"Who was the first Christian martyr?", "STEPHEN", ""},             // a name before a noun qualifies it; STEPHEN's "(A Christian martyr)" is said of him, not of CHRISTIAN
		{"who was moses wife", "ZIPPORAH", "Wife of Moses"},                // a possessor without its apostrophe
		{"Who were the Pharisees?", "PHARISEES", "A sect of the Jews"},     // after a form of "be" and an article the name is asked about, no object
		// A where-question asks for a place the same way.
		{"Where did Noah's ark come to rest?", "ARARAT", "came to rest"},                        // not NOAH's "Builds an ark"
		{"Where did Lazarus live?", "BETHANY", "Lazarus dwell at"},                              // "live" is WordNet's synonym of "dwell"
		{"Where did Jonah try to flee to?", "TARSHISH", "Jonah would flee to"},                  // WordNet knows no Tarshish: its entry ends "to"
		{"Where was Jesus born?", "BETHLEHEM", "Birthplace of Jesus"},                           // WordNet defines "birthplace" as "the place where someone was born"; not JOSEPH's "Jesus born to", a person's
		{"Where was Paul shipwrecked?", "MELITA (MALTA)", "shipwrecked"},                        // the KJV writes Melita once, no name by its capitals; MALTA is WordNet's place
		{"Where did Jesus meet the woman at the well?", "JESUS, THE CHRIST", "Samaritan woman"}, // not SIDON's "People of, come to hear Jesus": "come across" of "meet" is no "come"
		// A what-happened question no entry answers in its words reads
		// WordNet's relatives: "baptism" derives "baptize".
		{"What happened at the baptism of Jesus?", "JOHN", "Baptizes Jesus"},                                                 // not the BAPTISM hub's Acts 2:38
		{"What happened to Saul on the road to Damascus?", "JESUS, THE CHRIST", "Appears to Paul (on the road to Damascus)"}, // answered in its words: the relatives of "road" are not read
	}
	for _, c := range cases {
		got, err := b.r.Router.Route(b.ctx, c.question, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 || got[0].Topic != c.topic || !strings.Contains(got[0].Entry, c.entry) {
			t.Errorf("%q routed to %v, want %s %q", c.question, describe(got), c.topic, c.entry)
		}
	}
}

// TestNaveRouterSeeHeadings: the entries Nave's nests under a "See" line
// do not hold the name it refers to. EGYPT lists dozens under "See
// JOSEPH"; read as naming him, they filled the routes of "Who was Joseph
// in Egypt?" and his own entries were cut.
func TestNaveRouterSeeHeadings(t *testing.T) {
	t.Parallel()
	b := setup(t)
	got, err := b.r.Router.Route(b.ctx, "Who was Joseph in Egypt?", 10)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(got, func(r pipeline.Routed) bool { return r.Topic == "JOSEPH" && strings.Contains(r.Entry, "Egypt") }) ||
		slices.ContainsFunc(got, func(r pipeline.Routed) bool { return strings.Contains(r.Entry, "See JOSEPH") }) {
		t.Errorf("routed to %v, want JOSEPH's entries naming Egypt, none under EGYPT's \"See JOSEPH\"", describe(got))
	}
}

// TestNaveRouterSpelling: Nave's spells as Americans do; a word it never
// uses that WordNet gives its spelling of routes as that does. The bare
// router, without WordNet, does not.
func TestNaveRouterSpelling(t *testing.T) {
	t.Parallel()
	b := setup(t)
	checkWordNetRoutes(t, b, "spellings", map[string]string{
		"how can I be a good neighbour to people like that": "NEIGHBOR",
		"our neighbours are loud and rude":                  "NEIGHBOR", // an inflection, read by its term
		"Put on the whole armour of God":                    "ARMOR",
		"what is the judgement":                             "JUDGMENT",
	})
}

// TestNaveRouterLigature: a name as the KJV writes it, with its "æ"
// (what respell.go gives "zaccheus"), routes to the topic Nave's titles
// with "ae"; it reached none.
func TestNaveRouterLigature(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for q, topic := range map[string]string{
		"who was Zacchæus":  "ZACCHAEUS (ZACCHEUS)",
		"who was zacchaeus": "ZACCHAEUS (ZACCHEUS)",
		"who was Thaddæus":  "THADDAEUS",
	} {
		got, err := b.r.Router.Route(b.ctx, q, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 || got[0].Topic != topic {
			t.Errorf("%q routed to %v, want %s", q, describe(got), topic)
		}
	}
}

// checkWordNetRoutes checks that each question routes first to its
// topic with the router as the worker wires it, and not with the bare
// router, which lacks what WordNet gives it (what).
func checkWordNetRoutes(t *testing.T, b bundle, what string, cases map[string]string) {
	t.Helper()
	bare := b.router(t)
	for q, topic := range cases {
		got, err := b.r.Router.Route(b.ctx, q, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 || got[0].Topic != topic {
			t.Errorf("%q routed to %v, want %s", q, describe(got), topic)
		}
		got, err = bare.Route(b.ctx, q, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) > 0 && got[0].Topic == topic {
			t.Errorf("%q routed to %s without WordNet's %s: the case shows nothing", q, topic, what)
		}
	}
}

// TestNaveRouterSynonyms: a question naming a topic by a WordNet synonym
// of its title (titleSynonyms) routes as the title does; the bare
// router, without WordNet, does not. A capitalised synonym of a word the
// KJV writes as no name (WordNet's only Amen is the Egyptian god) names
// nothing.
func TestNaveRouterSynonyms(t *testing.T) {
	t.Parallel()
	b := setup(t)
	checkWordNetRoutes(t, b, "synonyms", map[string]string{
		"what does the bible say about obesity": "CORPULENCY",
		"can we agree to an armistice":          "TRUCE",
		"Who was Saint Jude?":                   "THADDAEUS",
		"when is lying under oath forgiven":     "PERJURY",
	})
	got, err := b.r.Router.Route(b.ctx, "who was amun", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) > 0 && got[0].Topic == "AMEN" {
		t.Errorf("\"who was amun\" routed to AMEN: %v", describe(got))
	}
}

func describe(rs []pipeline.Routed) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString(r.Verse.String() + " " + r.Topic + " / " + r.Entry + "; ")
	}
	return b.String()
}

// TestAskNamesTopic asks through the Answerer with the router as the
// worker wires it: people and events are answered from the passages
// Nave's lists for them.
func TestAskNamesTopic(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.answerer(nil)
	a.Router = b.router(t)
	cases := []struct {
		question string
		cite     []string // one of these chapters cited
	}{
		{"Who was Melchizedek?", []string{"Hebrews 7", "Genesis 14", "Hebrews 5", "Psalms 110"}},
		{"What happened at Pentecost?", []string{"Acts 2"}},
	}
	for _, c := range cases {
		t.Run(c.question, func(t *testing.T) {
			ans, err := a.Answer(context.Background(), c.question, 3, pipeline.AnswerOptions{Extractive: true})
			if err != nil {
				t.Fatal(err)
			}
			checkGrounded(t, b.st, ans, 3)
			var cited []string
			ok := false
			for _, r := range ans.References {
				ch := r.Book + " " + strconv.Itoa(r.Chapter)
				cited = append(cited, r.Reference)
				ok = ok || slices.Contains(c.cite, ch)
			}
			if !ok {
				t.Errorf("cited %q, want one of %q", cited, c.cite)
			}
		})
	}
}

// benchRouter is built once from the module for the benchmark.
var benchRouter = sync.OnceValues(func() (*pipeline.NaveRouter, error) {
	l, err := sword.OpenLexicon(storetest.SwordDir, "Nave")
	if err != nil {
		return nil, err
	}
	topics, _, err := l.NaveTopics()
	if err != nil {
		return nil, err
	}
	return pipeline.NewNaveRouter(topics, pipeline.KeyPassages()), nil
})

// BenchmarkNaveRoute measures one routing, over a mix of questions that
// name a topic, echo entries, and name nothing.
func BenchmarkNaveRoute(b *testing.B) {
	r, err := benchRouter()
	if err != nil {
		b.Fatal(err)
	}
	queries := []string{"Who was Melchizedek?", "What happened at Pentecost?", "anxiety",
		"what does God say about love and forgiveness", "I can do all things", "treat others the way you want to be treated"}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := r.Route(ctx, queries[i%len(queries)], 20); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRouteQuestionFrame: the words that frame a question ("what does the
// Bible say about") name no topic: the question's subject does.
func TestRouteQuestionFrame(t *testing.T) {
	t.Parallel()
	b := setup(t)
	routed, err := b.r.Router.Route(b.ctx, "What does the Bible say about money?", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(routed) == 0 || routed[0].Topic != "MONEY" {
		t.Errorf("routed %+v, want MONEY first", routed)
	}
}

// TestNamesEntity: a topic titled by a word the KJV writes as a name is an
// entity; one titled by a common word is a theme.
func TestNamesEntity(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for title, want := range map[string]bool{
		"RUTH": true, "MELCHIZEDEK": true, "PENTECOST": true, "JESUS, THE CHRIST": true, "JERUSALEM": true,
		"LOVE": false, "FAITH": false, "FRUITS": false, "MONEY": false, "ANGEL (A SPIRIT)": false,
		// A name in too many verses to be a question's subject.
		"GOD": false,
	} {
		if got := pipeline.NamesEntity(b.r, title); got != want {
			t.Errorf("%s: entity %v, want %v", title, got, want)
		}
	}
}

// TestNaveRouterSections: of a theme's entries that a question matches
// equally, Nave's teaching sections (capitals) come before its notes; a
// person's entries keep Nave's order, which tells the life in sequence.
func TestNaveRouterSections(t *testing.T) {
	t.Parallel()
	b := setup(t)
	themes := b.router(t)
	got, err := themes.Route(b.ctx, "children", 60)
	if err != nil || len(got) == 0 {
		t.Fatalf("routes %v, %v", got, err)
	}
	// The theme's key passages come first, then its sections.
	if !got[0].Key || got[0].Topic != "CHILDREN" {
		t.Errorf("children: first route %+v, want one of CHILDREN's key passages", got[0])
	}
	i := slices.IndexFunc(got, func(r pipeline.Routed) bool { return !r.Key })
	if i < 0 || slices.ContainsFunc(got[i:], func(r pipeline.Routed) bool { return r.Key }) {
		t.Fatalf("children: key passages not all first: %v", describe(got))
	}
	if own := got[i].Entry; own == "" || strings.ToUpper(own) != own {
		t.Errorf("children: first entry %q, want one of CHILDREN's sections in capitals", own)
	}
	if got, _ := themes.Route(b.ctx, "Who was Paul?", 1); len(got) != 1 || got[0].Entry != "PERSECUTIONS ENDURED BY" {
		t.Fatalf("Paul as a theme: %+v, want his section PERSECUTIONS ENDURED BY first", got)
	}
	people := b.router(t)
	people.Entity = func(title string) bool { return title == "PAUL" }
	got, err = people.Route(b.ctx, "Who was Paul?", 1)
	if err != nil || len(got) != 1 {
		t.Fatalf("routes %v, %v", got, err)
	}
	if got[0].Entry == "PERSECUTIONS ENDURED BY" {
		t.Errorf("Paul as a person: first entry %q, want Nave's first", got[0].Entry)
	}
}

// TestNaveRouterKeys: a theme's key passages (corpus/topics keys) are its
// first routes, in the order given, each passage's first verse before the
// rest of any; a sub-entry that matches more of the question still comes
// first; a person's topic gets none; and Listed never names a topic for a
// verse Nave's does not list under it.
func TestNaveRouterKeys(t *testing.T) {
	t.Parallel()
	ref, span := refParsers(t)
	topics := []corpus.NaveTopic{
		{Title: "CARE", Entries: []corpus.NaveEntry{
			{Parent: -1, Phrase: "WORLDLY", Verses: []corpus.VerseSpan{span("Psalms 39:6"), span("Luke 21:34")}},
			{Parent: -1, Phrase: "Of the poor", Verses: []corpus.VerseSpan{span("Psalms 41:1")}},
		}},
		{Title: "ANXIETY", Entries: []corpus.NaveEntry{{Parent: -1, See: []string{"CARE"}}}},
		{Title: "PAUL", Entries: []corpus.NaveEntry{{Parent: -1, Phrase: "Called", Verses: []corpus.VerseSpan{span("Acts 9:4")}}}},
	}
	keys := map[string][]corpus.Reference{
		"CARE": {ref("Philippians 4:6-7"), ref("1 Peter 5:7")},
		"PAUL": {ref("Acts 9:15")},
	}
	r := pipeline.NewNaveRouter(topics, keys)
	r.Entity = func(title string) bool { return title == "PAUL" }
	ctx := context.Background()
	verses := func(rs []pipeline.Routed) []string {
		var out []string
		for _, x := range rs {
			out = append(out, x.Verse.String())
		}
		return out
	}
	got, err := r.Route(ctx, "anxiety", 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Philippians 4:6", "1 Peter 5:7", "Philippians 4:7"}
	if len(got) < 4 || !slices.Equal(verses(got[:3]), want) || !got[0].Key || got[3].Key || got[0].Topic != "CARE" {
		t.Errorf("anxiety: %v, want the key passages %v first, then Nave's", describe(got), want)
	}
	got, _ = r.Route(ctx, "the care of the poor", 10)
	if len(got) == 0 || got[0].Verse.String() != "Psalms 41:1" {
		t.Errorf("the care of the poor: %v, want the entry it names first", describe(got))
	}
	got, _ = r.Route(ctx, "Paul", 10)
	if slices.ContainsFunc(got, func(x pipeline.Routed) bool { return x.Key }) {
		t.Errorf("Paul, a person: %v, want no key passages", describe(got))
	}
	if l := r.Listed(ref("Philippians 4:6").First()); len(l) != 0 {
		t.Errorf("Listed(Philippians 4:6) = %v: Nave's lists it nowhere here", describe(l))
	}
	if l := r.Listed(ref("Luke 21:34").First()); len(l) != 1 || l[0].Entry != "WORLDLY" {
		t.Errorf("Listed(Luke 21:34) = %v, want CARE / WORLDLY", describe(l))
	}
}

// TestNaveRouterTeaching: a theme's teaching is its key passages, then
// its sections' verses (no notes, no instances); a topic's "See" links
// are read whether or not it lists verses itself (LYING lists "Lying
// spirit from God" and refers to FALSEHOOD), and a link to a section of
// a topic is no reference to the topic.
func TestNaveRouterTeaching(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := b.router(t)
	if see := pipeline.SeeAlso(r, "LYING"); !slices.Contains(see, "FALSEHOOD") {
		t.Errorf("LYING refers to %v, want FALSEHOOD among them", see)
	}
	// "See GOVERNMENT, GOD IN" refers to a section, not to government
	// at large; "See WORKS" to the topic.
	if see := pipeline.SeeAlso(r, "GOD"); slices.Contains(see, "GOVERNMENT") || !slices.Contains(see, "WORKS") {
		t.Errorf("GOD refers to %v, want WORKS and not GOVERNMENT among them", see)
	}
	if see := pipeline.SeeAlso(r, "NO SUCH TOPIC"); see != nil {
		t.Errorf("no topic refers to %v", see)
	}
	got := pipeline.Teaching(r, "FALSEHOOD")
	if len(got) == 0 || !got[0].Key || got[0].Verse != storetest.Verses(t, "Exodus 20:16")[0] {
		t.Fatalf("FALSEHOOD's teaching starts %+v, want its first key passage, Exodus 20:16", got[:min(1, len(got))])
	}
	keys := true
	for _, x := range got {
		if x.Topic != "FALSEHOOD" || !x.Section {
			t.Fatalf("teaching holds %+v: not a section of FALSEHOOD", x)
		}
		if !x.Key {
			keys = false
		} else if !keys {
			t.Fatalf("key passage %+v after a section's verse", x)
		}
	}
	if keys {
		t.Error("FALSEHOOD's teaching has no section verses")
	}
	if got := pipeline.Teaching(r, "NO SUCH TOPIC"); got != nil {
		t.Errorf("no topic teaches %+v", got)
	}
}

// TestNaveRouterBearers: a name several people bore (Nave's numbers them)
// is routed to the one Scripture says most of first, and /ask speaks of
// that one only, not of every Naaman at once.
func TestNaveRouterBearers(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := b.router(t)
	r.Entity = func(title string) bool { return pipeline.NamesEntity(b.r, title) }
	for q, want := range map[string]string{
		"who was Naaman": "4. A Syrian general, healed of leprosy by Elisha",
		"Who was Enoch":  "3. Father of Methuselah. Transporting of",
	} {
		rs, err := r.Route(t.Context(), q, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) == 0 || !strings.HasPrefix(rs[0].Entry, want) {
			t.Errorf("%s: first route %+v, want the entry %q", q, rs[:min(1, len(rs))], want)
		}
	}
	a := b.answerer(nil)
	ans, err := a.Answer(t.Context(), "who was Naaman", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ans.Text, "Syrian") || strings.Contains(ans.Text, "Benjamin") {
		t.Errorf("Naaman: %q, want the Syrian general alone", ans.Text)
	}
}

// TestNaveRouterRelatedWords: a named topic's entries are ordered counting
// the words WordNet relates to the question's: "calmed the storm" is the
// entry that "quiets the squall" (calm, quiet); the router of b.r is the
// production one, whose Expand is WordNet. (Another topic's entry holding
// the question's words, SEA's "Lake Galilee calmed by Jesus", may come
// before the named topic's: a what-happened echo.)
func TestNaveRouterRelatedWords(t *testing.T) {
	t.Parallel()
	b := setup(t)
	const q = "What happened when Jesus calmed the storm?"
	firstOfJesus := func(rs []pipeline.Routed) pipeline.Routed {
		i := slices.IndexFunc(rs, func(r pipeline.Routed) bool { return r.Topic == "JESUS, THE CHRIST" })
		if i < 0 {
			return pipeline.Routed{}
		}
		return rs[i]
	}
	rs, err := b.r.Router.Route(t.Context(), q, 30)
	if err != nil {
		t.Fatal(err)
	}
	if r := firstOfJesus(rs); !strings.Contains(r.Entry, "quiets the squall") {
		t.Errorf("JESUS' first route %+v, want his entry on quieting the squall", r)
	}
	// Without the relations, the name alone ranks JESUS' entries in
	// Nave's order.
	plain := b.router(t)
	plain.Entity = func(title string) bool { return pipeline.NamesEntity(b.r, title) }
	if rs, err = plain.Route(t.Context(), q, 30); err != nil {
		t.Fatal(err)
	}
	if r := firstOfJesus(rs); strings.Contains(r.Entry, "quiets the squall") {
		t.Errorf("without Expand JESUS' first route is %+v: the test shows nothing", r)
	}
}

// TestNaveRouterSeeSection: a topic that refers to a section of a name's
// topic ("PARABLES: See JESUS, PARABLES OF", the link on the head of the
// title alone) routes a question naming it to that section's entries, as
// an alias does, and to no other section of the name's.
func TestNaveRouterSeeSection(t *testing.T) {
	t.Parallel()
	ref, span := refParsers(t)
	entry := func(parent int, phrase, verses string) corpus.NaveEntry {
		e := corpus.NaveEntry{Parent: parent, Phrase: phrase}
		if verses != "" {
			e.Verses = []corpus.VerseSpan{span(verses)}
		}
		return e
	}
	topics := []corpus.NaveTopic{
		{Title: "PARABLES", Entries: []corpus.NaveEntry{
			entry(-1, "Of the trees", "Judges 9:8-15"),
			{Parent: -1, Phrase: "See JESUS, PARABLES OF", See: []string{"JESUS"}},
		}},
		{Title: "JESUS, THE CHRIST", Entries: []corpus.NaveEntry{
			entry(-1, "HISTORY OF", ""),
			entry(0, "Born in Bethlehem", "Luke 2:4-7"),
			entry(-1, "PARABLES OF", ""),
			entry(2, "The Good Samaritan", "Luke 10:30-37"),
			entry(2, "The sower", "Matthew 13:3-8"),
			entry(-1, "MIRACLES OF", ""),
			entry(5, "Water made wine", "John 2:1-11"),
		}},
	}
	// Key passages come before a topic's entries in the router: the
	// section's entries are found past them.
	keys := map[string][]corpus.Reference{"JESUS, THE CHRIST": {ref("Matthew 1:21")}}
	r := pipeline.NewNaveRouter(topics, keys)
	r.Entity = func(title string) bool { return title == "JESUS, THE CHRIST" }
	ctx := context.Background()

	got, err := r.Route(ctx, "what is the parable of the good samaritan about", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || got[0].Topic != "JESUS, THE CHRIST" || got[0].Entry != "PARABLES OF — The Good Samaritan" ||
		got[0].Verse != ref("Luke 10:30").First() {
		t.Fatalf("first route %+v, want Luke 10:30 under JESUS, THE CHRIST's PARABLES OF — The Good Samaritan: %v", got, describe(got))
	}
	got, err = r.Route(ctx, "the parable of the water made wine", 20)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range got {
		if g.Topic == "JESUS, THE CHRIST" && !strings.HasPrefix(g.Entry, "PARABLES OF") {
			t.Errorf("routed to %q, outside the section PARABLES refers to", g.Entry)
		}
	}

	// A theme's section is not followed (the theme's own teaching speaks
	// for it, Answerer.theme): the entry is reached only by echoing its
	// phrase, below the topic the question names.
	r.Entity = nil
	got, err = r.Route(ctx, "what is the parable of the good samaritan about", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || got[0].Topic != "PARABLES" {
		t.Fatalf("a theme's section followed: %v", describe(got))
	}
}

// refParsers returns parsers of a reference and of the verse span it
// covers that fail t on a bad one, for building Nave's topics in a test.
func refParsers(t *testing.T) (ref func(string) corpus.Reference, span func(string) corpus.VerseSpan) {
	ref = func(s string) corpus.Reference {
		r, err := corpus.ParseReference(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	span = func(s string) corpus.VerseSpan {
		r := ref(s)
		return corpus.VerseSpan{First: r.First(), Last: r.Last()}
	}
	return ref, span
}
