package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/store"
)

// Answer is a concise answer grounded in cited KJV verses. Text, Summary
// and References are what the public API shows; the other fields are for
// logs and storage and never leave the service.
type Answer struct {
	Text       string
	Summary    string
	References []Reference
	// Words are the Strong's entries a word-meaning question asked about
	// (lexicon.go); nil for any other question.
	Words []api.WordEntry

	// Generator wrote Text: GeneratorOpenAI, GeneratorExtractive, or
	// GeneratorNone when no relevant passage was found.
	Generator string
	// Fallback is set when the configured generator failed or its draft
	// was not grounded, and the extractive answer replaced it;
	// FallbackReason says why.
	Fallback       bool
	FallbackReason string
	// NoPassage is set when retrieval found nothing that speaks to the
	// question: Text says so and there are no references.
	NoPassage bool
	// Retrieved are the candidate verses the generator was given, best
	// first.
	Retrieved []corpus.VerseID

	// gate is what the theme gate weighed, for FitThemeGate.
	gate *gateSample
	// themes is the theme path's pool when AnswerOptions.themes asked for
	// it: nil when the question took no theme path (it names a person or
	// place, or no theme).
	themes *themeResult
}

// Reference is one cited passage: a verse or a run of adjacent verses of
// one chapter, with its KJV text from the database, as the API serves it
// (api.Cite is its one constructor), and the verses it covers.
type Reference struct {
	api.CitedPassage
	ref corpus.Reference
}

// VerseIDs returns the verses the reference covers.
func (r Reference) VerseIDs() []corpus.VerseID { return r.ref.VerseIDs() }

// AnswerOptions adjust one Answer call.
type AnswerOptions struct {
	// Extractive answers with the offline composer whatever is
	// configured: test keys and the website's anonymous Ask use it.
	Extractive bool
	// Context are the earlier turns of a conversation, oldest first: a
	// follow-up question is retrieved with their subject (followup.go).
	Context []Turn

	// themes asks for the teaching of every theme the question reaches,
	// kept on the Answer for ThemeReach (EvaluateAsk).
	themes bool
	// unquoted answers a question about a quotation as any other
	// question (quote.go).
	unquoted bool
	// unreasoned answers a why-question as any other question (why.go).
	unreasoned bool
	// unwhen answers a when-question as any other question (when.go).
	unwhen bool
	// unkinned answers a family question as any other question (kin.go).
	unkinned bool
	// unfated answers a question about a person's end as any other
	// question (fate.go).
	unfated bool
	// unnamed answers a question asking to explain a named work as any
	// other question (named.go).
	unnamed bool
}

// declined is the answer when no passage speaks to the question, with
// the gate samples and themes of more, the question's answer as any
// other (kin.go, fate.go).
func declined(more Answer) Answer {
	return Answer{Text: NoPassageText, Summary: NoPassageSummary, Generator: GeneratorNone, NoPassage: true,
		References: []Reference{}, gate: more.gate, themes: more.themes}
}

// keyCandidate appends verse id to cands as a key candidate, once: the
// verses an answer path states come first, in its order.
func (r *Retriever) keyCandidate(cands []Candidate, id corpus.VerseID) []Candidate {
	if v, ok := r.Verse(id); ok && !slices.ContainsFunc(cands, func(c Candidate) bool { return c.Verse.ID == id }) {
		cands = append(cands, Candidate{N: len(cands) + 1, Verse: v, Evidence: 1, Key: true})
	}
	return cands
}

// keyCandidates are ids as key candidates, in order, each once.
func (r *Retriever) keyCandidates(ids []corpus.VerseID) []Candidate {
	var cands []Candidate
	for _, id := range ids {
		cands = r.keyCandidate(cands, id)
	}
	return cands
}

// DefaultAskCandidates is how many retrieved verses the generator sees
// when Answerer.Candidates is 0. The question's and references' bounds are
// the API's, selah.CheckAsk.
const DefaultAskCandidates = 10

// The answer given when no passage speaks to the question.
const (
	NoPassageText    = "I could not find a passage in the King James Bible that speaks to this question."
	NoPassageSummary = "No passage of the King James Bible was found that speaks to this question."
)

// Answerer answers questions from the KJV: it retrieves candidate verses,
// judges whether any is relevant, has the generator draft an answer,
// grounds the draft (ground.go) and falls back to the extractive answer
// when the draft fails. It is safe for concurrent use; set Candidates
// before the first Answer.
type Answerer struct {
	st *store.Store
	r  *Retriever
	g  Generator

	// Candidates is how many retrieved verses the generator sees (0:
	// DefaultAskCandidates).
	Candidates int
	// Router, when set, brings the verses of the Nave's topics a question
	// names as another source of candidates (answer_route.go); their
	// sub-entries become the composer's sentences (compose.go).
	Router TopicRouter
	// Observe, when set, is told how long each generation took and whether
	// it failed (an error or an ungrounded draft), by generator name.
	Observe func(stage, impl string, d time.Duration, failed bool)
}

// NewAnswerer returns an answerer over st's verses; g nil is the
// extractive generator.
func NewAnswerer(st *store.Store, r *Retriever, g Generator) *Answerer {
	if g == nil {
		g = Composer{}
	}
	a := &Answerer{st: st, r: r, g: g}
	if r != nil && r.Router != nil {
		a.Router = r.Router
	}
	return a
}

// GeneratorName names the configured generator.
func (a *Answerer) GeneratorName() string { return a.g.Name() }

// Answer answers question with at most maxRefs references (0:
// selah.DefaultMaxReferences, as the API). A failing or ungrounded generator is not an error: the
// extractive answer stands in. Errors are an invalid request
// (selah.EINVALID), an unreachable embedder
// (selah.EEMBEDDERUNAVAILABLE), the database, or ctx ending.
func (a *Answerer) Answer(ctx context.Context, question string, maxRefs int, opts AnswerOptions) (Answer, error) {
	maxRefs = cmp.Or(maxRefs, selah.DefaultMaxReferences)
	question, err := selah.CheckAsk(question, maxRefs)
	if err != nil {
		return Answer{}, err
	}
	if ask, ok := writerQuestion(question); ok && len(opts.Context) == 0 {
		// "Who wrote Romans?" is answered from the book's opening, which
		// names its writer or does not (writer.go); "Who wrote Psalm 23?"
		// asks that of the psalm, not what it says.
		q, ok := a.writerQuestionFor(question, ask, maxRefs)
		if !ok {
			return Answer{Text: NoPassageText, Summary: NoPassageSummary, Generator: GeneratorNone, NoPassage: true,
				References: []Reference{}}, nil
		}
		return a.write(ctx, q, Answer{}, opts.Extractive)
	}
	runs, rest := askedPassages(question, maxRefs)
	if len(runs) == 0 {
		// A book's name misspelt ("phillipians 4:13") names the passage
		// all the same (respell.go); its numerals are kept as typed.
		if respelt := a.r.respellWords(question); respelt != question {
			runs, rest = askedPassages(respelt, maxRefs)
		}
	}
	if len(runs) == 0 {
		runs, rest = contextPassages(question, opts.Context, maxRefs)
	}
	if len(runs) > 0 {
		// The passage a question names is what it asks about
		// (passage.go), whatever else it says; in a conversation, a
		// verse or chapter of the passage last cited ("and verse 17?").
		return a.answerPassages(ctx, question, rest, runs, maxRefs, opts.Extractive)
	}
	book, ok := summaryQuestion(question)
	if !ok {
		// "ecclesiates main message": a misspelt book's name (respell.go).
		book, ok = summaryQuestion(a.r.respellWords(question))
	}
	if ok {
		// "What is the book of Ruth about?", "summarize romans": the
		// book's most-cited passages and what Nave's says they are
		// (summary.go).
		ans, ok, err := a.summary(ctx, question, book, maxRefs, opts)
		if err != nil || ok {
			return ans, err
		}
	}
	work, framed := namedWork(question)
	if len(opts.Context) == 0 && a.r.outsideKJV(question, work, framed) {
		// "What is the Gospel of Judas about?": a work the KJV does not
		// hold (named.go).
		return declined(Answer{}), nil
	}
	if len(opts.Context) == 0 {
		// "What is the Great Commission?", "where are the beatitudes": a
		// name the KJV never writes, answered from the passages it names
		// (nickname.go).
		nick, ok := a.r.nicknamed(question)
		if !ok {
			// "the benedictus" is no misspelt "benedicts"; "jonahs
			// prayer" may be a misspelt name.
			nick, ok = a.r.nicknamed(a.r.respellWords(question))
		}
		if ok {
			return a.cited(ctx, question, nick.Name, nick.References(), maxRefs, opts.Extractive)
		}
	}
	if framed && len(opts.Context) == 0 && !opts.unnamed {
		// "Summarize the Sermon on the Mount", "explain the golden
		// rule": asked plainly when Nave's names the work (named.go).
		plain, named, err := a.plainNamed(ctx, work)
		if err != nil {
			return Answer{}, err
		}
		if named {
			inner := opts
			inner.unnamed = true
			return a.Answer(ctx, plain, maxRefs, inner)
		}
	}
	if len(opts.Context) == 0 {
		// "a good verse for a wedding card": the key passages of the
		// theme the occasion is about (offer.go).
		if theme, ok := a.r.offeredTheme(a.r.respellWords(question)); ok {
			return a.offered(ctx, question, theme, maxRefs, opts.Extractive)
		}
	}
	if words, ok := quotationQuestion(question); ok && len(opts.Context) == 0 && !opts.unquoted {
		// "Who said am I my brother's keeper?", "what verse says pride
		// comes before a fall": the verses holding the words, and who
		// speaks them (quote.go); words no verse quotes are asked as any
		// question.
		ans, ok, err := a.quotation(ctx, question, words, maxRefs, opts)
		if err != nil || ok {
			return ans, err
		}
	}
	if ask, ok := wordQuestion(question); ok && len(opts.Context) == 0 {
		// A question asking what a word means ("What does agape mean?",
		// "What is the Greek word for love?") is answered from Strong's
		// dictionary and the verses translating the word (lexicon.go);
		// a word the lexicon does not know is searched as any question.
		if q, ok := a.wordQuestionFor(question, ask, maxRefs); ok {
			return a.write(ctx, q, Answer{Words: wordEntries(q.Words)}, opts.Extractive)
		}
	}
	if sides, ok := comparison(question); ok && len(opts.Context) == 0 {
		// "What is the difference between grace and mercy?" asks what
		// each is (compare.go).
		ans, ok, err := a.compare(ctx, sides, maxRefs, opts)
		if err != nil || ok {
			return ans, err
		}
	}
	if event, ok := reasonQuestion(question); ok && len(opts.Context) == 0 && !opts.unreasoned {
		// "Why did God flood the earth?", "how come Uzziah got leprosy":
		// the verse giving the reason for the event (why.go); where none
		// near it gives one, the question is answered as any other.
		ans, ok, err := a.reason(ctx, question, a.r.Respell(event), maxRefs, opts)
		if err != nil || ok {
			return ans, err
		}
	}
	if ask, ok := a.r.kinQuestion(a.r.respellWords(question)); ok && len(opts.Context) == 0 && !opts.unkinned {
		// "Who was King David's father?", "whose son was Gideon": the
		// relation as Nave's states it (kin.go); a relation Nave's does
		// not state is answered as any other question.
		ans, ok, err := a.kin(ctx, question, ask, maxRefs, opts)
		if err != nil || ok {
			return ans, err
		}
	}
	if ask, ok := a.r.fateQuestion(a.r.respellWords(question)); ok && len(opts.Context) == 0 && !opts.unfated {
		// "How did King Saul die?", "where was Sarah buried": the
		// person's Nave's entry telling it, narrowed to the verses
		// saying it (fate.go); where neither Nave's nor the KJV tells
		// it, the question is answered as any other.
		ans, ok, err := a.fate(ctx, question, ask, maxRefs, opts)
		if err != nil || ok {
			return ans, err
		}
	}
	if ask, ok := whenQuestion(question); ok && len(opts.Context) == 0 && !opts.unwhen {
		// "When was Jesus born?", "what hour did jesus die": the verse
		// stating the event's time (when.go); where none near it states
		// one, the question is answered as any other.
		ask.Event = a.r.Respell(ask.Event)
		ans, ok, err := a.when(ctx, question, ask, maxRefs, opts)
		if err != nil || ok {
			return ans, err
		}
	}
	// A misspelt name is read as the name for everything below: the
	// search, the router, the hubs and a follow-up's subject.
	typed := question
	question = a.r.Respell(question)
	// Twice as many candidates as references asked for, so that a
	// composer has relevant passages to fill maxReferences with.
	n := max(cmp.Or(a.Candidates, DefaultAskCandidates), 2*maxRefs)
	// A follow-up is searched with its conversation's subject, widely, and
	// focused on the subject before the candidates are cut to n.
	fu := resolveFollowUp(question, opts.Context)
	jesus := asksJesusWords(question, a.r.Speech)
	query, limit := fu.Query, n
	// A question asking whether the Bible speaks of a thing ("does the
	// bible mention unicorns", "is tithing biblical") is about the thing
	// (exists.go); the generator still reads the question whole.
	exists := false
	if fu.Subject == "" && len(opts.Context) == 0 {
		var thing string
		if thing, exists = existenceSubject(question); exists {
			query = a.knownAlternatives(thing)
		}
	}
	if fu.Subject != "" || jesus {
		limit = max(n, DefaultCandidates)
	}
	if jesus {
		// Jesus is the speaker of such a question, not its subject: it is
		// searched and routed without his name ("What did Jesus say about
		// worry?" is about worry; the verses naming Jesus are narrative,
		// and the topic JESUS, THE CHRIST is his life).
		query = withoutSpeaker(query)
	}
	if fu.Subject == "" {
		// A question asking whether its subject is a sin ("Is worrying a
		// sin?") is searched for its subject: the verses holding "sin"
		// speak of sin at large (predicate.go).
		query = a.subject(query)
	}
	v := voice{jesus: jesus}
	if jesus && fu.Subject == "" && len(opts.Context) == 0 && asksOccasion(question) {
		// "What did Jesus say to the woman at the well?": his words
		// where Nave's tells the occasion (occasion.go).
		asked := withoutSpeaker(question)
		rv := a.r.newRelevance(asked)
		said, told, err := a.occasion(ctx, question, rv)
		if err != nil {
			return Answer{}, err
		}
		if len(said) > 0 {
			return a.occasionAnswer(ctx, asked, rv, said, told, maxRefs, opts.Extractive)
		}
	}
	if !jesus {
		if b, rest, ok := bookAsked(query, a.r.Speech); ok {
			// So is a book ("What does Proverbs say about fools?"): its
			// name would route to the topic PROVERBS, and "James" to the
			// apostle. It is searched more widely still (bookCandidates),
			// and answered from its own verses alone: a book's few verses
			// on a theme rank below the many elsewhere ("what does isaiah
			// say about the messiah": the word is Daniel's and John's).
			v.books, query, limit = []int{b.Number}, rest, max(n, bookCandidates)
		} else if books, rest, ok := writerAsked(query, a.r.writers, a.r.Speech); ok {
			// A letters' writer likewise ("What did Paul say about love?"
			// cited Philemon 1:8-9, "though I might be much bold in Christ").
			v.books, query, limit = books, rest, max(n, bookCandidates)
		}
	}
	res, err := a.r.Search(ctx, query, limit)
	if err != nil {
		return Answer{}, fmt.Errorf("pipeline: answer: %w", err)
	}
	if asked := askedSentences(query); asked != query {
		// A question told with its story ("People at work mock me for my
		// faith. What did Jesus say about being persecuted?") is searched
		// also by what it asks, whose few words the story's outweigh
		// (James 2's faith and works), and the two rankings fused. The
		// whole question's search alone says whether the Bible speaks to
		// it: measured on the ask tuning sets, the asked part's confidence
		// answered a decline (DEVELOPERS.md, seventeenth round).
		ares, err := a.r.Search(ctx, asked, limit)
		if err != nil {
			return Answer{}, fmt.Errorf("pipeline: answer: %w", err)
		}
		res.Hits = fuseHits(res.Hits, ares.Hits, limit)
	}
	hits := fu.focus(a.r, res.Hits)
	switch {
	case v.jesus:
		// A question about what Jesus said is answered by his words: of
		// the wide search, the verses the KJV marks as his come first.
		hits = firstWhere(hits, v.holds)
	case len(v.books) > 0:
		// One about what a book says, by the book's alone.
		hits = slices.DeleteFunc(hits, func(h Hit) bool { return !v.holds(h.Verse) })
	}
	if asksQuantity(query) {
		// A count is answered by a verse stating one (answerable): of
		// the search's, those holding a number come first. Searched, the
		// question's own words find the thing counted ("How many
		// disciples did Jesus have?": Matthew 18:1), not its number
		// (Matthew 20:17, "the twelve disciples").
		hits = firstWhere(hits, statesNumber)
	}
	if len(hits) > n {
		hits = hits[:n]
	}
	// A theme's verses are routed whole (themeReach), to be ordered by
	// the question (Answerer.theme); a name's are read in Nave's order.
	routed, err := a.route(ctx, query, themeReach)
	if err != nil {
		return Answer{}, err
	}
	// A topic titled by a name (a person, place, feast: names.go) is what
	// the question is about, and its sub-entries say what it was. A theme
	// topic ("LOVE", "FAITH") lists instances in Nave's order, which
	// answer nothing: the search, whose fusion already holds the router's
	// list, speaks for it (measured on the tuning sets askdev.jsonl and
	// ask.jsonl: expected-verse hit 0.61 → 0.77 and 0.37 → 0.63).
	var themed []Routed
	if len(routed) > 0 && !a.r.namesEntity(routed[0].Topic) && !a.r.possessesName(query, routed[0].Topic) {
		themed, routed = routed, nil
	}
	// A theme's entry naming whom the question names is the instance it
	// asks about; its phrase is said of the theme ("Jesus crucified on"
	// of CROSS), not of a subject the composer can name, so it gives
	// verses and no sentences.
	instance := false
	if inst := a.instance(query, themed); inst != nil {
		routed, themed, instance = inst, nil, true
	}
	if named := a.namedPassages(query, themed, routed, instance, maxRefs); named != nil && fu.Subject == "" && !v.scoped() {
		// An instance or a theme Nave's lists as a passage or two longer
		// than a sentence ("the Sermon on the Mount": Matthew 5-7; "the
		// Lord's Prayer": Matthew 6:9-13, Luke 11:2-4) is a passage the
		// question names in words (passage.go), and asks nothing else
		// of (namedPassages): it stands whole.
		return a.answerPassages(ctx, question, "", named, maxRefs, opts.Extractive)
	}
	if len(v.books) > 0 && slices.ContainsFunc(routed, func(r Routed) bool { return a.speaks(v, r) }) {
		// "What does Genesis say about Abraham?": his entries in Genesis.
		routed = a.voiced(v, routed)
	}
	entity := len(routed) > 0
	if i := slices.IndexFunc(routed, func(r Routed) bool { return !r.Echo }); i >= 0 &&
		routed[i].Score < wholeName && tiedEntries(routed[i:]) > maxTiedEntries {
		// The question names a person of a long history and asks of it
		// something none of the entries says ("what happened after Jesus
		// was baptized": Nave's writes "immersed"): hundreds of entries
		// tie on the name, and the first in Nave's order ("NAMES OF —
		// Adam") would be told as the answer. Only the entries answering
		// the question that come before them are kept (a who- or
		// what-happened echo: JOHN's "Baptizes Jesus" for "What happened
		// when Jesus was baptized?"); with none, the search speaks for it.
		routed = routed[:i]
	}
	if len(routed) > max(n, maxRoutedVerses) {
		routed = routed[:max(n, maxRoutedVerses)]
	}
	var hubs []HubFact
	if fu.Subject == "" {
		// A follow-up's hubs would be matched on words it does not have.
		if len(v.books) > 0 {
			// A book's name is no word of its theme.
			hubs = v.hubs(hubFacts(query))
		} else {
			// A framed question's predicate ("Is laziness a sin?") names
			// no hub of its subject.
			hubs = hubFacts(a.subject(question))
		}
	}
	// The curated hubs are editorial content: their summary may become a
	// sentence of an answer that search already found relevant, but their
	// word lists never decide recall or whether a question is answered
	// (issue 12: they were written while looking at the tuning queries).
	// The calibrated confidence of the best match decides whether the
	// Bible speaks to the question at all (see relevance.go), unless the
	// question names a Nave's topic; a question asking for a number needs
	// a relevant verse stating one (answerable, sources.go).
	rv := a.r.newRelevance(query)
	// The theme a question names decides two things the words cannot
	// (sense.go): a thing named outside the Bible's setting ("feed my pet
	// ferret") is declined, and an abstraction with key passages or
	// sections ("my anger") that the theme gate (gate.go) lets through is
	// answered from them even when no one verse holds the question's many
	// words. Those verses are candidates beside the search's also when the
	// search found relevant ones: "how do i deal with fear" finds verses
	// holding "fear", most of them of the fear of God.
	var th themeResult
	if !entity {
		// A question naming a person or place is about it, not a theme.
		// The theme is weighed on the words the question typed: a number
		// in digits is spelled for the search, as the KJV writes its
		// numbers, but it is a quantity told ("im 78 and lately im scared
		// of dying", "60 hour weeks"), and spelled it counted among the
		// words the gate weighs a theme by (DEVELOPERS.md, twenty-seventh
		// round). A follow-up's and a question about Jesus' words or a
		// book's keep the query they are searched with.
		themeQ := query
		if fu.Subject == "" && !v.scoped() {
			themeQ = a.r.respellWords(typed)
			if t, ok := existenceSubject(themeQ); ok && exists {
				themeQ = a.knownAlternatives(t)
			}
		}
		if th, err = a.theme(ctx, themeQ, themed, rv, v, opts.themes, exists); err != nil {
			return Answer{}, err
		}
		if !th.trap {
			asked, err := a.askedTheme(ctx, themeQ, rv, v, opts.themes)
			if err != nil {
				return Answer{}, err
			}
			if asked.topic != "" {
				// The gate's sample stays the whole question's: the gate
				// is fitted on what whole questions name (FitThemeGate),
				// and the asking part is read with it, not refitted to it.
				asked.gate = th.gate
				th = asked
			}
		}
	}
	teaching := th.teaching
	if th.topic != "" {
		// A hub speaks of its theme at large; a question answered from a
		// topic naming it more narrowly (LORD'S PRAYER of PRAYER) is not
		// asking that.
		hubs = slices.DeleteFunc(hubs, func(h HubFact) bool { return narrower(th.topic, h.Nave) })
	}
	if v.scoped() {
		// His words on the theme, not its teaching at large: the key
		// passages of FORGIVENESS are Paul's and John's as much as his;
		// and a book's.
		teaching = a.voiced(v, teaching)
		for i, p := range th.pool {
			th.pool[i] = a.voiced(v, p)
		}
	}
	var themes *themeResult
	if opts.themes && len(th.pool) > 0 {
		themes = &th
	}
	var gate *gateSample
	if th.gate != nil {
		gate = &gateSample{f: *th.gate, confidence: res.Confidence}
	}
	// A book's verses may be none of those found ("What does Job say
	// about …" of a word Job never uses): nothing to answer with.
	none := len(hits) == 0 && len(teaching) == 0 && len(routed) == 0
	if th.trap || none || !answerable(query, relevant(res) || len(teaching) > 0, a.candidates(hits, rv), routed) {
		return Answer{Text: NoPassageText, Summary: NoPassageSummary, Generator: GeneratorNone, NoPassage: true,
			References: []Reference{}, Retrieved: verseIDs(hits), gate: gate, themes: themes}, nil
	}
	if hits, err = a.withRoutedVerses(ctx, hits, append(routed, teaching...)); err != nil {
		return Answer{}, err
	}
	cands := a.candidates(hits, rv)
	keyed := map[corpus.VerseID]bool{}
	// A theme that lists its verses plainly, without key passages, and
	// that the question names whole and asks nothing else of ("What is
	// the Golden Rule?") is its own verses: ordered by the question's
	// words they came after the search's verses holding "golden"
	// (Exodus 28:33, the bells of gold). A theme of instances
	// (TRANSFIGURATION's of Moses, of Jesus, of Stephen) is not.
	named := th.topic != "" && a.r.namesWhole(query, th.topic, "") && !slices.ContainsFunc(teaching, func(r Routed) bool {
		return r.Key || !plainList(r)
	})
	for _, r := range teaching {
		keyed[r.Verse] = keyed[r.Verse] || r.Key || named
	}
	for i := range cands {
		cands[i].Key = keyed[cands[i].Verse.ID]
	}
	if v.jesus && slices.ContainsFunc(cands, func(c Candidate) bool {
		return c.Verse.WordsOfChrist && (c.Evidence >= minEvidence || c.Key)
	}) {
		// His words on it, when the candidates hold some that speak to
		// it: the others are about it, not his ("What did Jesus say about
		// anger?" told "Scripture tells of the anger of God (Numbers
		// 12:9)" and quoted Psalms 37:8).
		cands = slices.DeleteFunc(cands, func(c Candidate) bool { return !c.Verse.WordsOfChrist })
		for i := range cands {
			cands[i].N = i + 1
		}
	}
	if cands, err = a.withNeighbours(ctx, cands, rv); err != nil {
		return Answer{}, err
	}
	// Nave's entries become sentences only when the question names their
	// topic: a weak route (a theme word shared with a title) is a source
	// of candidates, not the subject of the answer. A follow-up asks about
	// one thing of its subject ("Whom did she marry?"): its answer is the
	// verses focused on it (followup.go), not the subject's entries again.
	var fs []Fact
	if namesTopic(routed) && fu.Subject == "" && !instance {
		// Of the topics routed after the first, only names: a theme or a
		// thing the question also names in part states nothing of its
		// subject ("What happened on the road to Damascus?" told "Scripture
		// tells of the public highways" from ROADS).
		subject := routed[0].Topic
		fs = facts(slices.DeleteFunc(slices.Clone(routed), func(r Routed) bool {
			return r.Topic != subject && !a.r.namesEntity(r.Topic)
		}), rv)
	}
	var themeFacts []Fact
	if namesTopic(themed) && fu.Subject == "" && !exists {
		// A hub's entries (GOD refers to two dozen themes: gate.go,
		// maxSeeThemes) say nothing of what the question asks of it:
		// "Why did God flood the earth?" was told "God was Creator of Man
		// (Genesis 1:26)". Nor do a thing's entries say whether the Bible
		// speaks of it: "are dragons mentioned in the bible" was told
		// "Scripture tells of a poisonous serpent … of a wolf" (DRAGON's
		// senses); where Nave's lists it (the listing) says so.
		themeFacts = facts(slices.DeleteFunc(slices.Clone(themed), a.isHub), rv)
	}
	var asked string
	if exists {
		asked = question
	}
	q := Question{Text: query, Asked: asked, MaxRefs: maxRefs, Candidates: cands, Facts: fs, ThemeFacts: themeFacts, Listings: a.listings(cands, rv, th.topic),
		Hubs: hubs, JesusWords: jesus, Particular: fu.Subject != "" || len(routed) > 0 || asksParticular(query, composerGrammar())}
	return a.write(ctx, q, Answer{gate: gate, themes: themes}, opts.Extractive)
}

// answerPassages answers a question naming passages (runs) from them
// (passageQuestion), rest being what it asks of them.
func (a *Answerer) answerPassages(ctx context.Context, question, rest string, runs [][]corpus.VerseID, maxRefs int, extractive bool) (Answer, error) {
	q, err := a.passageQuestion(ctx, question, rest, runs, maxRefs)
	if err != nil {
		return Answer{}, err
	}
	return a.write(ctx, q, Answer{}, extractive)
}

// write has the generator draft the answer to q, grounds it, falls back
// to the composer, and completes ans with the text and references.
func (a *Answerer) write(ctx context.Context, q Question, ans Answer, extractive bool) (Answer, error) {
	for _, c := range q.Candidates {
		ans.Retrieved = append(ans.Retrieved, c.Verse.ID)
	}
	g := a.g
	if extractive {
		g = Composer{}
	}
	gd, err := a.draft(ctx, g, q)
	ans.Generator = g.Name()
	if err != nil {
		if ctx.Err() != nil {
			// The caller is gone; no answer will be read.
			return Answer{}, fmt.Errorf("pipeline: answer: %w", ctx.Err())
		}
		if _, ok := g.(Composer); ok {
			// A composed sentence the grounding refused is a bug of the
			// composer's; the quotations of the extractive answer stand in
			// rather than no answer.
			slog.ErrorContext(ctx, "composer draft refused", "reason", fallbackReason(err))
			if gd, err = a.draft(ctx, Extractive{}, q); err != nil {
				return Answer{}, fmt.Errorf("pipeline: answer: %w", err)
			}
			ans.Fallback, ans.FallbackReason = true, "composer refused"
		} else {
			ans.Fallback, ans.FallbackReason = true, fallbackReason(err)
			slog.WarnContext(ctx, "answer generator fell back to the composer", "generator", g.Name(), "reason", ans.FallbackReason)
			if gd, err = a.draft(ctx, Composer{}, q); err != nil {
				return Answer{}, fmt.Errorf("pipeline: answer: composer fallback: %w", err)
			}
		}
		ans.Generator = GeneratorExtractive
	}
	ans.Text, ans.Summary = gd.Answer, gd.Summary
	if ans.References, err = a.references(ctx, gd.Groups); err != nil {
		return Answer{}, err
	}
	return ans, nil
}

// voiced is rs without the verses that are not of the voice (his words,
// the book's).
// words.
func (a *Answerer) voiced(v voice, rs []Routed) []Routed {
	return slices.DeleteFunc(slices.Clone(rs), func(r Routed) bool { return !a.speaks(v, r) })
}

// speaks reports whether r's verse is of the voice (voice.holds).
func (a *Answerer) speaks(v voice, r Routed) bool {
	verse, ok := a.r.Verse(r.Verse)
	return ok && v.holds(verse)
}

// wholeName: a route scoring this names a topic that is the whole
// question ("Who was Ruth?"), whose entries in Nave's order tell of it.
// maxTiedEntries: more entries than this tying on a name alone are no
// story in order but a long history (JESUS, THE CHRIST has some three
// hundred); a short one's order still tells it ("how was Stephen
// killed": STEPHEN's entries, stoned among them).
const (
	wholeName      = 0.99
	maxTiedEntries = 20
)

// tiedEntries counts the entries that share the first route's score.
func tiedEntries(routed []Routed) int {
	seen := map[[2]string]bool{}
	for _, r := range routed {
		if r.Score < routed[0].Score {
			break
		}
		seen[[2]string{r.Topic, r.Entry}] = true
	}
	return len(seen)
}

// candidates numbers the hits for the generator, with their evidence.
func (a *Answerer) candidates(hits []Hit, rv *relevance) []Candidate {
	out := make([]Candidate, len(hits))
	for i, h := range hits {
		out[i] = a.candidate(i+1, h.Verse, rv)
	}
	return out
}

// candidate is verse v as the generator's candidate number n.
func (a *Answerer) candidate(n int, v corpus.Verse, rv *relevance) Candidate {
	return Candidate{N: n, Verse: v, Evidence: rv.evidence(v.ID), Particular: particular(v, a.r.isName)}
}

func verseIDs(hits []Hit) []corpus.VerseID {
	out := make([]corpus.VerseID, len(hits))
	for i, h := range hits {
		out[i] = h.Verse.ID
	}
	return out
}

// draft has g write a draft and grounds it.
func (a *Answerer) draft(ctx context.Context, g Generator, q Question) (groundedDraft, error) {
	start := time.Now()
	d, err := g.Generate(ctx, q)
	var gd groundedDraft
	if err == nil {
		gd, err = ground(d, q.Candidates, q.MaxRefs)
	}
	if a.Observe != nil {
		a.Observe("generate", g.Name(), time.Since(start), err != nil)
	}
	return gd, err
}

// fallbackReason is a short reason for the log: the grounding rule that
// failed, or the generator's error.
func fallbackReason(err error) string {
	var u *ungroundedError
	if errors.As(err, &u) {
		return "ungrounded: " + u.reason
	}
	return err.Error()
}

// references builds the cited references with their text read from the
// database, whatever text the generator saw or wrote.
func (a *Answerer) references(ctx context.Context, groups [][]corpus.VerseID) ([]Reference, error) {
	var ids []corpus.VerseID
	for _, g := range groups {
		ids = append(ids, g...)
	}
	verses, err := a.st.VersesByID(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("pipeline: answer: %w", err)
	}
	text := make(map[corpus.VerseID]string, len(verses))
	for _, v := range verses {
		text[v.ID] = v.Text
	}
	out := make([]Reference, 0, len(groups))
	for _, g := range groups {
		first, last := g[0], g[len(g)-1]
		ref, err := corpus.ReferenceForRange(first, last)
		if err != nil {
			return nil, fmt.Errorf("pipeline: answer: reference %s-%s: %w", first, last, err)
		}
		texts := make([]string, len(g))
		for i, id := range g {
			t, ok := text[id]
			if !ok {
				return nil, fmt.Errorf("pipeline: answer: verse %s is not in the database", id)
			}
			texts[i] = strings.TrimSpace(t)
		}
		out = append(out, Reference{CitedPassage: api.Cite(ref, texts...), ref: ref})
	}
	return out, nil
}

// askedTheme is the theme the asking part of a question told with its
// story names (askedSentences), when the router routes that part and the
// theme gate lets its theme through: "the doctor found a lump … how do i
// get through the waiting?" asks of WAITING, which the gate declined
// weighed on the story's words. None when the question is all asking.
func (a *Answerer) askedTheme(ctx context.Context, question string, rv *relevance, v voice, wide bool) (themeResult, error) {
	asked := askedSentences(question)
	if asked == question {
		return themeResult{}, nil
	}
	routes, err := a.route(ctx, asked, themeReach)
	if err != nil || len(routes) == 0 || a.r.namesEntity(routes[0].Topic) || a.r.possessesName(asked, routes[0].Topic) {
		return themeResult{}, err
	}
	th, err := a.theme(ctx, asked, routes, rv, v, wide, false)
	if th.trap {
		return themeResult{}, err
	}
	return th, err
}

// askedSentences is the part of a question that asks, the sentences
// ending in "?", when it also has sentences that tell; otherwise the
// question itself.
func askedSentences(q string) string {
	var asked []string
	told := false
	start := 0
	for i, r := range q {
		if r != '?' && r != '.' && r != '!' {
			continue
		}
		s := strings.TrimSpace(q[start : i+1])
		start = i + 1
		switch {
		case strings.Trim(s, "?.! ") == "":
		case r == '?':
			asked = append(asked, s)
		default:
			told = true
		}
	}
	told = told || strings.TrimSpace(q[start:]) != ""
	if len(asked) == 0 || !told {
		return q
	}
	return strings.Join(asked, " ")
}

// fuseHits merges two rankings by reciprocal rank (DefaultRRFK), each
// verse once, at most n.
func fuseHits(x, y []Hit, n int) []Hit {
	score := map[corpus.VerseID]float64{}
	var out []Hit
	for _, l := range [][]Hit{x, y} {
		for i, h := range l {
			if _, seen := score[h.Verse.ID]; !seen {
				out = append(out, h)
			}
			score[h.Verse.ID] += 1 / (DefaultRRFK + float64(i+1))
		}
	}
	slices.SortStableFunc(out, func(a, b Hit) int { return cmp.Compare(score[b.Verse.ID], score[a.Verse.ID]) })
	return out[:min(len(out), n)]
}
