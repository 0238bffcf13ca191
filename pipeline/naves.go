package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/topics"
	"github.com/selahdev/selah/pipeline/wordvec"
	"github.com/selahdev/selah/store"
)

// NaveRouter is the TopicRouter over Nave's Topical Bible: a question that
// names a topic (by its title, an alternative name Nave gives in the
// title, or a "See" alias) reaches the verses Nave lists under it, ranked
// by how much of the question the topic and each sub-entry account for;
// a question that matches no title can still reach an entry whose phrase
// it echoes, at a lower score. It holds the whole of Nave's in memory
// (built once at start from the store) and is safe for concurrent use.
//
// Every signal comes from Nave's itself, analysed like the verses (the
// project's analyzer: archaic forms folded, stop words dropped, Snowball
// stems):
//
//   - Names: each title's words, and the alternatives Nave writes in its
//     titles: "DUMB (DEAFNESS, MUTE)" is also DEAFNESS and MUTE; an
//     inverted title "PILATE, PONTIUS" is one name whatever the order.
//   - Rarity: a word's inverse document frequency over Nave's own text
//     (every title and entry phrase a document), so a name Nave mentions
//     in a handful of places ("Melchizedek") weighs more than a theme word
//     it uses everywhere ("love", "God"). A query word Nave never uses
//     weighs the most: it is what the question is about, and no topic
//     accounts for it.
//   - Title match: the rarity-weighted share of a name's words the query
//     contains; under half, the name is not meant ("mount" alone does not
//     name OLIVES, MOUNT OF).
//   - Entry match: the rarity-weighted share of the query's words that the
//     name and an entry's full sense (its phrase and its parents') account
//     for, so "Pentecost holy spirit" ranks PENTECOST's "Holy Spirit given
//     to the apostles..." first.
//   - Related words: in a topic titled by a name (Entity), an entry's word
//     that WordNet relates to one of the question's (Expand: a synonym or
//     derivation) accounts for it at the relation's weight, as in the
//     lexical expansion. Measured on the tuning sets (DEVELOPERS.md,
//     sixteenth round): events of a life told in other words gain; for
//     themes it cost practical answers, so a theme's entries match words.
//   - See aliases: a topic with no verses of its own that says "See CARE"
//     (ANXIETY) routes to CARE, discounted by seeDiscount.
type NaveRouter struct {
	an      analyzer
	terms   map[string]int32
	idf     []float64 // by term id
	maxIDF  float64   // of a term Nave never uses
	topics  []routeTopic
	entries []routeEntry
	names   []routeName
	byName  [][]int32                  // term -> names holding it
	byEntry [][]int32                  // term -> entries whose own phrase holds it
	byVerse map[corpus.VerseID][]int32 // verse -> entries listing it
	byTitle map[string]int32           // upper-case title -> topic
	// spellings maps the term of a word a Nave's title spells otherwise
	// to the title's spelling (SetSpellings): Nave's titles as Americans
	// spell (NEIGHBOR, JUDGMENT, LABOR), people and the KJV often do not
	// ("how can I be a good neighbour", "our neighbours").
	spellings map[string]string

	// Entity reports whether a topic's title names a person, place or
	// feast (whose entries tell a life or a history in order) rather
	// than a theme; nil: every topic is a theme. See routeEntry.section.
	Entity func(title string) bool
	// Place reports whether a topic's title names a place (nil: none
	// known): a who-question asks for a person (Route).
	Place func(title string) bool
	// Person reports whether WordNet knows a topic's title as a person's
	// name (nil: none known): JOSEPH's "Jesus born to" tells no place.
	Person func(title string) bool
	// Base gives the base forms of an inflected word (nil: none): WordNet
	// reads "built" as "build", as Nave's narrates "Builds an ark"
	// (relatedEchoes).
	Base func(word string) []string
	// Defines gives the places whose WordNet definition uses a word
	// (placeDefinitions; nil: none): the where-rule reads BETHLEHEM's
	// "Birthplace of Jesus" for "born", "the place where someone was
	// born".
	Defines func(word string) []string
	// Noun reports whether a lower-case word is a noun as written (nil:
	// none is): "Who was King Hezekiah?" asks of Hezekiah, "Who baptized
	// Jesus?" of another (objectNamed).
	Noun func(word string) bool
	// Verb reports whether a lower-case word is a verb as written (nil:
	// none is).
	Verb func(word string) bool
	// Common reports whether a lower-case word is, in modern English,
	// first of all a common word ("job", "john", "ham") rather than the
	// name a Nave's title gives it; nil: never. Such a word written in
	// lower case after a determiner ("I lost my job", "get a job") is
	// the common word, and names no topic (commonUse).
	Common func(word string) bool
	// Expand, when set, relates a question's words to others (WordNet's
	// synonyms and derivations): a named topic's entries are ordered
	// counting an entry's word related to the question's at the weight
	// Expand gives it, so "What happened when Jesus calmed the storm?"
	// reaches "Crosses Lake Galilee and quiets the squall" (calm, quiet).
	Expand Expander

	// kin are the family relations Nave's states (kin.go), read on first
	// use.
	kinOnce sync.Once
	kin     []kinFact
	// kinPeople are the names of the people kin relates.
	kinPeople map[string]bool
	// aliases are every topic's names, byNameKey the topics by each
	// name word (topicNames), read on first use.
	namesOnce sync.Once
	aliases   [][]string
	byNameKey map[string][]int32
	// books are each book's most-cited passages (summary.go), by book
	// number, read on first use.
	booksOnce sync.Once
	books     map[int][]bookPassage
	// outlines are the topics outlining each book (summary.go).
	outlines map[int]map[int32]bool
}

var _ TopicRouter = (*NaveRouter)(nil)

type routeTopic struct {
	title      string
	first, end int32   // its entries in entries
	see        []int32 // topics it is an alias of (it has no verses itself)
	seeAlso    []int32 // every topic its entries refer to whole ("See FALSEHOOD")
	// seeSections are the sections of other topics its entries refer to
	// ("PARABLES: See JESUS, PARABLES OF").
	seeSections []seeSection
	// keys are the topic's key passages (NewNaveRouter's keys), strongest
	// first, as written: routeEntry.key holds their verses merged.
	keys []corpus.VerseSpan
}

// seeSection is a section of topic: its heading's entry and those under
// it, entries[first:end] (Nave's lists a section's entries together).
type seeSection struct {
	topic, first, end int32
}

type routeEntry struct {
	topic  int32
	sense  string  // full phrase, parents first
	own    []int32 // terms of its own phrase
	senseT []int32 // terms of its full sense
	mass   float64 // idf mass of own
	verses []corpus.VerseID
	// section: Nave's prints the sections that gather a theme's teaching
	// as headings in capitals ("OF ENEMIES", "COMMANDMENTS TO") or as
	// "General scriptures concerning", and its brief notes in sentence
	// case ("Silver used as", "Weaning of").
	section bool
	// key: the entry is not Nave's but the topic's key passages
	// (corpus/topics keys: what a teacher cites first), its first entry,
	// with no phrase of its own. Nave's does not list its verses, so it
	// never says where Nave's files a verse (Listed) nor what a topic's
	// word means (topicText).
	key bool
	// bearer: the share of its topic's verses listed under the numbered
	// entry it belongs to, when the topic is a name several people or
	// places bore ("NAAMAN: 1. Son of Benjamin … 4. A Syrian general");
	// 0 otherwise.
	bearer float64
}

type routeName struct {
	topic int32
	terms []int32
	mass  float64
}

// Scoring constants, each a design choice rather than a fit to queries.
const (
	// minNameShare: a name is meant when the query holds at least this
	// rarity-weighted share of its words.
	minNameShare = 0.5
	// minEchoTerms: an entry reached by its phrase alone must share at
	// least this many words with the query; one shared word ("things")
	// is a coincidence more often than a reference.
	minEchoTerms = 2
	// entryOnlyCap: an entry reached by its phrase alone, its topic not
	// named, scores at most this (weaker evidence than a title).
	entryOnlyCap = 0.5
	// seeDiscount: routing through an alias ("ANXIETY → See CARE") is
	// one step from what was asked.
	seeDiscount = 0.9
	// sectionTieBreak orders entries of equal score (see
	// routeEntry.section) without outranking any better match;
	// keyTieBreak puts a topic's key passages before its sections when
	// the question matches nothing more of the topic than its title;
	// bearerTieBreak orders the bearers of a name (routeEntry.bearer).
	sectionTieBreak = 1e-6
	keyTieBreak     = 2e-6
	bearerTieBreak  = 1e-6
	// whoTieBreak puts an entry answering a who-question (Route: asksWho)
	// before a named topic's entries that hold as much of the question.
	whoTieBreak = 3e-6
	// MinRouteScore: routes scoring below it are not returned.
	MinRouteScore = 0.15
)

// LoadNaveRouter builds the router from the Nave's tables in st, with
// the key passages of corpus/topics.
func LoadNaveRouter(ctx context.Context, st *store.Store) (*NaveRouter, error) {
	topics, err := st.NaveTopics(ctx)
	if err != nil {
		return nil, fmt.Errorf("pipeline: nave router: %w", err)
	}
	return NewNaveRouter(topics, KeyPassages()), nil
}

// Titles are the titles of the router's topics, in Nave's order.
func (r *NaveRouter) Titles() []string {
	out := make([]string, len(r.topics))
	for i, t := range r.topics {
		out[i] = t.title
	}
	return out
}

// KeyPassages are the key passages of corpus/topics by upper-case Nave's
// title, for NewNaveRouter.
func KeyPassages() map[string][]corpus.Reference {
	out := map[string][]corpus.Reference{}
	for title, k := range topics.Keys() {
		out[title] = k.References()
	}
	return out
}

// NewNaveRouter builds the router over topics. keys (by upper-case title,
// may be nil) are passages a teacher cites first on a topic: they become
// the topic's first entry, ahead of Nave's own (routeEntry.key).
func NewNaveRouter(topics []corpus.NaveTopic, keys map[string][]corpus.Reference) *NaveRouter {
	r := &NaveRouter{terms: map[string]int32{}}
	var df []int
	intern := func(text string) []int32 {
		return r.intern(text, func() { df = append(df, 0) })
	}
	docs := 0
	count := func(ids []int32) {
		docs++
		for _, id := range ids {
			df[id]++
		}
	}
	byTitle := make(map[string]int32, len(topics))
	for i, t := range topics {
		byTitle[strings.ToUpper(t.Title)] = int32(i)
	}
	r.byTitle = byTitle
	// The words of every name, to tell whether an inverted title's head
	// ("PILATE" of "PILATE, PONTIUS") is a topic of its own.
	nameKeys := map[string]bool{}
	// How many titles give each alternative in parentheses: one that
	// several give qualifies them rather than naming one. "DEAD (PEOPLE)"
	// and "WICKED (PEOPLE)" say which sense of the adjective is meant, and
	// read as names they routed every question about people to the dead.
	alternatives := map[string]int{}
	for _, t := range topics {
		for i, n := range titleNames(t.Title) {
			nameKeys[r.nameKey(n)] = true
			if i > 0 {
				alternatives[r.nameKey(n)]++
			}
		}
	}
	for ti, t := range topics {
		rt := routeTopic{title: t.Title, first: int32(len(r.entries))}
		names := titleNames(t.Title)
		names = append(names[:1], slices.DeleteFunc(names[1:], func(n string) bool { return alternatives[r.nameKey(n)] > 1 })...)
		// An inverted title names its topic by its head alone too, when
		// no topic has the head for a name: "PILATE, PONTIUS" is also
		// PILATE, but "AGE, OLD" is not AGE.
		if head, _, ok := strings.Cut(names[0], ","); ok && !nameKeys[r.nameKey(head)] {
			names = append(names, head)
		}
		for _, n := range names {
			ids := intern(n)
			if len(ids) > 0 {
				r.names = append(r.names, routeName{topic: int32(ti), terms: ids})
			}
		}
		count(intern(t.Title))
		hasVerses := false
		var see, seeWhole []int32
		if refs := keys[strings.ToUpper(t.Title)]; len(refs) > 0 {
			spans := make([]corpus.VerseSpan, len(refs))
			for i, ref := range refs {
				spans[i] = corpus.VerseSpan{First: ref.First(), Last: ref.Last()}
			}
			r.entries = append(r.entries, routeEntry{topic: int32(ti), section: true, key: true, verses: runVerses(spans)})
			rt.keys = spans
			hasVerses = true
		}
		for i, e := range t.Entries {
			re := routeEntry{topic: int32(ti), sense: t.Sense(i), own: intern(e.Phrase), section: naveSection(e.Phrase)}
			re.senseT = intern(withoutSeeHeadings(re.sense))
			count(re.own)
			re.verses = runVerses(e.Verses)
			hasVerses = hasVerses || len(re.verses) > 0
			// "See GOVERNMENT, GOD IN" refers to a section (linkSections),
			// not to government at large: the topic is no theme this one
			// refers to.
			m := seeSectionPhrase.FindStringSubmatch(e.Phrase)
			section := m != nil && !slices.Contains(e.See, m[1]+", "+m[2])
			for _, s := range e.See {
				to, ok := byTitle[strings.ToUpper(s)]
				if !ok || to == int32(ti) {
					continue
				}
				if !slices.Contains(see, to) {
					see = append(see, to)
				}
				if !section && !slices.Contains(seeWhole, to) {
					seeWhole = append(seeWhole, to)
				}
			}
			r.entries = append(r.entries, re)
		}
		rt.end = int32(len(r.entries))
		r.weighBearers(rt)
		rt.seeAlso = seeWhole
		if !hasVerses {
			rt.see = see
		}
		r.topics = append(r.topics, rt)
	}
	r.linkSections(topics)
	// idf over Nave's documents, smoothed; a term Nave never uses gets the
	// largest value (df 0).
	r.idf = make([]float64, len(df))
	for i, n := range df {
		r.idf[i] = math.Log(float64(docs+1)/float64(n+1)) + 1
	}
	r.maxIDF = math.Log(float64(docs+1)) + 1
	r.byName = make([][]int32, len(df))
	for i := range r.names {
		r.names[i].mass = r.post(r.byName, r.names[i].terms, int32(i))
	}
	r.byEntry = make([][]int32, len(df))
	r.byVerse = map[corpus.VerseID][]int32{}
	for i := range r.entries {
		r.entries[i].mass = r.post(r.byEntry, r.entries[i].own, int32(i))
		if r.entries[i].key {
			continue
		}
		for _, v := range r.entries[i].verses {
			r.byVerse[v] = append(r.byVerse[v], int32(i))
		}
	}
	return r
}

// seeSectionPhrase is Nave's reference to a section of another topic, as
// an entry's phrase: "See JESUS, PARABLES OF", "See GOD, MERCY OF".
var seeSectionPhrase = regexp.MustCompile(`^See ?([A-Z][A-Z '()-]*), ([A-Z][A-Z ,'()-]*)$`)

// linkSections resolves the entries that refer to a section of another
// topic (seeSectionPhrase). Nave's marks only the topic's word as a link
// ("See <ref>JESUS</ref>, PARABLES OF"), and the word is often the head of
// the title rather than the title ("JESUS" for "JESUS, THE CHRIST"), so
// the reader keeps an unresolved target (corpus.NaveEntry.See) and the
// phrase: the topic is the one titled by the word, or else the one whose
// title's head it is when only one is, and the section the entry of that
// topic whose phrase is the heading, with every entry under it. Of the
// 653 such references 405 resolve (2026-11-26); the others name a
// heading the topic does not have as written ("See WICKED, WARNED").
func (r *NaveRouter) linkSections(topics []corpus.NaveTopic) {
	byHead := map[string][]int32{}
	for i, t := range topics {
		head, _, _ := strings.Cut(titleNames(t.Title)[0], ",")
		byHead[strings.TrimSpace(head)] = append(byHead[strings.TrimSpace(head)], int32(i))
	}
	for ti, t := range topics {
		rt := &r.topics[ti]
		for _, e := range t.Entries {
			m := seeSectionPhrase.FindStringSubmatch(e.Phrase)
			if m == nil {
				continue
			}
			cands := byHead[m[1]]
			if to, ok := r.byTitle[m[1]]; ok {
				cands = []int32{to}
			}
			if len(cands) != 1 || cands[0] == int32(ti) {
				continue
			}
			to := cands[0]
			base := r.topics[to].first
			if base < r.topics[to].end && r.entries[base].key {
				base++ // the key passages come first (NewNaveRouter)
			}
			if first, end, ok := sectionOf(topics[to], m[2]); ok {
				if link := (seeSection{topic: to, first: base + first, end: base + end}); !slices.Contains(rt.seeSections, link) {
					rt.seeSections = append(rt.seeSections, link)
				}
			}
		}
	}
}

// sectionOf returns the run t.Entries[first:end] of the entry whose phrase
// is heading (the first, compared without regard to case) and every entry
// under it, which follow it (a parent comes before its entries). The
// indices are t's own: a topic with key passages puts them before its
// entries in the router, which the caller allows for.
func sectionOf(t corpus.NaveTopic, heading string) (first, end int32, ok bool) {
	h := slices.IndexFunc(t.Entries, func(e corpus.NaveEntry) bool { return strings.EqualFold(strings.TrimSpace(e.Phrase), heading) })
	if h < 0 {
		return 0, 0, false
	}
	i := h + 1
	for ; i < len(t.Entries); i++ {
		p := t.Entries[i].Parent
		for p >= 0 && p != h {
			p = t.Entries[p].Parent
		}
		if p != h {
			break
		}
	}
	return int32(h), int32(i), true
}

// Listed returns the entries that list verse v, in Nave's order, as
// routes of score 0: the router's index read the other way, from a verse
// to the topics Nave's files it under.
func (r *NaveRouter) Listed(v corpus.VerseID) []Routed {
	es := r.byVerse[v]
	out := make([]Routed, len(es))
	for i, e := range es {
		re := &r.entries[e]
		out[i] = Routed{Verse: v, Topic: r.topics[re.topic].title, Entry: re.sense}
	}
	return out
}

// topicText calls fn with each entry phrase of the topic titled title and
// the verses Nave lists under it; false when there is no such topic.
func (r *NaveRouter) topicText(title string, fn func(phrase string, verses []corpus.VerseID)) bool {
	t, ok := r.byTitle[strings.ToUpper(title)]
	if !ok {
		return false
	}
	rt := r.topics[t]
	for e := rt.first; e < rt.end; e++ {
		if !r.entries[e].key {
			fn(r.entries[e].sense, r.entries[e].verses)
		}
	}
	return true
}

// post lists item under each of its terms in postings and returns the
// terms' idf mass.
func (r *NaveRouter) post(postings [][]int32, terms []int32, item int32) (mass float64) {
	for _, id := range terms {
		mass += r.idf[id]
		postings[id] = append(postings[id], item)
	}
	return mass
}

// nameKey is a name's analysed words, sorted: the same key for "OLIVES,
// MOUNT OF" and "Mount of Olives".
func (r *NaveRouter) nameKey(name string) string {
	var ts []string
	r.an.terms(name, func(t string) { ts = append(ts, t) })
	slices.Sort(ts)
	return strings.Join(slices.Compact(ts), " ")
}

// runVerses lists the verses of runs as an entry gives them: the first
// verse of each run, then the rest of the runs, each verse once. A run's
// first verse stands for its passage, so the entry's passages all come
// before any one long run fills a list (MELCHIZEDEK: Heb 7:1 before Heb
// 5:7).
func runVerses(runs []corpus.VerseSpan) []corpus.VerseID {
	var out []corpus.VerseID
	seen := map[corpus.VerseID]bool{}
	add := func(id corpus.VerseID) {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	for _, v := range runs {
		spanVerses(corpus.VerseSpan{First: v.First, Last: v.First}, add)
	}
	for _, v := range runs {
		spanVerses(v, add)
	}
	return out
}

// spanVerses calls fn with each verse of v in order, across chapter ends.
func spanVerses(v corpus.VerseSpan, fn func(corpus.VerseID)) {
	b, ok := corpus.BookByNumber(v.First.Book())
	if !ok || v.Last.Book() != b.Number {
		return
	}
	for ch := v.First.Chapter(); ch <= v.Last.Chapter(); ch++ {
		lo, hi := 1, b.Verses(ch)
		if ch == v.First.Chapter() {
			lo = v.First.Verse()
		}
		if ch == v.Last.Chapter() {
			hi = min(hi, v.Last.Verse())
		}
		for n := lo; n <= hi; n++ {
			fn(corpus.NewVerseID(b.Number, ch, n))
		}
	}
}

// Nave's sorts a topic's verses under headings that say nothing of the
// topic: its lists of scriptures, and its instances, figures and symbols.
// They are the commonest top-level phrases of the module, read off its data.
// "UNCLASSIFIED" opens every list of its kind, also the one that misspells
// it (GENTILES' "UNCLASSIFIED SCIPTURES RELATING TO", told as "Scripture
// tells of the Unclassified Sciptures Relating to Gentiles") and a list of
// prophecies.
var (
	naveScriptureLists = []string{"General scriptures", "UNCLASSIFIED "}
	naveFigures        = []string{"FIGURATIVE", "SYMBOLICAL"}
	naveIllustrations  = append([]string{"INSTANCES"}, naveFigures...)
)

// naveSorting reports whether an entry phrase is one of those headings,
// never a sentence of an answer.
func naveSorting(phrase string) bool {
	return hasAnyPrefix(phrase, naveScriptureLists) || hasAnyPrefix(phrase, naveIllustrations)
}

// naveSection reports whether an entry phrase is one of Nave's teaching
// sections (routeEntry.section): written in capitals, or a list of
// scriptures; not its instances, figures and symbols, which illustrate a
// theme rather than teach it.
func naveSection(phrase string) bool {
	switch {
	case hasAnyPrefix(phrase, naveScriptureLists):
		return true
	case hasAnyPrefix(phrase, naveIllustrations):
		return false
	}
	return allCaps(phrase)
}

func hasAnyPrefix(s string, prefixes []string) bool {
	return slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(s, p) })
}

// withoutSeeHeadings returns an entry's sense (its parents' phrases and
// its own, joined by " — ") without the parents that are cross-references:
// Nave's nests entries under a "See" line 364 times (EGYPT's "1. The country
// of — See JOSEPH — Civil war in"), and the topic a parent refers to is no
// word of what its children say. Read as one, "Who was Joseph in Egypt?"
// found every such entry of EGYPT holding both its names, and was told of
// Joseph the husband of Mary (Matthew 2:13).
func withoutSeeHeadings(sense string) string {
	parts := strings.Split(sense, " — ")
	kept := parts[:0]
	for i, p := range parts {
		if i == len(parts)-1 || !strings.HasPrefix(p, "See ") {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, " — ")
}

// describes reports whether an entry phrase is a description of its
// topic, which Nave's writes in parentheses ("(A weapon)").
func describes(phrase string) bool {
	return strings.HasPrefix(phrase, "(") && strings.HasSuffix(phrase, ")")
}

// titleNames returns the names a Nave title stands for: the title with
// any parenthesised part taken out, and each alternative inside the
// parentheses ("DUMB (DEAFNESS, MUTE)": "DUMB", "DEAFNESS", "MUTE").
// Revised Version markers ("R. V.") are Nave's sources, not names.
func titleNames(title string) []string {
	main, rest, ok := strings.Cut(title, "(")
	names := []string{strings.TrimSpace(strings.TrimRight(main, ". "))}
	if !ok {
		return names
	}
	inner, _, _ := strings.Cut(rest, ")")
	for _, alt := range strings.Split(inner, ",") {
		alt = strings.TrimSpace(alt)
		if alt == "" || strings.HasPrefix(alt, "R. V") || alt == "R.V." {
			continue
		}
		names = append(names, alt)
	}
	return names
}

// intern returns the distinct term ids of text's terms, giving a term
// the router has not seen the next id and calling added for it, so that
// the tables by term id grow with it.
func (r *NaveRouter) intern(text string, added func()) []int32 {
	var ids []int32
	r.an.terms(text, func(t string) {
		id, ok := r.terms[t]
		if !ok {
			id = int32(len(r.terms))
			r.terms[t] = id
			added()
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	})
	return ids
}

// AddNames gives topics (by title, as Titles gives them) more names
// (titleSynonyms: WordNet's synonyms of a title), read as the title is:
// "What does the Bible say about obesity?" names CORPULENCY. A word of a
// name that Nave's never uses is as rare as the rarest. Call it before
// routing; a title the router does not have is skipped.
func (r *NaveRouter) AddNames(names map[string][]string) {
	for _, title := range slices.Sorted(maps.Keys(names)) {
		t, ok := r.byTitle[strings.ToUpper(title)]
		if !ok {
			continue
		}
		for _, n := range names[title] {
			ids := r.intern(n, func() {
				r.idf = append(r.idf, r.maxIDF)
				r.byName = append(r.byName, nil)
				r.byEntry = append(r.byEntry, nil)
			})
			if len(ids) == 0 {
				continue
			}
			i := int32(len(r.names))
			r.names = append(r.names, routeName{topic: t, terms: ids})
			r.names[i].mass = r.post(r.byName, ids, i)
		}
	}
}

// queryTerms analyses a query into distinct term ids (-1 for a term Nave
// never uses) and their total rarity mass.
func (r *NaveRouter) queryTerms(query string) (ids []int32, weights []float64, names []bool, mass float64) {
	var seen []string
	common := r.commonUse(query)
	r.an.terms(query, func(t string) {
		// "What does the Bible say about money?" is about MONEY, not
		// about the Bible (see WORD OF GOD) or saying.
		if questionFrame[t] {
			return
		}
		if slices.Contains(seen, t) {
			return
		}
		seen = append(seen, t)
		id, ok := r.terms[t]
		w := r.maxIDF
		if ok {
			w = r.idf[id]
		} else {
			id = -1
		}
		ids = append(ids, id)
		weights = append(weights, w)
		names = append(names, !common[t])
		mass += w
	})
	return ids, weights, names, mass
}

// SetSpellings gives the router the spelling a Nave's title gives each
// of words' keys (titleSpellings), read by the keys' terms so that an
// inflection is read too. Call it before routing.
func (r *NaveRouter) SetSpellings(words map[string]string) {
	r.spellings = make(map[string]string, len(words))
	for w, v := range words {
		r.an.terms(w, func(t string) { r.spellings[t] = v })
	}
}

// navesSpelling returns query with each word a Nave's title spells
// otherwise written as the title does ("neighbour" is NEIGHBOR); query
// itself when there is none.
func (r *NaveRouter) navesSpelling(query string) string {
	if len(r.spellings) == 0 {
		return query
	}
	return replaceWords(query, func(w string) (string, bool) {
		lw := strings.ToLower(w)
		// By the word's term, as the router reads it: "neighbours" is
		// "neighbour" inflected.
		v, ok := "", false
		r.an.terms(lw, func(t string) { v, ok = r.spellings[t] })
		if !ok {
			return "", false
		}
		if lw != w {
			v = strings.ToUpper(v[:1]) + v[1:]
		}
		return v, true
	})
}

// relatedTerms returns, for each of the query's terms (ids, as
// queryTerms gives them), the router's terms Expand relates to its word
// (with relatives), at their weight (capped at maxExpansionWeight); nil
// without Expand. With echoes (the who- and where-rules' relatedEchoes)
// the terms of its base forms (Base) are added, and a relative of more
// than one word is left out: its words apart are no relative ("come
// across" of "meet" is no "come").
func (r *NaveRouter) relatedTerms(query string, ids []int32, relatives, echoes bool) []map[int32]float64 {
	if r.Expand == nil {
		return nil
	}
	var terms []string
	r.an.terms(query, func(t string) {
		if !slices.Contains(terms, t) && !questionFrame[t] {
			terms = append(terms, t)
		}
	})
	out := make([]map[int32]float64, len(ids))
	wordvec.Each(query, func(word string) {
		if isStop(word) || questionFrame[word] {
			return
		}
		r.an.terms(word, func(t string) {
			i := slices.Index(terms, t)
			if i < 0 || i >= len(ids) {
				return
			}
			var rels []Related
			if relatives {
				rels = r.Expand.Related(word)
			}
			if echoes && r.Base != nil {
				for _, b := range r.Base(word) {
					rels = append(rels, Related{Word: b, Weight: maxExpansionWeight})
				}
			}
			if echoes && relatives && r.Defines != nil {
				for _, d := range r.Defines(word) {
					rels = append(rels, Related{Word: d, Weight: maxExpansionWeight})
				}
			}
			for _, rel := range rels {
				weight := min(rel.Weight, maxExpansionWeight)
				if weight <= 0 || echoes && strings.ContainsAny(rel.Word, " _") {
					continue
				}
				r.an.terms(rel.Word, func(rt string) {
					id, ok := r.terms[rt]
					if !ok || id == ids[i] {
						return
					}
					if out[i] == nil {
						out[i] = map[int32]float64{}
					}
					out[i][id] = max(out[i][id], weight)
				})
			}
		})
	})
	return out
}

// commonUse returns the terms of the query's words that it uses as common
// words (Common, splitCommon): a capital ("a Pharisee") keeps the name, as
// does a word modern English uses first as a name ("a ruth" is still
// RUTH).
func (r *NaveRouter) commonUse(query string) map[string]bool {
	if r.Common == nil {
		return nil
	}
	var out map[string]bool
	for _, w := range splitCommon(query, r.Common).common {
		r.an.terms(w, func(t string) {
			if out == nil {
				out = map[string]bool{}
			}
			out[t] = true
		})
	}
	return out
}

// routeCand is a scored entry.
type routeCand struct {
	entry int32
	via   int32 // the topic named, when reached through its alias
	score float64
	echo  bool // the entry's sense holds a word of the query its topic's name does not
}

// Route implements TopicRouter.
func (r *NaveRouter) Route(ctx context.Context, query string, limit int) ([]Routed, error) {
	if limit <= 0 {
		return nil, nil
	}
	query = r.navesSpelling(query)
	q, w, nameable, qmass := r.queryTerms(query)
	if qmass == 0 {
		return nil, nil
	}
	// WordNet's relatives of the question's words, read only when a
	// topic titled by a name is scored (scoreTopic): most routes need none.
	var related []map[int32]float64
	relatedRead := false
	// Names the query holds: rarity-weighted share of each name's words.
	got := map[int32]float64{}
	for i, id := range q {
		if id < 0 || !nameable[i] {
			continue
		}
		for _, n := range r.byName[id] {
			got[n] += w[i]
		}
	}
	type named struct {
		share   float64
		covered float64 // idf mass of the query's words the name accounts for
		terms   int     // the name's words
	}
	topics := map[int32]named{}
	for n, m := range got {
		nm := r.names[n]
		share := m / nm.mass
		if share < minNameShare {
			continue
		}
		if cur, ok := topics[nm.topic]; !ok || share > cur.share || share == cur.share && m > cur.covered {
			topics[nm.topic] = named{share: share, covered: m, terms: len(nm.terms)}
		}
	}
	var cands []routeCand
	scoreEntries := func(t, first, end, via int32, nm named, discount float64) {
		rt := r.topics[t]
		entity := r.Entity != nil && r.Entity(rt.title)
		for e := first; e < end; e++ {
			re := &r.entries[e]
			if len(re.verses) == 0 || re.key && entity {
				// A person's or place's entries tell its story in
				// order; key passages are for themes.
				continue
			}
			covered, echo := nm.covered, false
			for i, id := range q {
				if id >= 0 && slices.Contains(re.senseT, id) && !r.nameHas(via, id) {
					covered += w[i]
					echo = true
					continue
				}
				if !entity || id >= 0 && r.nameHas(via, id) {
					continue
				}
				if !relatedRead {
					related, relatedRead = r.relatedTerms(query, q, true, false), true
				}
				if related == nil {
					continue
				}
				best := 0.0
				for rid, rw := range related[i] {
					if rw > best && slices.Contains(re.senseT, rid) && !r.nameHas(via, rid) {
						best = rw
					}
				}
				covered += best * w[i]
			}
			// The square root keeps a name that accounts for half of a
			// two-word question (0.71) above one that names a generic
			// word in a long one.
			s := discount * nm.share * math.Sqrt(min(covered/qmass, 1))
			switch {
			case re.key:
				s += keyTieBreak
			case entity:
				// Of the bearers of a name the question names alike,
				// the one Scripture says most of comes first: Enoch who
				// walked with God, not Cain's son.
				s += bearerTieBreak * re.bearer
			case re.section:
				// Of entries the question matches equally, a section
				// of teaching comes before the notes: MONEY's "Silver
				// used as" says nothing to "stop worrying about money".
				s += sectionTieBreak
			}
			cands = append(cands, routeCand{entry: e, via: via, score: s, echo: echo})
		}
	}
	scoreTopic := func(t, via int32, nm named, discount float64) {
		scoreEntries(t, r.topics[t].first, r.topics[t].end, via, nm, discount)
	}
	for t, nm := range topics {
		scoreTopic(t, t, nm, 1)
		for _, to := range r.topics[t].see {
			if _, named := topics[to]; !named {
				scoreTopic(to, t, nm, seeDiscount)
			}
		}
		// A section of another topic the named one refers to is read as
		// an alias's entries are: "the parable of the good Samaritan"
		// names PARABLES, which refers to JESUS, PARABLES OF, whose entry
		// "The Good Samaritan" holds the rest of the question.
		for _, sec := range r.topics[t].seeSections {
			if _, named := topics[sec.topic]; !named && r.Entity != nil && r.Entity(r.topics[sec.topic].title) {
				scoreEntries(sec.topic, sec.first, sec.end, t, nm, seeDiscount)
			}
		}
	}
	// Entries whose own phrase the query echoes, their topic not named:
	// the product of the share of the query and the share of the phrase
	// that match, capped below a named topic's floor.
	echo := map[int32]echoed{}
	namesEntity := false
	var entityTerms, askedTerms []int32
	asked := 0.0 // the mass of the words that name no person or place
	for i, id := range q {
		if id < 0 {
			continue
		}
		// A topic named whole by a name of two words or more ("Who is
		// the Holy Spirit?") is the question's subject as a person is.
		entity := false
		for t, nm := range topics {
			subject := r.Entity != nil && r.Entity(r.topics[t].title) || nm.share == 1 && nm.terms > 1
			entity = entity || subject && r.nameHas(t, id)
		}
		namesEntity = namesEntity || entity
		if entity {
			entityTerms = append(entityTerms, id)
		} else {
			asked += w[i]
			askedTerms = append(askedTerms, id)
		}
		for _, e := range r.byEntry[id] {
			if _, ok := topics[r.entries[e].topic]; !ok {
				x := echo[e]
				x.mass += w[i]
				x.terms++
				if entity {
					x.entity = true
				} else {
					x.asked += w[i]
				}
				echo[e] = x
			}
		}
	}
	who, where, happened := asksWho(query), asksWhere(query), asksHappened(query)
	var object, possessed bool
	if who {
		object, possessed = r.objectNamed(query, entityTerms)
	}
	// An entry says in its own words what a who- or where-question asks
	// in the asker's: NOAH's "Builds an ark" for "Who built the ark?",
	// BETHANY's "Mary, Martha, and Lazarus dwell at" for "Where did
	// Lazarus live?". For these two rules an entry's word that is the base
	// form of an asked word counts as the word, and for the where-rule one
	// WordNet relates to it too (Expand: a synonym or derivation, as for a
	// named person's entries in scoreEntries), when the entry names the
	// person the question names, if it names one; the other echoes match
	// words. A who-question asks a relation, and WordNet's relatives of a
	// relation mislead: "father" is a synonym of "mother" as verbs.
	isNamed := func(t int32) bool { _, ok := topics[t]; return ok }
	var kin map[int32]echoed
	switch {
	case who || where:
		kin = r.relatedEchoes(query, q, w, entityTerms, where, isNamed)
	case happened && !slices.ContainsFunc(slices.Collect(maps.Keys(echo)), func(e int32) bool {
		x := echo[e]
		return x.entity && x.terms >= minEchoTerms && 2*x.asked >= asked && x.asked > 0 && r.relates(e, askedTerms, entityTerms)
	}):
		// A what-happened question no entry answers in its words may name
		// the event by a word of another form: "What happened at the
		// baptism of Jesus?", JOHN's "Baptizes Jesus" (WordNet derives
		// one from the other). Its relatives are read only then: with an
		// entry answering in its words ("Jesus appeared to Paul (on the
		// road to Damascus)"), relatives of "road" found other entries
		// of Damascus (Acts 9:8, 9:22) that outranked it.
		kin = r.relatedEchoes(query, q, w, entityTerms, true, isNamed)
	}
	for e, x := range echo {
		re := &r.entries[e]
		k := kin[e]
		useKin := k.terms > 0 && (k.entity || !namesEntity)
		if useKin {
			x.mass += k.asked
			x.asked += k.asked
			x.terms += k.terms
		}
		if x.terms < minEchoTerms {
			continue
		}
		// "Who was the mother of Jesus?" asks for a person the question
		// does not name: MARY's "The mother of Jesus", not JESUS' "Heals
		// Peter's mother-in-law", though both hold every word. An entry of
		// another person's topic that holds most of what the question
		// asks ("Roman governor … during the time of Jesus' ministry"
		// holds one word of "Who denied Jesus three times?"), and the
		// person it names as an object (objectNamed), is scored as a name
		// is, by the share of the question it holds, and comes before the
		// named topic's entries that hold as much; of such entries the
		// one the question says more of comes first. An entry whose own
		// phrase opens with the named person is said of that person
		// ("Jesus betrayed in" of GETHSEMANE), not of its topic.
		//
		// "Where was Rachel buried?" asks for a place the same way:
		// BETHLEHEM's "Rachel dies and is buried at" (located). There the
		// named person may open the phrase, as the place is its topic.
		holds := 2*x.asked >= asked && x.asked > 0
		title := r.topics[re.topic].title
		answers := who && holds && (x.entity && object || !namesEntity) && r.person(title) &&
			(len(re.own) == 0 || !slices.Contains(entityTerms, re.own[0]) || describes(re.sense)) ||
			where && holds && (x.entity || !namesEntity) && r.located(e) ||
			happened && holds && x.entity
		if answers && r.relates(e, slices.Concat(askedTerms, k.ids), entityTerms) {
			tie := whoTieBreak * (1 + x.mass/re.mass)
			if !who && !where {
				// What happened: the named topic's own entries that hold
				// as much tell it first ("what happened on the day of
				// Pentecost": PENTECOST's, not PETER's "Preaches on
				// Pentecost day").
				tie = -whoTieBreak * (1 - x.mass/re.mass/2)
			}
			s := math.Sqrt(x.mass/qmass) + tie
			if len(re.verses) > 0 {
				cands = append(cands, routeCand{entry: e, via: re.topic, score: s, echo: true})
				continue
			}
			// A person's description answers as its entries: HANNAH's
			// "(The mother of Samuel)" for "Who was Samuel's mother?",
			// STEPHEN's "(A Christian martyr)" lists no verses; the
			// topic's own entries tell of the person it describes.
			if rt := r.topics[re.topic]; e == rt.first && describes(re.sense) {
				for f := rt.first + 1; f < rt.end; f++ {
					if len(r.entries[f].verses) > 0 && !r.entries[f].key {
						// Of them, those that say more of the question
						// ("Samuel born to") come first.
						cands = append(cands, routeCand{entry: f, via: re.topic, score: s + whoTieBreak*echo[f].mass/qmass, echo: true})
					}
				}
				continue
			}
		}
		if useKin {
			// Related words are the two rules' evidence, no echo's.
			x = echo[e]
			if x.terms < minEchoTerms {
				continue
			}
		}
		s := entryOnlyCap * (x.mass / qmass) * (x.mass / re.mass)
		if s < MinRouteScore {
			continue
		}
		if len(re.verses) > 0 {
			cands = append(cands, routeCand{entry: e, via: re.topic, score: s})
			continue
		}
		// A topic's description ("ZACCHAEUS: (A collector of taxes in
		// Jericho)") lists no verses: echoing it reaches the topic's own.
		if rt := r.topics[re.topic]; e == rt.first && describes(re.sense) {
			for f := rt.first; f < rt.end; f++ {
				if len(r.entries[f].verses) > 0 && !r.entries[f].key {
					cands = append(cands, routeCand{entry: f, via: re.topic, score: s})
				}
			}
		}
	}
	if object && !possessed {
		// "Who climbed a tree to see Jesus?" asks for another than the
		// person it names as an object: that person's entries tell of
		// him ("Parable of the barren fig tree"), and answer nothing. A
		// possessor's may ("Who was Solomon's father?": SOLOMON's "Son
		// of David by Bath-sheba").
		cands = slices.DeleteFunc(cands, func(c routeCand) bool {
			_, named := topics[c.via]
			return named && r.Entity != nil && r.Entity(r.topics[c.via].title)
		})
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("pipeline: route: %w", err)
	}
	return r.verses(cands, limit), nil
}

// echoed is what an entry's own phrase holds of a query (Route).
type echoed struct {
	mass  float64
	terms int
	// asked: the mass of the query's words that name none of the persons
	// or places it names ("mother" of "Who was the mother of Jesus?");
	// entity: a word that does ("jesus").
	asked  float64
	entity bool
	// ids: the terms matched as relatives of the query's (relatedEchoes).
	ids []int32
}

// relatedEchoes returns, for the entries of topics the query does not
// name (named), what their own phrases hold of the query's asked words
// (q and w as queryTerms gives them, less the named persons' terms) by
// the base forms of their words and, with relatives, WordNet's relatives
// (relatedTerms) alone, each word held whole: the who- and where-rules
// ask whether the phrase says what the question asks, and "builds" says
// "built", "dwell" "live"; entity: the phrase also holds a named
// person's term.
func (r *NaveRouter) relatedEchoes(query string, q []int32, w []float64, entityTerms []int32, relatives bool, named func(topic int32) bool) map[int32]echoed {
	related := r.relatedTerms(query, q, relatives, true)
	if related == nil {
		return nil
	}
	out := map[int32]echoed{}
	for i, id := range q {
		if id < 0 || slices.Contains(entityTerms, id) {
			continue
		}
		via := map[int32]int32{}
		for _, rid := range slices.Sorted(maps.Keys(related[i])) {
			for _, e := range r.byEntry[rid] {
				re := &r.entries[e]
				if _, ok := via[e]; !ok && !named(re.topic) && !slices.Contains(re.own, id) {
					via[e] = rid
				}
			}
		}
		for e, rid := range via {
			x := out[e]
			x.asked += w[i]
			x.terms++
			x.ids = append(x.ids, rid)
			out[e] = x
		}
	}
	for e, x := range out {
		x.entity = slices.ContainsFunc(r.entries[e].own, func(id int32) bool { return slices.Contains(entityTerms, id) })
		out[e] = x
	}
	return out
}

// relates reports whether an entry's own phrase says what the question
// asks of the person it names: one of the asked terms stands within
// three words of the person's name ("The mother of Jesus", "Betrays the
// Lord Jesus"), not in another's relation ("Father of one of Solomon's
// purveyors"), and no asked term is only part of a hyphenated word
// (PHARAOH's "Father-in-law of Solomon" is not Solomon's father). With
// no person named, any place will do.
func (r *NaveRouter) relates(e int32, asked, named []int32) bool {
	re := &r.entries[e]
	own := re.ownPhrase()
	var askedAt, namedAt []int
	alone := map[int32]bool{}
	for i, w := range strings.Fields(own) {
		if strings.Contains(w, "-") {
			continue
		}
		r.an.terms(w, func(t string) {
			id, ok := r.terms[t]
			if !ok {
				return
			}
			alone[id] = true
			if slices.Contains(asked, id) {
				askedAt = append(askedAt, i)
			}
			if slices.Contains(named, id) {
				namedAt = append(namedAt, i)
			}
		})
	}
	if slices.ContainsFunc(asked, func(id int32) bool { return slices.Contains(re.own, id) && !alone[id] }) {
		return false
	}
	if len(named) == 0 {
		return true
	}
	for _, a := range askedAt {
		for _, n := range namedAt {
			if max(a-n, n-a) <= 3 {
				return true
			}
		}
	}
	return false
}

// ownPhrase is the entry's own phrase, without its parents' ("Jonah
// would flee to" of "4. … — Jonah would flee to").
func (re *routeEntry) ownPhrase() string {
	if _, own, found := cutLast(re.sense, " — "); found {
		return own
	}
	return re.sense
}

// located reports whether an entry says what happened at its topic, a
// place: the topic is one (Place: WordNet files it so), or, of a name
// WordNet does not know as a person's, the entry's own phrase ends in a
// preposition whose object is the topic's name ("Mary, Martha, and
// Lazarus dwell at" of BETHANY, "John, an exile on" of PATMOS: most of
// the Bible's places WordNet does not know).
func (r *NaveRouter) located(e int32) bool {
	re := &r.entries[e]
	title := r.topics[re.topic].title
	if r.Entity == nil || !r.Entity(title) {
		return false
	}
	if r.Place != nil && r.Place(title) {
		return true
	}
	if r.Person != nil && r.Person(title) {
		return false
	}
	words := strings.Fields(re.ownPhrase())
	return len(words) > 1 && prepositions[strings.ToLower(words[len(words)-1])]
}

// person reports whether a topic's title names a person: a name
// (Entity) that is no place.
func (r *NaveRouter) person(title string) bool {
	return r.Entity != nil && r.Entity(title) && (r.Place == nil || !r.Place(title))
}

// asksWho reports whether the question asks for a person: it opens with
// "who" or "whom" (asked sentences only: a question told with its story
// asks in its last sentence).
func asksWho(query string) bool {
	ws := questionWords(askedSentences(query))
	return len(ws) > 0 && (ws[0] == "who" || ws[0] == "whom")
}

// asksWhere reports whether the question asks for a place: it opens with
// "where" (in its asked sentences, as asksWho).
func asksWhere(query string) bool {
	ws := questionWords(askedSentences(query))
	return len(ws) > 0 && ws[0] == "where"
}

// asksHappened reports whether the question asks what happened (in its
// asked sentences, as asksWho): "What happened on the road to Damascus?"
// asks for the event told at a place or of a person, which another
// topic's entry may hold whole (JESUS' "Appears to Paul (on the road to
// Damascus)"), where the place's own entries say what it was.
func asksHappened(query string) bool {
	ws := questionWords(askedSentences(query))
	return len(ws) > 1 && ws[0] == "what" && (ws[1] == "happened" || ws[1] == "happens")
}

// beForms are the forms of "be", after which a name is what a question
// asks about ("Who was Jezebel?").
var beForms = map[string]bool{"be": true, "am": true, "is": true, "are": true, "was": true, "were": true, "been": true}

// auxiliaries are the verbs after which a name is the subject of the
// verb the question asks with ("Who did Jesus raise from the dead?").
var auxiliaries = map[string]bool{"did": true, "does": true, "do": true, "will": true, "would": true,
	"could": true, "can": true, "should": true, "shall": true, "has": true, "had": true, "have": true}

// objectNamed reports whether the question names a person (one of the
// terms ids) as the object of what it asks: after a preposition or a
// verb ("the mother of Jesus", "Who baptized Jesus?") or as a possessor
// ("Ruth's husband"), possessed then (after "of" too, and before a noun
// it qualifies). A name after a form of "be" or a noun is the person
// asked about ("Who was King Hezekiah?").
func (r *NaveRouter) objectNamed(query string, ids []int32) (object, possessed bool) {
	ws := questionWords(query)
	for i, w := range ws {
		base := unpossessed(w)
		// The word before the name, past an article: "Who were the
		// Pharisees?" asks about them as "Who was Jezebel?" does (read as
		// an object, their topic's entries were dropped and nothing was
		// routed).
		p := i - 1
		for p >= 0 && articles[ws[p]] {
			p--
		}
		switch {
		case !r.namedWord(w, ids):
		case base != w:
			return true, true
		case p >= 0 && auxiliaries[ws[p]]:
			// "Who did Moses marry?": the name is the subject.
		case p >= 0 && !beForms[ws[p]] && (r.Noun == nil || !r.Noun(ws[p])):
			// "The father of Solomon" is Solomon's father.
			return true, ws[p] == "of"
		case i > 1 && ws[i-2] == "to" && r.Verb != nil && r.Verb(ws[i-1]):
			// An infinitive's object, though its verb is a noun too: "to
			// see Jesus" (the Holy See).
			return true, false
		case i+1 < len(ws) && r.Noun != nil && r.Noun(ws[i+1]) && !r.namedWord(ws[i+1], ids):
			// A name before a noun qualifies it: "the first Christian
			// martyr", "Moses wife" (its apostrophe dropped) ask for the
			// martyr and the wife.
			return true, true
		}
	}
	return false, false
}

// namedWord reports whether a question word is one of the terms ids.
func (r *NaveRouter) namedWord(w string, ids []int32) bool {
	named := false
	r.an.terms(unpossessed(w), func(t string) {
		id, ok := r.terms[t]
		named = named || ok && slices.Contains(ids, id)
	})
	return named
}

// Titled reports whether a term (Snowball-stemmed, as the indexes stem)
// is a word of a topic's title or of an alternative name Nave's gives it.
func (r *NaveRouter) Titled(term string) bool {
	id, ok := r.terms[term]
	return ok && len(r.byName[id]) > 0
}

// nameHas reports whether any name of topic t holds term id: the query's
// words a name accounts for are counted once, with the name.
func (r *NaveRouter) nameHas(t, id int32) bool {
	for _, n := range r.byName[id] {
		if r.names[n].topic == t {
			return true
		}
	}
	return false
}

// verses turns scored entries into verses, best first: entries of equal
// score give their verses in turn (the first verse of each, then the
// second...), so a topic's several entries are all represented before
// any one long range fills the list; a verse keeps its best entry.
func (r *NaveRouter) verses(cands []routeCand, limit int) []Routed {
	slices.SortFunc(cands, func(a, b routeCand) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.entry, b.entry))
	})
	var out []Routed
	seen := map[corpus.VerseID]bool{}
	for lo := 0; lo < len(cands) && len(out) < limit; {
		hi := lo + 1
		for hi < len(cands) && cands[lo].score-cands[hi].score < 1e-9 {
			hi++
		}
		for pos, more := 0, true; more && len(out) < limit; pos++ {
			more = false
			for _, c := range cands[lo:hi] {
				re := &r.entries[c.entry]
				if pos >= len(re.verses) {
					continue
				}
				more = true
				if v := re.verses[pos]; !seen[v] {
					seen[v] = true
					out = append(out, Routed{Verse: v, Score: math.Round(c.score*1e4) / 1e4,
						Topic: r.topics[re.topic].title, Entry: re.sense, Section: re.section, Key: re.key, Echo: c.echo})
					if len(out) == limit {
						break
					}
				}
			}
		}
		lo = hi
	}
	return out
}

// teaching returns a theme topic's teaching as routes of the given score:
// its key passages, then the verses of its sections, each once, in the
// order verses gives them; none when the title is no topic.
func (r *NaveRouter) teaching(title string, score float64) []Routed {
	t, ok := r.byTitle[strings.ToUpper(title)]
	if !ok {
		return nil
	}
	rt := r.topics[t]
	var cands []routeCand
	for e := rt.first; e < rt.end; e++ {
		if re := &r.entries[e]; re.section && len(re.verses) > 0 {
			// The key entry first, then the sections in Nave's order.
			s := score
			if re.key {
				s += keyTieBreak
			}
			cands = append(cands, routeCand{entry: e, via: t, score: s})
		}
	}
	return r.verses(cands, themeReach)
}

// isTopic reports whether title (any case) is a topic's.
func (r *NaveRouter) isTopic(title string) bool {
	_, ok := r.byTitle[strings.ToUpper(title)]
	return ok
}

// seeAlso returns the titles of the topics a topic's entries refer to
// ("LYING: See FALSEHOOD"), in Nave's order.
func (r *NaveRouter) seeAlso(title string) []string {
	t, ok := r.byTitle[strings.ToUpper(title)]
	if !ok {
		return nil
	}
	var out []string
	for _, to := range r.topics[t].seeAlso {
		out = append(out, r.topics[to].title)
	}
	return out
}

// bearerOf returns the number that opens a Nave's entry's sense ("4." of
// "4. A Syrian general, healed of leprosy by Elisha — …"): Nave's numbers
// the several people or places that bore a name. "" when it has none.
func bearerOf(sense string) string {
	i := 0
	for i < len(sense) && sense[i] >= '0' && sense[i] <= '9' {
		i++
	}
	if i == 0 || i+1 >= len(sense) || sense[i] != '.' || sense[i+1] != ' ' {
		return ""
	}
	return sense[:i+1]
}

// weighBearers sets the bearer share of a topic's numbered entries, when
// it numbers two bearers or more.
func (r *NaveRouter) weighBearers(rt routeTopic) {
	verses := map[string]int{}
	total := 0
	for e := rt.first; e < rt.end; e++ {
		re := &r.entries[e]
		if re.key {
			continue
		}
		total += len(re.verses)
		if b := bearerOf(re.sense); b != "" {
			verses[b] += len(re.verses)
		}
	}
	if len(verses) < 2 || total == 0 {
		return
	}
	for e := rt.first; e < rt.end; e++ {
		if b := bearerOf(r.entries[e].sense); b != "" {
			r.entries[e].bearer = float64(verses[b]) / float64(total)
		}
	}
}

// topicNames are every topic's names (its title's and the "Also called"
// of its entries), and the topics by each name word, read once.
func (r *NaveRouter) topicNames() (aliases [][]string, byKey map[string][]int32) {
	r.namesOnce.Do(func() {
		r.aliases = make([][]string, len(r.topics))
		r.byNameKey = map[string][]int32{}
		for ti, t := range r.topics {
			var keys []string
			for _, n := range titleNames(t.title) {
				keys = append(keys, nameKeys(topicDisplayName(n))...)
			}
			for _, e := range r.entries[t.first:t.end] {
				if m := kinCalledRe.FindStringSubmatch(e.ownPhrase()); m != nil {
					keys = append(keys, nameKeys(topicDisplayName(m[1]))...)
				}
			}
			keys = slices.Compact(keys)
			r.aliases[ti] = keys
			for _, k := range keys {
				if !slices.Contains(r.byNameKey[k], int32(ti)) {
					r.byNameKey[k] = append(r.byNameKey[k], int32(ti))
				}
			}
		}
	})
	return r.aliases, r.byNameKey
}
