package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/topics"
	"github.com/selahdev/selah/store"
)

// Retrieval sources, as named in Hit ranks, Results.Strategy and selah eval.
const (
	SourceLexical = "lexical" // BM25F over the KJV and WEB wording, in process
	SourceDense   = "dense"   // Retriever.Dense: word vectors or an embeddings API
	SourceRouter  = "router"  // Retriever.Router: the Nave's topics a query names
	SourceFused   = "fused"   // what Search returns

	// sourcePhrase is the verses whose wording holds the query's words
	// in order (phrase.go): fused first, never a source on its own.
	sourcePhrase = "phrase"
	// sourceRun is the verses holding a rare run of the query's words
	// (phraseIndex.runs), fused like the lexical list.
	sourceRun = "run"
)

// Hit is one verse found.
type Hit struct {
	Verse corpus.Verse
	// Score is the calibrated probability that the verse answers the
	// query, in [0, 1], comparable across queries (see calibrate.go). It
	// does not increase down a list of results.
	Score float64
	// Rank of the verse in each source's list, 1-based (0: not in it).
	LexicalRank, DenseRank, RouterRank int

	feat features
}

// Results is what Search found.
type Results struct {
	Hits []Hit
	// Strategy says what ran: "lexical" when the quote gate returned the
	// lexical ranking or no other source is configured, otherwise "fused:"
	// and the sources that took part ("fused:lexical+dense+router").
	Strategy string
	// Confidence is the calibrated probability that the hits hold a verse
	// the query wants (0 when there is none), comparable across queries;
	// 1 when the query quotes a verse word for word (phrase.go).
	Confidence float64
	// Weak is set when the best match is unlikely to answer the query:
	// Confidence below WeakBelow, nothing found, or the query uses the
	// word of the topic it reaches in a sense the Bible does not (a sense
	// trap, sense.go: "which stocks should I buy").
	Weak bool
}

// Defaults of the Retriever's knobs.
const (
	DefaultCandidates = 50
	// DefaultRRFK is the constant k of reciprocal rank fusion. Cormack et
	// al.'s common 60 flattens a source's first ranks: a verse two sources
	// put near the top lost to verses that several sources put midway ("it
	// is better to give than to get" lost Acts 20:35). Measured on the
	// tuning sets (DEVELOPERS.md, fifteenth round): 30 raises MRR on every
	// retrieval set and the ask tuning sets' hits by three in all; 20 and
	// 15 cost answers.
	DefaultRRFK = 30
	// DenseWeight weighs the dense list against the lexical list (1) in
	// the fusion: issue 12's prototype measured 0.5 best, and any higher
	// costs quotations their verse.
	DenseWeight = 0.5
	// RouterWeight weighs the router's list. See retrieve_test.go's
	// TestRouterWeight and DEVELOPERS.md for the measurement.
	RouterWeight = 1.0
	// NamedRouterWeight replaces RouterWeight when the query names a
	// Nave's entity: the router's best route scores at least
	// namedRouteScore (its title or alias accounts for most of the
	// question) and the topic's title is a name the KJV capitalises
	// (names.go: a person, place, feast; not a theme like LOVE). Nave's
	// then says which verses are about it better than the words do
	// ("Who was Samuel?" wants 1 Samuel 3:19-20, not every verse that
	// says "Samuel"): the router alone found more people on the
	// independent set than the fusion kept (0.926 against 0.815). See
	// DEVELOPERS.md for the measurement.
	//
	// A route's score is the square root of the share of the question
	// its name and entry account for (naves.go), so namedRouteScore 0.7
	// asks them to account for half of it. At 0.6 (a third) a question
	// about someone else that mentions Jesus ("the short tax collector who
	// climbed a tree to see Jesus", 0.65) went to JESUS' entries at weight
	// 3 and lost Luke 19:2-4, which the lexical list had first.
	NamedRouterWeight = 3.0
	namedRouteScore   = 0.7
	// UnwordedDenseWeight replaces DenseWeight when no verse holds much
	// of the query's words: the plain lexical ranking's first verse holds
	// less than unwordedCoverage of their idf mass. Such a query says in
	// its own words what no verse says in these ("don't stress about
	// tomorrow"), the lexical list is verses that share a word or two with
	// it, and the word vectors are the only source that reads past the
	// words: alone they found 0.200 of paraphrasedev2's paraphrases, fused
	// at 0.5 only 0.055. Measured on the tuning sets (DEVELOPERS.md):
	// paraphrasedev2 0.055 → 0.145 hit@10, the others unchanged or better
	// (0.35 found two more and cost the ask tuning sets a decline).
	UnwordedDenseWeight = 5.0
	unwordedCoverage    = 0.3
	// quoteGateCoverage and quoteGateWords: when the plain lexical top hit
	// holds this share of a query's content words, and the query has at
	// least quoteGateWords of them, the query quotes that verse and the
	// lexical ranking is returned unchanged (issue 12: fusing a dense list
	// into quotations otherwise costs them their verse). Unless the query
	// names a Nave's entity (NamedRouterWeight): "king hezekiah of judah"
	// is about the king, though 2 Kings 18:13 holds its three words; a
	// quotation holds more than the name and is not named (measured on
	// the tuning sets, DEVELOPERS.md, sixteenth round).
	quoteGateCoverage = 0.8
	quoteGateWords    = 3
)

// Retriever finds the verses for a query: the lexical index always, fused
// with the dense source and the topic router when they are set. It is
// safe for concurrent use; set its fields before the first Search.
type Retriever struct {
	verses []corpus.Verse // by the lexical index's document number
	web    []string       // WEB wording, same order
	gloss  []string       // Strong's glosses, same order
	lex    *Lexical
	proper map[string]int  // words the KJV writes as names, with their verse counts, the commonest left out (names.go)
	names  map[string]bool // every word the KJV writes as a name
	// writers are the letters' writers and their books (letterWriters).
	writers map[string][]int
	// determined are the names the KJV gives an article (properNames).
	determined map[string]bool
	// rare are the words the KJV always capitalises but too seldom to be
	// names by that alone (properNames, learnAliasedNames).
	rare    map[string]bool
	speller *speller // names and words as people misspell them (respell.go)
	// bookTerms are the index terms of the books' names (knownTerm).
	bookTerms map[string]bool
	phrase    *phraseIndex    // the verses' wording, for queries that quote it (phrase.go)
	senses    *senses         // the Bible's sense of a topic's word (sense.go); nil without WordNet
	fate      *fateClassifier // the words telling a person's end (fate.go); nil without WordNet
	// timeNouns are the KJV's words naming a time (when.go); nil without WordNet.
	timeNouns map[string]bool
	// kindOf reports whether a noun is a kind of another (WordNet's
	// hypernyms: "midnight" an hour); nil without WordNet.
	kindOf func(word, kind string) bool
	// hyphened maps a hyphened name written without its hyphens to it
	// ("ishbosheth" → "ish-bosheth"; fate.go).
	hyphened map[string]string
	bridge   *themeBridge // a question's words to the themes they mean (bridge.go); nil without word vectors
	// offer is what an offer request reads of WordNet (offer.go), built
	// on the first; nil without WordNet. A func, so that copies of the
	// retriever share it.
	offer func() *occasionThemes
	// nicknames are the names the KJV never writes of passages and
	// teachings (nickname.go).
	nicknames *nicknameIndex

	// Dense is the dense source (trained word vectors, or the
	// OpenAI-compatible embeddings in pgvector); nil skips it. DenseName
	// names it in responses.
	Dense     VerseSource
	DenseName string
	// Router reaches the verses of the Nave's topics a query names; nil
	// skips it.
	Router TopicRouter
	// Lexicon is Strong's dictionary with the KJV words it tags, which
	// answers word-meaning questions (lexicon.go); nil: none is.
	Lexicon *Lexicon
	// Expand widens a query's words with related ones (WordNet); nil: no
	// expansion. See expand.go.
	Expand Expander
	// Common reports whether a lower-case word the KJV writes as a name
	// is, in a question that gives it a determiner, the common word
	// ("I lost my job"): see commonName. Nil: never.
	Common func(word string) bool
	// Dictionary reports whether a word is English (WordNet knows it): such
	// a word is never respelt as a name (respell.go). Nil: every word the
	// corpus does not hold may be a misspelt name.
	Dictionary func(word string) bool
	// Lemma reports whether WordNet has the word itself, not only as an
	// inflection of another ("shed", not "theres"): such a word is never
	// read as a contraction typed without its apostrophe (respell.go).
	Lemma func(word string) bool
	// Speech reports whether a lower-case word is a verb of speaking
	// (WordNet files its commonest verb sense under communication: say,
	// promise, warn, answer): a question naming Jesus with one asks what
	// he said (asksJesusWords). Nil: the few words of speechWord.
	Speech func(word string) bool
	// Titled reports whether an index term is a word of a Nave's title
	// (NaveRouter.Titled); nil: none is. Such a word is no word the
	// corpus has never seen (lexQuery.unknown): no verse writes
	// "gluttony" or "trinity", but Nave's files verses under GLUTTONY
	// and TRINITY.
	Titled func(term string) bool

	// RRFK is the fusion's constant k (0: DefaultRRFK).
	RRFK int
	// Candidates is how many verses each source brings to the fusion
	// (0: DefaultCandidates). Search returns at most this many.
	Candidates int
	// Observe, when set, is told how long each stage took ("retrieve"
	// with the source's name) and whether it failed.
	Observe func(stage, impl string, d time.Duration, failed bool)
}

// NewRetriever loads every verse and builds the lexical index over them.
func NewRetriever(ctx context.Context, st *store.Store) (*Retriever, error) {
	first := corpus.NewVerseID(1, 1, 1)
	last := corpus.NewVerseID(66, 22, 21)
	vs, err := st.VerseRange(ctx, first, last)
	if err != nil {
		return nil, fmt.Errorf("pipeline: retriever: %w", err)
	}
	texts, err := st.IndexTexts(ctx)
	if err != nil {
		return nil, fmt.Errorf("pipeline: retriever: %w", err)
	}
	if len(vs) == 0 || len(vs) != len(texts) {
		return nil, fmt.Errorf("pipeline: retriever: %d verses and %d index texts: run selah ingest", len(vs), len(texts))
	}
	web := make([]string, len(texts))
	gloss := make([]string, len(texts))
	for i, t := range texts {
		if t.ID != vs[i].ID {
			return nil, fmt.Errorf("pipeline: retriever: verse order differs at %s", vs[i].ID)
		}
		web[i], gloss[i] = t.WebText, t.Glosses
	}
	return newRetriever(vs, web, gloss, LexicalOptions{}), nil
}

func newRetriever(vs []corpus.Verse, web, gloss []string, opt LexicalOptions) *Retriever {
	docs := make([]LexDoc, len(vs))
	for i, v := range vs {
		docs[i] = LexDoc{ID: v.ID, Text: v.Text, WebText: web[i], Glosses: gloss[i]}
	}
	kjv := make([]string, len(vs))
	for i, v := range vs {
		kjv[i] = v.Text
	}
	proper, names, determined, rare := properNames(vs)
	r := &Retriever{verses: vs, web: web, gloss: gloss, lex: BuildLexical(docs, opt), proper: proper, names: names,
		determined: determined, rare: rare, writers: letterWriters(vs, names), hyphened: hyphenedNames(names),
		speller: newSpeller(kjv, web, proper, bookWords()), phrase: buildPhraseIndex(kjv, web, opt.NoWeb),
		bookTerms: map[string]bool{}}
	r.nicknames = newNicknameIndex(topics.Nicknames(), r.phrase.holds)
	for _, b := range corpus.Books() {
		r.lex.an.terms(b.Name, func(t string) { r.bookTerms[t] = true })
	}
	return r
}

// bookWords are the words of the books' names ("genesis", "song",
// "solomon"), lower case.
func bookWords() []string {
	var out []string
	for _, b := range corpus.Books() {
		for _, w := range letterRuns(b.Name) {
			out = append(out, strings.ToLower(w))
		}
	}
	return out
}

// WithoutWeb returns a retriever like r whose lexical index leaves out the
// WEB field, for the WEB→KJV evaluation (queries in WEB wording must not
// find themselves). It shares r's other sources.
func (r *Retriever) WithoutWeb() *Retriever {
	return r.With(LexicalOptions{NoWeb: true})
}

// With returns a retriever like r (the same sources) over a lexical index
// built with opt, to measure what a field brings.
func (r *Retriever) With(opt LexicalOptions) *Retriever {
	c := newRetriever(r.verses, r.web, r.gloss, opt)
	c.Dense, c.DenseName, c.Router, c.Expand, c.Dictionary, c.Lemma, c.Common = r.Dense, r.DenseName, r.Router, r.Expand, r.Dictionary, r.Lemma, r.Common
	if w, ok := r.Dense.(interface{ WithoutWeb() (VerseSource, error) }); ok && opt.NoWeb {
		// The dense source must not see the WEB words either.
		if d, err := w.WithoutWeb(); err == nil {
			c.Dense = d
		}
	}
	c.Candidates, c.Observe, c.RRFK = r.Candidates, r.Observe, r.RRFK
	// The speller reads both wordings whatever the index holds, and has
	// learnt the titles and English words LoadRetriever gave r.
	c.speller = r.speller
	return c
}

// EmbedderName names what ranks verses beyond words: the dense source's
// name, or "local" (the built-in lexical index) when there is none.
func (r *Retriever) EmbedderName() string {
	if r.Dense != nil && r.DenseName != "" {
		return r.DenseName
	}
	return LocalName
}

// LocalName names the built-in, in-process retrieval in responses.
const LocalName = "local"

func (r *Retriever) observe(stage, impl string, start time.Time, err error) {
	if r.Observe != nil {
		r.Observe(stage, impl, time.Since(start), err != nil)
	}
}

// Respell returns query with the names it misspells as the KJV writes
// them ("who was jezabel" → "who was Jezebel"; respell.go) and its
// numbers in words ("40 days" → "forty days"; numerals.go), and the
// translation's names as "the Bible" (bibleNames). Search respells its
// query itself.
func (r *Retriever) Respell(query string) string {
	return r.speller.respell(spellNumerals(asBible(query)), r.Dictionary, r.Lemma)
}

// respellWords is Respell without the numerals spelled: the question's
// words as typed, its names as the KJV writes them.
func (r *Retriever) respellWords(query string) string {
	return r.speller.respell(asBible(query), r.Dictionary, r.Lemma)
}

// Verse returns the verse id, from memory.
func (r *Retriever) Verse(id corpus.VerseID) (corpus.Verse, bool) {
	i, ok := r.lex.docIndex[id]
	if !ok {
		return corpus.Verse{}, false
	}
	return r.verses[i], true
}

// ranked is one source's list for a query.
type ranked struct {
	docs   []int32
	scores []float64
	// named: the router's best topic is an entity the query names
	// (see NamedRouterWeight).
	named bool
	// unworded: the dense list of a query whose words no verse holds
	// (see UnwordedDenseWeight).
	unworded bool
	// trap: the router's best topic is a theme whose word the query uses
	// in a sense the Bible does not (senses.trap).
	trap bool
	// keyless: the router's list without the key passages of a theme
	// (corpus/topics keys), when it holds any: the list the calibrated
	// confidence was fitted on.
	keyless *ranked
}

// lexQuery is a query analysed for the lexical index.
type lexQuery struct {
	typed   []qterm // the words typed (weight 1) and their pairs
	all     []qterm // typed and expansions
	words   int     // known words typed
	unknown int     // words the corpus has never seen
	self    float64 // selfScore of typed
}

// knownTerm reports whether an index term no verse holds is a word of
// the Bible all the same: a word of a Nave's title (Titled) or of a
// book's name. No verse writes "Genesis" or "Leviticus", and "who was
// Melchizedek in Genesis" names no subject the Bible does not address.
func (r *Retriever) knownTerm(t string) bool {
	return r.bookTerms[t] || r.Titled != nil && r.Titled(t)
}

func (r *Retriever) analyse(query string) lexQuery {
	// A name used as a common word is no word of the index (it would
	// match the name's verses only), but its WordNet relatives are.
	typed, unknown := r.lex.query(r.withoutCommon(query), r.knownTerm)
	q := lexQuery{typed: typed, all: typed, words: words1(typed), unknown: unknown, self: r.lex.selfScore(typed)}
	if r.Expand != nil {
		q.all = r.lex.expand(r.Expand, query, typed)
	}
	return q
}

// lexical ranks the verses for q with its expansions (or only the typed
// words when plain is set).
func (r *Retriever) lexical(q lexQuery, n int, plain bool) ranked {
	qs := q.all
	if plain {
		qs = q.typed
	}
	hs := r.lex.search(qs, n)
	out := ranked{docs: make([]int32, len(hs)), scores: make([]float64, len(hs))}
	for i, h := range hs {
		out.docs[i], out.scores[i] = h.doc, h.score
	}
	return out
}

func (r *Retriever) dense(ctx context.Context, query string, n int) (ranked, error) {
	if r.Dense == nil {
		return ranked{}, nil
	}
	if _, local := r.Dense.(*SIFIndex); local {
		// The word vectors learned such a word from the name's verses;
		// an embeddings model knows what "my job" means.
		query = r.withoutCommon(query)
	}
	t0 := time.Now()
	ss, err := r.Dense.Search(ctx, query, n)
	r.observe("retrieve", SourceDense, t0, err)
	if err != nil {
		return ranked{}, err
	}
	var out ranked
	for _, s := range ss {
		if d, ok := r.lex.docIndex[s.Verse]; ok {
			out.docs, out.scores = append(out.docs, d), append(out.scores, s.Score)
		}
	}
	return out, nil
}

func (r *Retriever) route(ctx context.Context, query string, n int) (ranked, error) {
	if r.Router == nil {
		return ranked{}, nil
	}
	t0 := time.Now()
	rs, err := r.Router.Route(ctx, query, n)
	r.observe("retrieve", SourceRouter, t0, err)
	if err != nil {
		return ranked{}, err
	}
	// What the query names, and whether it is a sense trap, are read
	// from Nave's own entries, as before there were key passages.
	keyless := slices.DeleteFunc(slices.Clone(rs), func(x Routed) bool { return x.Key })
	out := r.rankRoutes(rs)
	out.named = len(keyless) > 0 && keyless[0].Score >= namedRouteScore && r.namesEntity(keyless[0].Topic)
	out.trap = len(keyless) > 0 && !r.namesEntity(keyless[0].Topic) && r.senses.trapAmong(query, keyless)
	if len(keyless) < len(rs) {
		k := r.rankRoutes(keyless)
		k.named, k.trap = out.named, out.trap
		out.keyless = &k
	}
	return out, nil
}

// rankRoutes is the router's verses as a ranked list, each verse once.
func (r *Retriever) rankRoutes(rs []Routed) ranked {
	var out ranked
	seen := map[int32]bool{}
	for _, x := range rs {
		if d, ok := r.lex.docIndex[x.Verse]; ok && !seen[d] {
			seen[d] = true
			out.docs, out.scores = append(out.docs, d), append(out.scores, x.Score)
		}
	}
	return out
}

// Search returns up to limit verses for query, best first, with the
// calibrated confidence of the best and whether it is weak. A dense source
// or router that fails is an error (an unreachable embeddings API is an
// *selah.Error with code EEMBEDDERUNAVAILABLE).
func (r *Retriever) Search(ctx context.Context, query string, limit int) (Results, error) {
	return r.search(ctx, query, limit, SourceFused)
}

// SearchSource is Search with one source alone (SourceLexical,
// SourceDense, SourceRouter) or fused (SourceFused), for evaluation. An
// unconfigured source finds nothing.
func (r *Retriever) SearchSource(ctx context.Context, query string, limit int, source string) (Results, error) {
	return r.search(ctx, query, limit, source)
}

func (r *Retriever) search(ctx context.Context, query string, limit int, source string) (Results, error) {
	query = r.Respell(strings.TrimSpace(query))
	res := Results{Hits: []Hit{}, Strategy: SourceLexical, Weak: true}
	if query == "" || limit <= 0 {
		return res, nil
	}
	n := cmp.Or(r.Candidates, DefaultCandidates)
	limit = min(limit, n)
	t0 := time.Now()
	q := r.analyse(query)
	plain := r.lexical(q, n, true)
	r.observe("retrieve", SourceLexical, t0, nil)

	lists := map[string]ranked{}
	var err error
	switch source {
	case SourceLexical:
		lists[SourceLexical] = r.lexical(q, n, false)
	case SourceDense:
		res.Strategy = SourceDense
		if lists[SourceDense], err = r.dense(ctx, query, n); err != nil {
			return res, err
		}
	case SourceRouter:
		res.Strategy = SourceRouter
		if lists[SourceRouter], err = r.route(ctx, query, n); err != nil {
			return res, err
		}
	case SourceFused:
		var rl ranked
		if r.Router != nil {
			if rl, err = r.route(ctx, query, n); err != nil {
				return res, err
			}
		}
		if !rl.named && r.quoteGate(q, plain) {
			lists[SourceLexical] = plain
			break
		}
		lists[SourceLexical] = r.lexical(q, n, false)
		names := []string{SourceLexical}
		if r.Dense != nil {
			dl, err := r.dense(ctx, query, n)
			if err != nil {
				return res, err
			}
			dl.unworded = r.unworded(q, plain)
			lists[SourceDense] = dl
			names = append(names, SourceDense)
		}
		if r.Router != nil {
			lists[SourceRouter] = rl
			names = append(names, SourceRouter)
		}
		if len(names) > 1 {
			res.Strategy = "fused:" + strings.Join(names, "+")
		}
	default:
		return res, fmt.Errorf("pipeline: unknown retrieval source %q", source)
	}
	quotes := false
	if source == SourceFused {
		if ds := r.phrase.match(query); len(ds) > 0 {
			lists[sourcePhrase] = ranked{docs: ds, scores: make([]float64, len(ds))}
			quotes = true
		} else if ds := r.phrase.runs(query); len(ds) > 0 {
			lists[sourceRun] = ranked{docs: ds, scores: make([]float64, len(ds))}
		}
	}
	res.Hits = r.fuse(q, lists, limit)
	res.Confidence = calibrate(res.Hits)
	// The confidence model was fitted on the fusion without runs and
	// without the key passages of a theme (calibrate.go): a verse a run
	// puts first holds few of the query's words by design, and a key
	// passage holds the theme's word whatever the question asks ("Who
	// wrote the book of Hebrews?" and BOOK's "the books were opened").
	// The query's confidence is that of the ranking without them. A
	// refit with runs lost answers on the ask tuning sets (DEVELOPERS.md).
	_, runs := lists[sourceRun]
	rl, routed := lists[SourceRouter]
	if keys := routed && rl.keyless != nil; runs || keys {
		fitted := maps.Clone(lists)
		delete(fitted, sourceRun)
		if keys {
			fitted[SourceRouter] = *rl.keyless
		}
		res.Confidence = confidence.probOf(r.fuse(q, fitted, 1))
	}
	if quotes {
		// The query is a verse's words in order: the verse it quotes is
		// first, whatever the model makes of words it cannot weigh ("I
		// can do all things" is nothing but stop words to it), as a
		// reference's passage is.
		res.Confidence = 1
	}
	// A sense trap's verses hold its words in another sense: the stocks
	// of Acts 16:24 for "which stocks should I buy". Its confidence stays
	// the model's, but the match is weak, as /ask declines it.
	res.Weak = len(res.Hits) == 0 || res.Confidence < WeakBelow || lists[SourceRouter].trap && !quotes
	return res, nil
}

// quoteGate reports whether the plain lexical ranking's first verse holds
// enough of the query's content words for the query to be quoting it.
func (r *Retriever) quoteGate(q lexQuery, plain ranked) bool {
	words := q.words + q.unknown
	if words < quoteGateWords || len(plain.docs) == 0 {
		return false
	}
	got := r.lex.coverage(q.typed, plain.docs[0]) * float64(q.words)
	return got/float64(words) >= quoteGateCoverage
}

// unworded reports whether the plain lexical ranking's first verse holds
// less than unwordedCoverage of the query's words, by idf.
func (r *Retriever) unworded(q lexQuery, plain ranked) bool {
	return q.words > 0 && len(plain.docs) > 0 && r.lex.idfCoverage(q.typed, q.unknown, plain.docs[0]) < unwordedCoverage
}

// fuse merges the lists by weighted reciprocal rank (one list: its own
// order) and fills in each hit's ranks and calibration features.
func (r *Retriever) fuse(q lexQuery, lists map[string]ranked, limit int) []Hit {
	weights := map[string]float64{SourceLexical: 1, SourceDense: DenseWeight, SourceRouter: RouterWeight, sourceRun: 1}
	if rl, ok := lists[SourceRouter]; ok && rl.named {
		weights[SourceRouter] = NamedRouterWeight
	}
	if dl, ok := lists[SourceDense]; ok && dl.unworded {
		weights[SourceDense] = UnwordedDenseWeight
	}
	type acc struct {
		rrf                  float64
		lex, dense, router   int
		lexS, denseS, routeS float64
	}
	k := float64(cmp.Or(r.RRFK, DefaultRRFK))
	by := map[int32]*acc{}
	for name, l := range lists {
		for i, d := range l.docs {
			a := by[d]
			if a == nil {
				a = &acc{}
				by[d] = a
			}
			if name == sourcePhrase {
				// A quotation's verses come first, in the order the
				// other sources give them: no fused sum reaches 1.
				a.rrf++
				continue
			}
			a.rrf += weights[name] / (k + float64(i+1))
			switch name {
			case SourceLexical:
				a.lex, a.lexS = i+1, l.scores[i]
			case SourceDense:
				a.dense, a.denseS = i+1, l.scores[i]
			case SourceRouter:
				a.router, a.routeS = i+1, l.scores[i]
			}
		}
	}
	docs := make([]int32, 0, len(by))
	for d := range by {
		docs = append(docs, d)
	}
	slices.SortFunc(docs, func(x, y int32) int {
		return cmp.Or(cmp.Compare(by[y].rrf, by[x].rrf), cmp.Compare(x, y))
	})
	if len(docs) > limit {
		docs = docs[:limit]
	}
	hits := make([]Hit, len(docs))
	for i, d := range docs {
		a := by[d]
		h := Hit{Verse: r.verses[d], LexicalRank: a.lex, DenseRank: a.dense, RouterRank: a.router}
		lexS := a.lexS
		if a.lex == 0 && len(q.all) > 0 {
			// Not in the lexical list: its score is still known.
			lexS = r.lex.scoreDoc(q.all, d)
		}
		h.feat = features{
			lexNorm:  safeDiv(lexS, q.self),
			coverage: r.lex.idfCoverage(q.typed, q.unknown, d),
			unknown:  safeDiv(float64(q.unknown), float64(q.unknown+q.words)),
			router:   a.routeS,
			dense:    a.denseS,
			rank:     1 / float64(i+1),
		}
		hits[i] = h
	}
	return hits
}

func safeDiv(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}
