package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/selahdev/selah/corpus"
)

// Questions asking what a whole book of the Bible is about ("what is the
// book of ruth about", "summarize romans", "1 cor summary", "main theme
// of joel", "what happens in acts") were searched for their words, and
// "book" found Revelation 20:12 ("the books were opened") for nearly every
// one. They are answered from the book's own verses, chosen by two of the
// project's sources, no list written for them:
//
//   - The passages a teacher cites first on each of 800-odd themes
//     (corpus/topics keys, the router's key entries): a verse of the book
//     weighs the more the higher it stands in a theme's list and the
//     broader the theme (the square root of how many verses Nave's
//     gathers under it), so a verse cited first on a broad theme (Romans
//     3:23, first for SIN) outweighs one cited fifth on a narrow one.
//     The book's best-weighed passages are what the answer cites.
//   - Nave's Topical Bible says what each passage is: of the entries
//     listing it, one that lists mostly verses of this book (ROME's
//     "Justification by faith in Jesus Christ", RUTH's "Her devotion to
//     Naomi") tells what the book says there; an entry spread over the
//     whole Bible says nothing of the book.

// summaryFrames are the question's forms; the group is the work asked
// about ("the book of ruth", "1 cor", "it").
var summaryFrames = []*regexp.Regexp{
	// "what is the book of ruth about", "what's jude about", "What is the
	// Song of Solomon about, and why is it in the Bible"
	regexp.MustCompile(`^(?:so\s+)?(?:what(?:'s|s| is| was)?|whats)\s+(?:the\s+)?(?:whole\s+|entire\s+)?(.+?)\s+(?:really\s+|actually\s+|mainly\s+|mostly\s+|all\s+|even\s+)?about\b`),
	// "summarize exodus", "Can you give me a quick summary of Genesis",
	// "tl;dr of jonah", "overview of the book of Joshua"
	regexp.MustCompile(`^(?:(?:can|could|would)\s+you\s+)?(?:please\s+|pls\s+)?(?:give\s+me\s+|tell\s+me\s+|write\s+)?(?:a\s+|an\s+|the\s+)?(?:quick\s+|short\s+|brief\s+|simple\s+)?(?:summary|summarize|summarise|summarization|overview|synopsis|outline|recap|tl;?dr|rundown|gist)\s+(?:of\s+|on\s+|for\s+)?(.+)$`),
	// "what is the message of the book of job", "what is paul's main
	// argument in romans", "What is the story of Esther", "purpose of the
	// book of John", "main theme of joel"
	regexp.MustCompile(`^(?:(?:what(?:'s|s| is| was)?|whats)\s+)?(?:(?:the|\w+'s)\s+)?(?:main\s+|central\s+|overall\s+|big\s+|key\s+|basic\s+)?(?:message|theme|point|purpose|idea|argument|lesson|story|plot|summary|gist|thrust)s?\s+(?:of|in|behind)\s+(.+)$`),
	// "2 sam summary", "isaiah overview pls", "ecclesiastes main message"
	regexp.MustCompile(`^(.+?)\s*[-–—:,]?\s+(?:summary|summarized|summarised|overview|synopsis|tl;?dr|in a nutshell|(?:main|key|central)\s+(?:message|theme|themes|point|idea))(?:\s+(?:pls|please))?$`),
	// "hosea - what's the main point of this book": the work before the
	// dash, when what follows asks what it is about ("romans - who wrote
	// it" asks another thing).
	regexp.MustCompile(`^(.+?)\s+[-–—:]\s+.*\b(?:about|point|message|theme|themes|summary|overview|purpose|gist)\b.*$`),
	// "Explain 2 Chronicles in a few sentences", "explain the book of
	// romans briefly"
	regexp.MustCompile(`^(?:(?:can|could)\s+you\s+)?(?:explain|describe)\s+(.+)$`),
	// "what happens in acts", "what happened in the book of judges"
	regexp.MustCompile(`^what\s+(?:happens|happened|goes\s+on)\s+in\s+(.+)$`),
}

var (
	// workNoun is how a question names a book rather than its subject:
	// "the book of", "the gospel of", "the letter to the", "paul's
	// letter to the".
	workNoun = regexp.MustCompile(`^(?:the\s+)?(?:\w+'s\s+)?(?:book|books|gospel|letter|letters|epistle|epistles)\s+(?:of|to|according\s+to)\s+(?:the\s+)?`)
	// workTail are words after the book's name that say how to answer,
	// not what: "in the bible", "briefly", "in a few sentences", "pls".
	workTail = regexp.MustCompile(`\s+(?:in|of|from)\s+the\s+bible$|\s+(?:pls|please|overall|briefly|simply|actually|really|for me|to me|again)$|\s+in\s+(?:a|one|two|three|a few|simple|short|plain|brief)(?:\s+\w+)?$|\s+(?:for|to)\s+(?:a\s+)?(?:beginner|kid|child|newbie)s?$`)
	// gospelOf names a gospel: "the gospel of john".
	gospelOf = regexp.MustCompile(`\bgospels?\s+(?:of|according\s+to)\s`)
	// mentionWords introduce the book a question names beside a frame
	// whose work is "it" or "the letter": "I'm starting a study on
	// 1 Peter. What is the letter about overall?"
	mentionWords = map[string]bool{"on": true, "of": true, "in": true, "about": true, "reading": true,
		"read": true, "studying": true, "study": true, "through": true}
)

// referring are works a frame may give that name no book themselves: the
// book is named elsewhere in the question.
var referring = map[string]bool{"it": true, "this": true, "that": true, "book": true, "this book": true,
	"that book": true, "letter": true, "this letter": true, "epistle": true, "this epistle": true,
	"gospel": true, "this gospel": true, "story": true}

// summaryQuestion reads question as one asking what a whole book is
// about, and returns the book; ok is false for any other question and
// for a work that is not a book of the KJV ("what is the book of enoch
// about"), which is answered (or declined) as any other question. A
// chapter ("what is john 3 about") is a passage (passage.go), asked
// before this.
func summaryQuestion(question string) (corpus.Book, bool) {
	for _, s := range askedParts(question) {
		for _, f := range summaryFrames {
			m := f.FindStringSubmatch(s)
			if m == nil {
				continue
			}
			work := cleanWork(m[1])
			if b, ok := corpus.LookupBook(work); ok {
				if gospelOf.MatchString(m[1]) && !gospel(b) {
					// "the gospel of philip" is no gospel of the KJV,
					// whatever book its name abbreviates (Philippians).
					return corpus.Book{}, false
				}
				return b, true
			}
			if referring[work] {
				if b, ok := mentionedBook(strings.ToLower(question)); ok {
					return b, true
				}
			}
		}
	}
	return corpus.Book{}, false
}

// askedParts are the question's sentences in lower case, without their
// end marks and spaces around them: "What is Nahum about? I've never
// read it." is "what is nahum about" and "i've never read it". Not
// framedSentence (quote.go): it opens a sentence at its first letter,
// and a book's number opens many of these ("2 sam summary").
func askedParts(question string) []string {
	q := strings.ToLower(strings.ReplaceAll(question, "’", "'"))
	var parts []string
	for _, s := range strings.FieldsFunc(q, func(r rune) bool { return r == '?' || r == '!' || r == '\n' }) {
		for _, p := range strings.Split(s, ". ") {
			p = strings.Join(strings.Fields(strings.TrimFunc(p, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })), " ")
			if p != "" {
				parts = append(parts, p)
			}
		}
	}
	return parts
}

// gospel reports whether b is one of the four gospels.
func gospel(b corpus.Book) bool {
	return slices.Contains([]string{"Matt", "Mark", "Luke", "John"}, b.OSIS)
}

// mentionedBook is the first book q names after a mention word ("study
// on 1 peter", "reading the book of hosea").
func mentionedBook(q string) (corpus.Book, bool) {
	words := strings.FieldsFunc(q, func(r rune) bool { return unicode.IsSpace(r) || r == ',' || r == '.' || r == ';' || r == ':' })
	for i, w := range words {
		if !mentionWords[w] {
			continue
		}
		rest := strings.Join(words[i+1:min(len(words), i+7)], " ")
		rest = strings.TrimPrefix(workNoun.ReplaceAllString(rest, ""), "the ")
		fs := strings.Fields(rest)
		for n := min(len(fs), 3); n > 0; n-- {
			if b, ok := corpus.LookupBook(strings.Join(fs[:n], " ")); ok {
				return b, true
			}
		}
	}
	return corpus.Book{}, false
}

// cleanWork is the book's name as a frame gives it, without the words
// that name it a book or say how to answer.
func cleanWork(work string) string {
	work = strings.Trim(work, " ,.;:-")
	for {
		w := workTail.ReplaceAllString(work, "")
		w = strings.TrimSpace(workNoun.ReplaceAllString(w, ""))
		w = strings.TrimPrefix(w, "the ")
		if w == work {
			return work
		}
		work = w
	}
}

// Bounds of a book's passages (NaveRouter.bookPassages).
const (
	// maxBookPassages: a book's best-weighed passages kept, more than any
	// answer cites, for the model to choose from.
	maxBookPassages = 8
	// maxBookVerses: a key passage is cited whole up to this length (a
	// teacher's "Romans 12:1-2"); a longer one, the part about its verse
	// weighed most.
	maxBookVerses = 6
	// maxDescribing: entries describing a passage offered, in order.
	maxDescribing = 3
	// A topic outlines a book (its entries describe the book's passages)
	// when at least minOutlineEntries of its entries list mostly the
	// book's verses and minOutlineShare of all its verses are the
	// book's: RUTH of Ruth, ROME of Romans, PAUL of Acts. A topic spread
	// over the Bible ("SIN") lists a passage among hundreds and says
	// nothing of the book; one entry alone (NAOMI's "The mother-in-law
	// of Ruth", listing all of Ruth) outlines nothing.
	minOutlineEntries = 3
	minOutlineShare   = 0.6
	// minDescribedShare: an entry describes a passage making up at least
	// this share of the verses it lists. A long entry tells of a section
	// ("Beguiled by Satan", Genesis 3:1-20), and said of one verse of it
	// (Genesis 3:19, "In the sweat of thy face") it tells the reader what
	// the verse cited does not say.
	minDescribedShare = 0.1
)

// bookPassage is one of a book's most-cited passages: adjacent verses of
// one chapter, and what they are cited for. Their weight only orders
// them (indexBooks).
type bookPassage struct {
	verses []corpus.VerseID
	// theme is the topic whose key list gives the passage's verse most
	// of its weight: what the passage is cited for.
	theme int32
}

// bookPassages returns the book's most-cited passages, best first
// (indexBooks).
func (r *NaveRouter) bookPassages(book int) []bookPassage {
	r.booksOnce.Do(r.indexBooks)
	return r.books[book]
}

// indexBooks weighs every verse by the key lists citing it and keeps, for
// each book, its best-weighed passages: the shortest key passage holding
// the verse weighed most, then the next verse not yet cited, and so on.
func (r *NaveRouter) indexBooks() {
	weight := map[corpus.VerseID]float64{}
	holding := map[corpus.VerseID][]corpus.VerseSpan{}
	type cited struct {
		theme  int32
		weight float64
	}
	most := map[corpus.VerseID]cited{} // the theme giving a verse most weight
	for ti := range r.topics {
		rt := &r.topics[ti]
		if len(rt.keys) == 0 {
			continue
		}
		// A theme's breadth: the verses Nave's lists under it.
		seen := map[corpus.VerseID]bool{}
		for e := rt.first; e < rt.end; e++ {
			if !r.entries[e].key {
				for _, v := range r.entries[e].verses {
					seen[v] = true
				}
			}
		}
		w := math.Sqrt(float64(max(len(seen), 1)))
		for i, sp := range rt.keys {
			spanVerses(sp, func(v corpus.VerseID) {
				weight[v] += w / float64(i+1)
				if w/float64(i+1) > most[v].weight {
					most[v] = cited{int32(ti), w / float64(i+1)}
				}
				holding[v] = append(holding[v], sp)
			})
		}
	}
	r.outlines = r.outlineTopics()
	byBook := map[int][]corpus.VerseID{}
	for v := range weight {
		byBook[v.Book()] = append(byBook[v.Book()], v)
	}
	r.books = make(map[int][]bookPassage, len(byBook))
	for b, vs := range byBook {
		slices.SortFunc(vs, func(x, y corpus.VerseID) int {
			return cmp.Or(cmp.Compare(weight[y], weight[x]), cmp.Compare(x, y))
		})
		// A verse beside a cited passage is part of it to a reader, and
		// a summary spreads over the book: a chapter gives one passage
		// until every chapter cited has given one.
		used := map[corpus.VerseID]bool{}
		chapters := map[int]bool{}
		var out []bookPassage
		for pass := range 2 {
			for _, v := range vs {
				if len(out) == maxBookPassages {
					break
				}
				if used[v] || used[v-1] || used[v+1] || pass == 0 && chapters[v.Chapter()] {
					continue
				}
				p := passageAround(v, shortestSpan(holding[v]), used)
				for _, id := range p {
					used[id] = true
				}
				chapters[v.Chapter()] = true
				out = append(out, bookPassage{verses: p, theme: most[v].theme})
			}
		}
		r.books[b] = out
	}
}

// outlineTopics are, by book number, the topics outlining it.
func (r *NaveRouter) outlineTopics() map[int]map[int32]bool {
	out := map[int]map[int32]bool{}
	for ti := range r.topics {
		rt := &r.topics[ti]
		inBook := map[int]int{}  // distinct verses of the topic in each book
		entries := map[int]int{} // entries listing mostly a book's verses
		seen := map[corpus.VerseID]bool{}
		for e := rt.first; e < rt.end; e++ {
			re := &r.entries[e]
			if re.key {
				continue
			}
			per := map[int]int{}
			for _, v := range re.verses {
				per[v.Book()]++
				if !seen[v] {
					seen[v] = true
					inBook[v.Book()]++
				}
			}
			for b, n := range per {
				if 2*n > len(re.verses) {
					entries[b]++
				}
			}
		}
		for b, n := range entries {
			if n >= minOutlineEntries && float64(inBook[b]) >= minOutlineShare*float64(len(seen)) {
				if out[b] == nil {
					out[b] = map[int32]bool{}
				}
				out[b][int32(ti)] = true
			}
		}
	}
	return out
}

// shortestSpan is the span of spans holding the fewest verses.
func shortestSpan(spans []corpus.VerseSpan) corpus.VerseSpan {
	best, size := spans[0], math.MaxInt
	for _, sp := range spans {
		n := 0
		spanVerses(sp, func(corpus.VerseID) { n++ })
		if n < size {
			best, size = sp, n
		}
	}
	return best
}

// passageAround is the run of sp's verses in v's chapter around v, none
// already used, at most maxBookVerses long, v kept within it.
func passageAround(v corpus.VerseID, sp corpus.VerseSpan, used map[corpus.VerseID]bool) []corpus.VerseID {
	var run []corpus.VerseID
	spanVerses(sp, func(id corpus.VerseID) {
		if id.Chapter() == v.Chapter() && id.Book() == v.Book() {
			run = append(run, id)
		}
	})
	i := slices.Index(run, v)
	if i < 0 {
		return []corpus.VerseID{v}
	}
	lo, hi := i, i+1
	for lo > 0 && !used[run[lo-1]] && !used[run[lo-1]-1] && run[lo-1] == run[lo]-1 {
		lo--
	}
	for hi < len(run) && !used[run[hi]] && !used[run[hi]+1] && run[hi] == run[hi-1]+1 {
		hi++
	}
	run = run[lo:hi]
	if len(run) > maxBookVerses {
		// Where the verse weighed most stands in a long passage: from it,
		// or the passage's last verses when it is near the end.
		at := slices.Index(run, v)
		start := min(at, len(run)-maxBookVerses)
		run = run[start : start+maxBookVerses]
	}
	return run
}

// describing are the Nave's entries saying what a passage of book is: of
// the entries of the book's outlining topics listing a verse of it, those
// listing at least half their verses in the book and the passage as a
// fair share of them (minDescribedShare), the ones listing more
// of the passage first, then the more particular (fewer verses in all).
// Sorting headings say nothing of it, and a theme's entries outline a
// book in words the composer cannot make a sentence of ("Didactic" of
// PSALMS, "Man made from" of GROUND): only a person's, a place's or a
// feast's (Entity) tell what the book tells.
func (r *NaveRouter) describing(book int, passage []corpus.VerseID) []Fact {
	r.booksOnce.Do(r.indexBooks)
	count := map[int32]int{}
	for _, v := range passage {
		for _, e := range r.byVerse[v] {
			count[e]++
		}
	}
	var es []int32
	for e := range count {
		re := &r.entries[e]
		if re.key || !r.outlines[book][re.topic] || naveSorting(re.ownPhrase()) ||
			r.Entity != nil && !r.Entity(r.topics[re.topic].title) {
			continue
		}
		in := 0
		for _, v := range re.verses {
			if v.Book() == book {
				in++
			}
		}
		if 2*in >= len(re.verses) && float64(count[e]) >= minDescribedShare*float64(len(re.verses)) {
			es = append(es, e)
		}
	}
	slices.SortFunc(es, func(x, y int32) int {
		return cmp.Or(cmp.Compare(count[y], count[x]),
			cmp.Compare(len(r.entries[x].verses), len(r.entries[y].verses)), cmp.Compare(x, y))
	})
	var out []Fact
	for _, e := range es[:min(len(es), maxDescribing)] {
		re := &r.entries[e]
		out = append(out, Fact{Topic: r.topics[re.topic].title, Entry: re.sense, Verses: passage})
	}
	return out
}

// SummaryFact is what a question asking what a book is about is answered
// from (summary.go): the book's most-cited passages, best first, each
// with the Nave's entries saying what it is.
type SummaryFact struct {
	// Book is the book's name ("Romans", "Song of Solomon").
	Book     string
	Passages []SummaryPassage
}

// SummaryPassage is one of a book's most-cited passages.
type SummaryPassage struct {
	Verses []corpus.VerseID
	// Theme is the Nave's topic whose key list cites it most ("SIN").
	Theme string
	// Described are the Nave's entries describing it, the fittest first;
	// their Verses are the passage's.
	Described []Fact
}

// summary answers a question asking what book is about from its
// most-cited passages; ok is false when the book has none (no key list
// cites it) or there is no Nave's router.
func (a *Answerer) summary(ctx context.Context, question string, book corpus.Book, maxRefs int, opts AnswerOptions) (Answer, bool, error) {
	nr, ok := a.r.Router.(*NaveRouter)
	if !ok {
		return Answer{}, false, nil
	}
	ps := nr.bookPassages(book.Number)
	if len(ps) == 0 {
		return Answer{}, false, nil
	}
	f := SummaryFact{Book: book.Name}
	var ids []corpus.VerseID
	for _, p := range ps {
		f.Passages = append(f.Passages, SummaryPassage{Verses: p.verses, Theme: nr.topics[p.theme].title,
			Described: nr.describing(book.Number, p.verses)})
		ids = append(ids, p.verses...)
	}
	q := Question{Text: question, MaxRefs: maxRefs, Summary: &f, Candidates: a.r.keyCandidates(ids)}
	ans, err := a.write(ctx, q, Answer{}, opts.Extractive)
	return ans, true, err
}

// summarySentences say what the book's most-cited passages are, as
// Nave's describes them ("Scripture tells of justification by faith in
// Jesus Christ (Romans 3:24-26)"), name them ("The verses of the book of
// Romans most cited on the Bible's themes are Romans 13:1 (Magistrate),
// …", each with the theme it is cited for) and quote the first.
// The summary is the first sentence of what they are, or the naming.
func (c *composition) summarySentences() (own []string, summary string) {
	f := c.q.Summary
	work := "the book of " + f.Book
	type told struct {
		subject string
		clauses []clause
	}
	var tells []told
	var refs, named []string
	var first []corpus.VerseID
	for _, p := range f.Passages {
		ref, ok := c.cite(p.Verses)
		if !ok {
			break
		}
		refs = append(refs, ref)
		named = append(named, fmt.Sprintf("%s (%s)", ref, topicLabel(p.Theme)))
		if first == nil {
			first = p.Verses
		}
		for _, d := range p.Described {
			subject := topicSubject(d.Topic)
			cl, ok := c.phraseClause(subject, d.Entry)
			if !ok || cl.kind == clausePredicate && strings.HasSuffix(cl.text, " "+subject) {
				// "Promised to" of JOSHUA, the subject put in after the
				// preposition, would say "Joshua promised to Joshua":
				// the entry is said of another's act toward him.
				continue
			}
			cl.ref = ref
			i := slices.IndexFunc(tells, func(t told) bool { return t.subject == subject })
			if i < 0 {
				tells = append(tells, told{subject: subject})
				i = len(tells) - 1
			}
			// One entry listing two of the passages is told once, of
			// the first.
			if !slices.ContainsFunc(tells[i].clauses, func(o clause) bool { return o.text == cl.text }) {
				tells[i].clauses = append(tells[i].clauses, cl)
			}
			break
		}
	}
	if len(refs) == 0 {
		return nil, ""
	}
	for _, t := range tells {
		own = append(own, joinClauses(t.subject, c.gram.plural(t.subject), t.clauses)...)
	}
	naming := fmt.Sprintf("The verses of %s most cited on the Bible's themes are %s.", work, joinAnd(named))
	if len(refs) == 1 {
		naming = fmt.Sprintf("The verse of %s most cited on the Bible's themes is %s.", work, named[0])
	}
	summary = naming
	if len(own) > 0 {
		summary = own[0]
	}
	own = append(own, naming)
	c.first = first
	text := quotation(c.spanText(first), maxQuoteRunes, cutQuoteRunes, minCutRunes)
	own = append(own, fmt.Sprintf("%s reads: \"%s\" (%s).", refs[0], text, refs[0]))
	return own, summary
}
