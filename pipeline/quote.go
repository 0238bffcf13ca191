package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/selahdev/selah/corpus"
)

// Questions about a quotation: "who said am I my brother's keeper",
// "which prophet said how long halt ye between two opinions", "what verse
// says pride comes before a fall", "where in the bible does it say iron
// sharpens iron". They ask who spoke the words, or where they are; the
// words are what the search reads, and the frame is English's closed
// classes (the interrogatives, the verbs of saying, the nouns of a
// passage), as exists.go's and writer.go's frames are.

var (
	// quoteWhoFrame: "who said X", "who was it that said X", "which
	// prophet said X", "who said to whom X", "who spoke the words X".
	quoteWhoFrame = regexp.MustCompile(`^(?:who|(?:which|what) [a-z]+)\s+(?:(?:was|is) it that\s+|(?:was|is) the one (?:that|who)\s+)?(?:first\s+|really\s+|actually\s+)?(?:said|says|say|spoke|spake|speaks|uttered|utters|asked|asks|cried|declared|exclaimed)[\s,:]+(.+)$`)
	// quoteWhereFrames: "what verse says X", "which book of the bible
	// says X", "where is the verse (about Y) that says X", "where (in the
	// bible) does it say X", "is there a verse that says X", "where is it
	// written X". Not "where can I find X": that asks for the thing
	// ("where can I find strength when I am weak").
	quoteWhereFrames = []*regexp.Regexp{
		regexp.MustCompile(`^(?:what|which)\s+(?:bible\s+)?(?:verse|verses|scripture|scriptures|passage|book|chapter|psalm|proverb|gospel|letter|epistle)(?:\s+of\s+(?:the\s+)?(?:bible|scripture))?(?:\s+in\s+the\s+bible)?\s+(?:says|say|said|reads|has|contains|is)\s+(.+)$`),
		regexp.MustCompile(`^where\s+(?:in\s+the\s+bible\s+)?(?:is|are|can\s+i\s+find|do\s+i\s+find|do\s+we\s+find|would\s+i\s+find)\s+(?:the|that|a)\s+(?:verse|scripture|passage|quote|saying|words?)\s+(?:about\s+.+?\s+)?(?:that|which|where\s+it)\s+(?:says|said|reads)\s+(.+)$`),
		regexp.MustCompile(`^where\s+(?:in\s+(?:the\s+bible|scripture)\s+)?(?:does|do|did)\s+(?:it|the\s+bible|scripture|god|jesus)\s+(?:really\s+|actually\s+)?say\s+(.+)$`),
		regexp.MustCompile(`^(?:is|are)\s+there\s+(?:a|any)\s+(?:bible\s+)?(?:verse|verses|scripture|scriptures|passage|passages)\s+(?:in\s+the\s+bible\s+)?(?:that|which|where\s+it)\s+(?:says|say|said)\s+(.+)$`),
		regexp.MustCompile(`^where\s+(?:in\s+the\s+bible\s+)?(?:is|was)\s+it\s+written\s+(.+)$`),
	}
	// quoteOpening are the words a quotation is introduced by, not part
	// of it: "the words", "the phrase", "to whom", "that".
	quoteOpening = regexp.MustCompile(`^(?:to whom\s+|the (?:famous )?(?:words|phrase|line|quote|saying|verse)\s+|these words\s+|this\s*:\s*|that\s+)+`)
	// quoteClose is a close naming the Bible: "X in the bible".
	quoteClose = regexp.MustCompile(`\s+(?:in|from)\s+(?:the\s+bible|scripture|the\s+scriptures)$`)
)

// quotationQuestion reads question as one about a quotation and returns
// the words quoted, lower-cased, without the frame and the quotation
// marks; ok is false for any other question. Who said them and where they
// are are answered alike: by the verse, and the speaker it introduces. A sentence of context may come first ("I heard
// this at a funeral. who said …"); the frame opens a sentence.
func quotationQuestion(question string) (string, bool) {
	return framedSentence(question, quotationFrame)
}

// framedSentence returns what frame reads in the first of question's
// sentences it reads at all (lower-cased, curly quotation marks made
// plain): a sentence of context may come before the frame. Shared by the
// quotation's frames and the why-question's (why.go).
func framedSentence(question string, frame func(sentence string) (string, bool)) (string, bool) {
	q := strings.ToLower(strings.TrimSpace(strings.NewReplacer("’", "'", "‘", "'", "“", "\"", "”", "\"").Replace(question)))
	q = strings.Join(strings.Fields(q), " ")
	for start := 0; start < len(q); {
		s := strings.TrimLeftFunc(q[start:], func(r rune) bool { return !unicode.IsLetter(r) })
		if got, ok := frame(s); ok {
			return got, true
		}
		// The next sentence: after ". ", "? " or "! " outside quotation
		// marks ("Who said "Here am I; send me"?" is one sentence).
		next := sentenceAfter(q, start)
		if next < 0 {
			break
		}
		start = next
	}
	return "", false
}

// sentenceAfter returns where the sentence after the one at start opens,
// or -1.
func sentenceAfter(q string, start int) int {
	quoted := false
	for i := start; i < len(q)-1; i++ {
		switch q[i] {
		case '"':
			quoted = !quoted
		case '.', '?', '!':
			if !quoted && q[i+1] == ' ' {
				return i + 2
			}
		}
	}
	return -1
}

func quotationFrame(s string) (string, bool) {
	for _, f := range append([]*regexp.Regexp{quoteWhoFrame}, quoteWhereFrames...) {
		if m := f.FindStringSubmatch(s); m != nil {
			if w := quotedWords(m[1]); w != "" {
				return w, true
			}
		}
	}
	return "", false
}

// quotedWords are the words quoted in rest, the frame's remainder: without
// an opening ("the words", "to whom"), the quotation marks, the close
// ("in the bible") and the question's end. Empty when fewer than two
// words remain: "who said it" quotes nothing.
func quotedWords(rest string) string {
	rest = quoteOpening.ReplaceAllString(rest, "")
	rest = strings.TrimFunc(rest, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
	rest = quoteClose.ReplaceAllString(rest, "")
	rest = strings.TrimFunc(rest, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
	if len(strings.Fields(rest)) < 2 {
		return ""
	}
	return rest
}

// quoteMatch is a run of verses (one, or two adjacent ones of a chapter)
// holding a quotation's words: cov is the share of the words' information
// it holds (idf-weighted, a word the corpus never saw weighing as the
// rarest), run the share of their pairs it holds in order, the wording's
// evidence beyond its words.
type quoteMatch struct {
	docs     []int32
	cov, run float64
	// seq is the share of the words, stop words too, the wording holds
	// in order (the longest common subsequence, KJV or WEB): "what hath
	// God wrought" is Numbers 23:23's, and the pair "God wrought" is
	// three other verses' as well.
	seq float64
}

// quoteMatches returns the verse runs the search and the phrase index find
// for words, best first: those quoting them by the share of the words
// held in sequence, then by coverage, pairs, length and the search's
// order.
func (r *Retriever) quoteMatches(ctx context.Context, words string, limit int) ([]quoteMatch, error) {
	res, err := r.Search(ctx, words, quoteCandidates)
	if err != nil {
		return nil, err
	}
	var docs []int32
	for _, h := range res.Hits {
		if d, ok := r.lex.docIndex[h.Verse.ID]; ok {
			docs = append(docs, d)
		}
	}
	for _, d := range r.phrase.runs(words) {
		if !slices.Contains(docs, d) {
			docs = append(docs, d)
		}
	}
	q := r.analyse(words)
	pairs := r.quotePairs(words)
	qwords := runWords(words)
	var out []quoteMatch
	seen := map[[2]int32]bool{}
	for _, d := range docs {
		for _, w := range [][]int32{{d}, {d - 1, d}, {d, d + 1}} {
			if w[0] < 0 || int(w[len(w)-1]) >= len(r.verses) || !sameChapter(r.verses[w[0]].ID, r.verses[w[len(w)-1]].ID) {
				continue
			}
			k := [2]int32{w[0], w[len(w)-1]}
			if seen[k] {
				continue
			}
			seen[k] = true
			m := quoteMatch{docs: w, cov: r.lex.idfCoverageAny(q.typed, q.unknown, w)}
			if len(pairs) > 0 {
				held := 0
				for _, p := range pairs {
					if slices.ContainsFunc(w, func(d int32) bool { _, ok := slices.BinarySearch(r.lex.docTerms[d], p); return ok }) {
						held++
					}
				}
				m.run = float64(held) / float64(len(pairs))
			}
			m.seq = r.phrase.sequenceShare(qwords, w)
			out = append(out, m)
		}
	}
	// The verses quoting the words first, by their wording; then by
	// coverage. A second verse is kept only where it holds more.
	slices.SortStableFunc(out, func(x, y quoteMatch) int {
		if x.quotes() != y.quotes() {
			if x.quotes() {
				return -1
			}
			return 1
		}
		if x.quotes() {
			if c := cmp.Compare(y.seq, x.seq); c != 0 {
				return c
			}
		}
		if c := cmp.Compare(y.cov, x.cov); c != 0 {
			return c
		}
		if c := cmp.Compare(y.run, x.run); c != 0 {
			return c
		}
		return cmp.Compare(len(x.docs), len(y.docs))
	})
	return out[:min(limit, len(out))], nil
}

// quotePairs are the index ids of the word pairs of words' terms (-1 for
// a pair no verse holds).
func (r *Retriever) quotePairs(words string) []int32 {
	var out []int32
	prev := ""
	r.lex.an.terms(words, func(t string) {
		if prev != "" {
			id, ok := r.lex.terms[prev+" "+t]
			if !ok {
				id = -1
			}
			out = append(out, id)
		}
		prev = t
	})
	return out
}

// quoteCandidates is how many of the search's verses are read for a
// quotation.
const quoteCandidates = 20

// sameChapter reports whether two verses are of one chapter.
func sameChapter(a, b corpus.VerseID) bool {
	return a.Book() == b.Book() && a.Chapter() == b.Chapter()
}

// Whether a match quotes the words: it holds half of the words'
// information and half of their pairs in order. A looser match (a third
// of the pairs) answered misremembered sayings from the wrong verse ("speak
// lord for your servant is listening": 1 Samuel 28:21, not 3:10) and lost
// held-out questions the search answers (DEVELOPERS.md, forty-fourth
// round): below it the question is answered as any other.
const (
	quoteMinCoverage = 0.5
	quoteMinPairs    = 0.5
)

// quotes reports whether m quotes the words.
func (m quoteMatch) quotes() bool { return m.cov >= quoteMinCoverage && m.run >= quoteMinPairs }

// QuoteFact is what a question about a quotation is answered by: the
// verses holding the words, who speaks them when the text says, and other
// passages holding the same words (Isaiah 2:4 and Micah 4:3).
type QuoteFact struct {
	Verses []corpus.VerseID
	// Speaker is who speaks the words as the cited text names them
	// ("Cain", "the Philistine"); empty when it does not say.
	Speaker string
	// Exact is set when the verses hold every word and pair of words
	// quoted: the question's wording is the KJV's.
	Exact bool
	// Also are other passages holding the words as closely.
	Also [][]corpus.VerseID
}

// speechIntro finds where the KJV introduces speech: "And Ruth said",
// "Then said Jesus", "the LORD said unto Cain", "and said".
var speechIntro = regexp.MustCompile(`(?:\b(the LORD God|the LORD|the Lord|God|Jesus|I|he|she|[Tt]he [A-Z][a-z]+|[A-Z][a-z]+)\s+(?:said|saith|answered|spake|cried|asked)(?:\s+(?:unto|to)\s+(the LORD|God|Jesus|him|her|them|me|[A-Z][a-z]+))?)|(?:\b(?:said|saith|answered|spake)\s+(Jesus|I|he|she|[A-Z][a-z]+)\b)|(?:\band (?:said|saith|answered|spake|cried)\b)`)

// speaker returns who speaks the words a match quotes, from the KJV
// text of the match and the verses before it in its chapter, and the
// verses that name the speaker (the match, from the verse whose text
// names the speaker); empty when the text does not say. Speech is
// introduced by a name and a verb of saying ("And Ruth said"), the verb
// and a name ("Then said Jesus"), a pronoun answering the one spoken to
// ("the LORD said unto Cain, Where is Abel thy brother? And he said"),
// "I" in a book its writer tells ("Then said I, Here am I; send me"), or
// a verb whose subject opens its sentence ("And Elijah came unto all the
// people, and said").
func (r *Retriever) speaker(m quoteMatch, words string) (string, []corpus.VerseID) {
	first := m.docs[0]
	from := first
	for k := 0; k < quoteSpeakerReach && from > 0 && sameChapter(r.verses[from-1].ID, r.verses[first].ID); k++ {
		from--
	}
	// The text from the earliest verse read, and where each verse opens
	// in it.
	var b strings.Builder
	opens := []int{}
	for d := from; d <= m.docs[len(m.docs)-1]; d++ {
		opens = append(opens, b.Len())
		b.WriteString(strings.TrimSpace(r.verses[d].Text))
		b.WriteByte(' ')
	}
	text := b.String()
	// Each introduction opens a stretch of speech running to the next;
	// the speaker's stretch is the one holding most of the words in the
	// match's verses, the last of equals ("And Nathanael said unto him,
	// Can there any good thing come out of Nazareth? Philip saith unto
	// him, Come and see"; "Whom shall I send … Then said I, Here am I;
	// send me").
	terms := r.lex.an.termSet(words)
	matched := opens[first-from]
	intros := speechIntro.FindAllStringSubmatchIndex(text, -1)
	in, held := -1, 0
	for i, x := range intros {
		stop := len(text)
		if i+1 < len(intros) {
			stop = intros[i+1][0]
		}
		seen := map[string]bool{}
		for _, loc := range kjvWord.FindAllStringIndex(text[x[1]:stop], -1) {
			if x[1]+loc[0] < matched {
				continue
			}
			if t := firstTerm(r, text[x[1]+loc[0]:x[1]+loc[1]]); t != "" && terms[t] {
				seen[t] = true
			}
		}
		if len(seen) > 0 && len(seen) >= held {
			in, held = i, len(seen)
		}
	}
	jesus := r.verses[m.docs[len(m.docs)-1]].WordsOfChrist || r.verses[first].WordsOfChrist
	if in < 0 {
		if jesus {
			return "Jesus", r.docIDs(m.docs)
		}
		return "", nil
	}
	docAt := func(pos int) int32 {
		i := 0
		for i+1 < len(opens) && opens[i+1] <= pos {
			i++
		}
		return from + int32(i)
	}
	x := intros[in]
	group := func(x []int, g int) string {
		if x[2*g] < 0 {
			return ""
		}
		return text[x[2*g]:x[2*g+1]]
	}
	who := cmp.Or(group(x, 1), group(x, 3))
	at := x[0]
	if who != "" && who != "I" && who != "he" && who != "she" && !r.isSpeakerName(strings.TrimPrefix(strings.TrimPrefix(who, "The "), "the ")) {
		// A sentence's opening word, not a subject: "Then said I",
		// "And said, Naked came I".
		who = ""
		if m := invertedSpeech.FindStringSubmatch(text[x[0]:]); m != nil {
			who = m[1]
		}
	}
	switch who {
	case "":
		// "and said": the subject opens the sentence ("And Elijah came
		// unto all the people, and said").
		start := strings.LastIndexAny(text[:x[0]], ".?!") + 1
		who = r.sentenceName(text[start:x[0]])
		at = start + len(text[start:x[0]]) - len(strings.TrimLeft(text[start:x[0]], " "))
	case "he", "she":
		// A pronoun answering the one spoken to before it ("the LORD
		// said unto Cain, Where is Abel thy brother? And he said").
		who = ""
		if in > 0 {
			prev := intros[in-1]
			if to := group(prev, 2); to != "" && r.isSpeakerName(to) {
				who, at = to, prev[0]
			}
		}
	case "I":
		who, _ = r.bookWriter(r.verses[first].ID.Book())
	default:
		if !r.isSpeakerName(strings.TrimPrefix(strings.TrimPrefix(who, "The "), "the ")) {
			who = ""
		}
	}
	if who == "" {
		if jesus {
			return "Jesus", r.docIDs(m.docs)
		}
		return "", nil
	}
	if strings.HasPrefix(who, "The ") {
		who = "t" + who[1:]
	}
	var span []corpus.VerseID
	for d := docAt(at); d <= m.docs[len(m.docs)-1]; d++ {
		span = append(span, r.verses[d].ID)
	}
	return who, span
}

// quoteSpeakerReach is how many verses before a match are read for the
// words introducing its speech.
const quoteSpeakerReach = 2

var (
	kjvWord = regexp.MustCompile(`[A-Za-z’']+`)
	// invertedSpeech is speech introduced verb first: "Then said I",
	// "Then said Jesus".
	invertedSpeech = regexp.MustCompile(`^[A-Z][a-z]+\s+(?:said|saith|answered|spake)\s+(Jesus|I|[A-Z][a-z]+)\b`)
)

// isSpeakerName reports whether a capitalised word of the KJV names
// someone who may speak: God, the LORD, or a word the KJV writes as a
// name ("Elijah"; not "And" or "Then" opening a sentence).
func (r *Retriever) isSpeakerName(w string) bool {
	switch w {
	case "the LORD", "the LORD God", "the Lord", "God", "Jesus":
		return true
	}
	return !strings.Contains(w, " ") && w != strings.ToLower(w) && r.isName(strings.ToLower(w))
}

// sentenceName is the name a sentence opens with, its subject: "And
// Elijah came unto all the people" is Elijah's; "Then he called for a
// light" names no one (a lower-case word comes first).
func (r *Retriever) sentenceName(s string) string {
	for _, loc := range kjvWord.FindAllStringIndex(s, -1) {
		w := s[loc[0]:loc[1]]
		switch {
		case w == "the" && strings.HasPrefix(s[loc[1]:], " LORD"):
			return "the LORD"
		case r.isSpeakerName(w):
			return w
		case w == strings.ToLower(w):
			return ""
		}
	}
	return ""
}

// firstTerm is the index term of a single word ("" for a stop word).
func firstTerm(r *Retriever, w string) string {
	t := ""
	r.lex.an.terms(w, func(x string) {
		if t == "" {
			t = x
		}
	})
	return t
}

// bookWriter is the writer a book's opening names (writer.go): the "I"
// of its narrative ("Then said I, Here am I; send me" is Isaiah's).
func (r *Retriever) bookWriter(book int) (string, bool) {
	b, ok := corpus.BookByNumber(book)
	if !ok {
		return "", false
	}
	_, name, ok := r.namedWriter(writerAsk{book: b})
	return name, ok
}

// quotationQuestionFor builds the question a quotation is answered by:
// the verses quoting the words (with those naming their speaker) and the
// other passages quoting them as closely. ok is false when no verse quotes
// them: a saying the Bible lacks, or one in words of its own ("where does
// the bible say not to eat pork"), is answered as any question, and the
// search and the theme gate say whether Scripture speaks to it.
func (a *Answerer) quotationQuestionFor(ctx context.Context, question, words string, maxRefs int) (q Question, ok bool, err error) {
	ms, err := a.r.quoteMatches(ctx, words, quoteMatchesRead)
	if err != nil {
		return Question{}, false, fmt.Errorf("pipeline: answer: %w", err)
	}
	if len(ms) == 0 {
		return Question{}, false, nil
	}
	best := slices.IndexFunc(ms, quoteMatch.quotes)
	if best < 0 {
		return Question{}, false, nil
	}
	m := ms[best]
	f := QuoteFact{Exact: m.cov == 1 && m.run == 1}
	span := a.r.docIDs(m.docs)
	if name, named := a.r.speaker(m, words); name != "" {
		f.Speaker, span = name, named
	}
	f.Verses = span
	taken := slices.Clone(m.docs)
	for _, o := range ms[best+1:] {
		if len(f.Also)+1 >= maxRefs {
			break
		}
		if !o.quotes() || len(o.docs) > len(m.docs) || o.run < m.run || o.cov < m.cov || slices.ContainsFunc(o.docs, func(d int32) bool {
			return slices.ContainsFunc(taken, func(t int32) bool { return sameChapter(a.r.verses[d].ID, a.r.verses[t].ID) && d-t <= 2 && t-d <= 2 })
		}) {
			continue
		}
		taken = append(taken, o.docs...)
		f.Also = append(f.Also, a.r.docIDs(o.docs))
	}
	var cands []Candidate
	for _, ids := range append([][]corpus.VerseID{f.Verses}, f.Also...) {
		for _, id := range ids {
			v, _ := a.r.Verse(id)
			cands = append(cands, Candidate{N: len(cands) + 1, Verse: v, Evidence: 1, Key: true})
		}
	}
	return Question{Text: words, Asked: question, MaxRefs: maxRefs, Quote: &f, Candidates: cands}, true, nil
}

// quotation answers a question about a quotation from the verses quoting
// its words; ok is false when none does. The references it has room for
// beyond them are those the question answered as any other cites: a
// quotation matched wrongly still leaves the verses the search finds for
// it (DEVELOPERS.md, forty-fourth round).
func (a *Answerer) quotation(ctx context.Context, question, words string, maxRefs int, opts AnswerOptions) (Answer, bool, error) {
	q, ok, err := a.quotationQuestionFor(ctx, question, words, maxRefs)
	if err != nil || !ok {
		return Answer{}, false, err
	}
	inner := opts
	inner.unquoted, inner.Extractive = true, true
	more, err := a.Answer(ctx, question, maxRefs, inner)
	if err != nil {
		return Answer{}, false, err
	}
	if more.NoPassage && !q.Quote.Exact {
		// Words a verse holds only nearly, where the question asked as
		// any other finds nothing, are a saying the Bible lacks ("heaven
		// helps those who help themselves": Deuteronomy 33:26's "the
		// heaven in thy help").
		return more, true, nil
	}
	for _, ref := range more.References {
		for _, id := range ref.VerseIDs() {
			if v, ok := a.r.Verse(id); ok && !slices.ContainsFunc(q.Candidates, func(c Candidate) bool { return c.Verse.ID == id }) {
				q.Candidates = append(q.Candidates, Candidate{N: len(q.Candidates) + 1, Verse: v, Evidence: 1, Key: true})
			}
		}
	}
	ans, err := a.write(ctx, q, Answer{}, opts.Extractive)
	return ans, err == nil, err
}

// quoteMatchesRead is how many verse runs are read for a quotation.
const quoteMatchesRead = 12

// docIDs are the verses of index documents.
func (r *Retriever) docIDs(docs []int32) []corpus.VerseID {
	out := make([]corpus.VerseID, len(docs))
	for i, d := range docs {
		out[i] = r.verses[d].ID
	}
	return out
}

// quoteFactSentences say where the words are and, asked, who says them,
// and quote the verses: "Cain said these words, in Genesis 4:9. The verse
// reads: "And the LORD said unto Cain, … Am I my brother's keeper?"
// (Genesis 4:9)."; other passages holding them follow ("Micah 4:3 has
// them too (Micah 4:3)."). Nil when the verses cannot be cited.
func (c *composition) quoteFactSentences() []string {
	f := c.q.Quote
	if !c.citeWhole(f.Verses) {
		return nil
	}
	ref := spanReference(f.Verses)
	text := quotation(c.spanText(f.Verses), maxQuoteRunes, cutQuoteRunes, minCutRunes)
	var lead string
	// Words the verse does not hold as asked are the nearest the KJV
	// comes to them, which may be a saying it lacks ("God helps those who
	// help themselves": "the LORD our God to help us").
	switch {
	case f.Speaker != "" && f.Exact:
		lead = fmt.Sprintf("%s said these words, in %s.", upperFirst(f.Speaker), ref)
	case f.Speaker != "":
		lead = fmt.Sprintf("The closest wording in the King James Version is %s, in %s.", possessive(upperFirst(f.Speaker)), ref)
	case f.Exact:
		lead = fmt.Sprintf("The words are found in %s.", ref)
	default:
		lead = fmt.Sprintf("The closest wording in the King James Version is in %s.", ref)
	}
	// "The verse reads", not the reference again: a sentence may not
	// open with a numeral ("1 Samuel 17:43 reads"), which readers and
	// the ask evaluation's sentence split take for no new sentence.
	what := "The verse"
	if len(f.Verses) > 1 {
		what = "The passage"
	}
	out := []string{lead, fmt.Sprintf("%s reads: \"%s\" (%s).", what, text, ref)}
	for _, ids := range f.Also {
		if !c.citeWhole(ids) {
			break
		}
		r := spanReference(ids)
		out = append(out, fmt.Sprintf("%s has them too (%s).", r, r))
	}
	return out
}

// sequenceShare is the share of words that docs' wording (their KJV
// lines together, or their WEB lines) holds in order: the longest common
// subsequence of the two, over len(words).
func (p *phraseIndex) sequenceShare(words []string, docs []int32) float64 {
	if len(words) == 0 {
		return 0
	}
	var kjv, web []string
	for _, d := range docs {
		lines := strings.SplitN(strings.TrimSpace(p.lines[d]), "\n", 2)
		kjv = append(kjv, strings.Fields(lines[0])...)
		if len(lines) > 1 {
			web = append(web, strings.Fields(lines[1])...)
		}
	}
	return float64(max(lcs(words, kjv), lcs(words, web))) / float64(len(words))
}

// lcs is the length of the longest common subsequence of a and b.
func lcs(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
