package pipeline

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/wordnet"
)

// Questions asking who wrote a book of the Bible ("Who wrote Romans?",
// "who is the author of the letter to Titus", "Did Paul write Hebrews?")
// are answered from the book's own words: most letters open with their
// sender's name ("Paul, a servant of Jesus Christ"), most prophets with
// theirs ("The vision of Isaiah", "The burden which Habakkuk the prophet
// did see"), and a psalm's title names whose it is ("A Psalm of David").
// Where the opening names no one (Hebrews, Genesis, the Gospels), the
// text does not say, and the question is declined rather than answered
// with whatever verses share its words ("So Jeremiah wrote in a book",
// which told a reader that Jeremiah wrote Romans). No list of writers is
// written here: the names are the KJV's own (properNames).

// writerAsk is a question asking who wrote a book, or one chapter of it
// (a psalm; Proverbs 31, "The words of king Lemuel").
type writerAsk struct {
	book    corpus.Book
	chapter int // 0: the book
}

var (
	// writerFrames are the question's forms; the last group is what was
	// written.
	writerFrames = []*regexp.Regexp{
		regexp.MustCompile(`^(?:who|which \w+|what \w+)\s+(?:wrote|authored|penned|composed|write|writes)\s+(.+)$`),
		regexp.MustCompile(`^(?:who(?:'s| is| was)?|whos)\s+(?:the\s+)?(?:author|writer)s?\s+of\s+(.+)$`),
		regexp.MustCompile(`^(?:did|was)\s+\S+(?:\s+\S+)?\s+(?:write|the author of|the writer of)\s+(.+)$`),
		regexp.MustCompile(`^who\s+(?:was|is)\s+(.+?)\s+written\s+by$`),
	}
	// writtenWork is how a question names the book: "the book of",
	// "the letter to the", "the gospel according to", "the epistle of".
	writtenWork = regexp.MustCompile(`^(?:the\s+)?(?:(?:book|books|epistle|epistles|letter|letters|gospel)\s+(?:of|to|according\s+to)\s+(?:the\s+)?|(?:the\s+)?)`)
)

// writerQuestion reads question as one asking who wrote a book or a
// chapter; ok is false for any other question, and for a book it cannot
// name ("Who wrote the Bible?").
func writerQuestion(question string) (writerAsk, bool) {
	q := strings.ToLower(strings.TrimSpace(question))
	q = strings.TrimRightFunc(q, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
	q = strings.Join(strings.Fields(strings.ReplaceAll(q, "’", "'")), " ")
	for _, f := range writerFrames {
		m := f.FindStringSubmatch(q)
		if m == nil {
			continue
		}
		work := strings.TrimSpace(writtenWork.ReplaceAllString(m[1], ""))
		work = strings.TrimSuffix(strings.TrimSuffix(work, " in the bible"), " of the bible")
		if b, ok := corpus.LookupBook(work); ok {
			return writerAsk{book: b}, true
		}
		// A chapter: "psalm 23", "proverbs 31".
		if i := strings.LastIndexByte(work, ' '); i > 0 {
			if n, err := strconv.Atoi(work[i+1:]); err == nil {
				if b, ok := corpus.LookupBook(work[:i]); ok && n >= 1 && n <= b.Chapters() {
					return writerAsk{book: b, chapter: n}, true
				}
			}
		}
		return writerAsk{}, false
	}
	return writerAsk{}, false
}

// maxSenderVerse is how far into a book its opening may name its writer:
// Revelation's "John to the seven churches" is its fourth verse,
// Ezekiel's "The word of the LORD came expressly unto Ezekiel" its third.
const maxSenderVerse = 4

// namedWriter returns the verse of the book (or chapter) asked about that
// names its writer, and the name, read in the opening's own words:
//   - a name introduced in a psalm's title ("A Psalm of David", "Maschil
//     of Asaph"): introducedName;
//   - a letter's sender ("Paul, an apostle", "John to the seven
//     churches"): senderName;
//   - a name introduced in the first clause of a verse that opens with
//     something said, written or seen ("The words of Amos", "The burden
//     which Habakkuk the prophet did see", "The word of the LORD that came
//     unto Hosea"), with nothing between that and the name but the
//     formula's own words: formulaName. Matthew's "The book of the
//     generation of Jesus Christ" names no writer.
//
// A title is read first, then senders in the first maxSenderVerse verses,
// then formulas: an opening may name whose revelation it is before its
// writer names himself (Revelation 1:1, 1:4). ok is false when the opening names no
// one: a book whose text does not say who wrote it.
func (r *Retriever) namedWriter(ask writerAsk) (corpus.Verse, string, bool) {
	ch := max(ask.chapter, 1)
	if first, ok := r.Verse(corpus.NewVerseID(ask.book.Number, ch, 1)); ok {
		if name := r.introducedName(openingClause(first.Title)); name != "" {
			return first, name, true
		}
	}
	var verses []corpus.Verse
	for v := 1; v <= maxSenderVerse && v <= ask.book.Verses(ch); v++ {
		verse, ok := r.Verse(corpus.NewVerseID(ask.book.Number, ch, v))
		if !ok {
			return corpus.Verse{}, "", false
		}
		if name := r.senderName(verse); name != "" {
			return verse, name, true
		}
		verses = append(verses, verse)
	}
	for _, verse := range verses {
		if name := r.formulaName(openingClause(verse.Text)); name != "" {
			return verse, name, true
		}
	}
	return corpus.Verse{}, "", false
}

// openingClause is text up to its first colon, semicolon or full stop.
func openingClause(text string) string {
	if i := strings.IndexAny(text, ":;."); i >= 0 {
		return text[:i]
	}
	return text
}

// childWord reports whether a word introduces a relative's name, not
// the writer's: "the son of David", "the sons of Korah" (kin.go).
func childWord(w string) bool { return kinWords[w].kind == "child" }

// introducers are the words that introduce whose a writing is: "of",
// "to", "unto", "by", "which".
var introducers = map[string]bool{"of": true, "to": true, "unto": true, "by": true, "which": true}

// formulaWords may stand between an opening's head and the name it
// introduces: the prophets' formula "the word of the LORD that came
// (expressly) unto", "the burden of the word of the LORD to Israel by".
var formulaWords = map[string]bool{"of": true, "the": true, "that": true, "which": true, "came": true, "unto": true,
	"to": true, "by": true, "expressly": true, "word": true, "lord": true}

// writerName reports whether the KJV writes w as the name of someone:
// capitalised, not too common to be a question's subject (God, the LORD),
// and a proper name of the KJV (properNames; or one of its rare names,
// "Agur", capitalised wherever it stands), or a name WordNet knows
// first as a person's that the KJV's tagged words always capitalise (a
// name only at the start of verses, "Jude", is no proper name to
// properNames; "Beloved" is a person to WordNet and a common word to the
// KJV); and not one WordNet knows first as a place or a people.
func (r *Retriever) writerName(w string) bool {
	l := strings.ToLower(w)
	if utf8.RuneCountInString(w) < 2 || !unicode.IsUpper([]rune(w)[0]) || r.ubiquitous(l) {
		return false // "O LORD", "God"
	}
	lf, known := 0, false
	if r.senses != nil {
		lf, known = firstNounLexFile(r.senses.wn, l)
	}
	if known && (lf == lexNounLocation || lf == lexNounGroup || lf == lexNounObject) {
		return false
	}
	return r.proper[l] > 0 || r.rare[l] || known && lf == lexNounPerson && r.Lexicon != nil && r.Lexicon.alwaysCapital(l)
}

// senderName is the name a letter opens with, before its greeting: as
// letterOpening reads a first verse ("Paul, an apostle", "Simon Peter, a
// servant", "Paul and Timotheus, the servants"), or a name and its
// addressees in any opening verse ("John to the seven churches").
func (r *Retriever) senderName(v corpus.Verse) string {
	if v.ID.Verse() == 1 {
		if m := letterOpening.FindStringSubmatch(v.Text); m != nil && r.writerName(m[1]) {
			return m[1]
		}
	}
	if m := addressedOpening.FindStringSubmatch(v.Text); m != nil && r.writerName(m[1]) {
		return m[1]
	}
	return ""
}

// addressedOpening is a verse opening with a name and its addressees:
// "John to the seven churches which are in Asia".
var addressedOpening = regexp.MustCompile(`^([A-Z][a-z]+),? (?:un)?to the\b`)

// introducedName is the first name in clause that an introducer
// introduces, not a relative's ("son of David").
func (r *Retriever) introducedName(clause string) string {
	words := clauseWords(clause)
	for i := 1; i < len(words); i++ {
		if !introducers[strings.ToLower(words[i-1])] || i >= 2 && childWord(strings.ToLower(words[i-2])) {
			continue
		}
		if r.writerName(words[i]) {
			return words[i]
		}
	}
	return ""
}

// formulaName is the name (or capitalised title: "the Preacher") an
// opening formula introduces: clause's first
// word after "the" (or "now the") is a noun one of whose WordNet senses is
// of communication or cognition (its head: "words", "burden", "vision"),
// and after it come only formulaWords, places and titles ("king") before
// an introducer and the name. Without WordNet, no formula is read.
func (r *Retriever) formulaName(clause string) string {
	words := clauseWords(clause)
	i := 0
	if i < len(words) && strings.EqualFold(words[i], "now") {
		i++
	}
	if i+1 >= len(words) || !strings.EqualFold(words[i], "the") || !r.writingNoun(strings.ToLower(words[i+1])) {
		return ""
	}
	// introduced reports whether the word at j follows an introducer,
	// titles ("king") and "the" aside, that no relative's word precedes
	// ("the son of David").
	introduced := func(j int) bool {
		k := j - 1
		for k > 0 && (strings.EqualFold(words[k], "the") || !unicode.IsUpper([]rune(words[k])[0]) && r.personNoun(strings.ToLower(words[k]))) {
			k--
		}
		return introducers[strings.ToLower(words[k])] && !(k > 0 && childWord(strings.ToLower(words[k-1]))) &&
			!slices.ContainsFunc(words[k+1:j], func(w string) bool { return childWord(strings.ToLower(w)) })
	}
	for j := i + 2; j < len(words); j++ {
		w, low := words[j], strings.ToLower(words[j])
		if r.writerName(w) {
			if introduced(j) {
				return w
			}
			return ""
		}
		if unicode.IsUpper([]rune(w)[0]) && r.personNoun(low) && !r.ubiquitous(low) && strings.EqualFold(words[j-1], "the") && introduced(j) {
			return "the " + w // "The words of the Preacher"
		}
		if !formulaWords[low] && !(unicode.IsUpper([]rune(w)[0]) && r.isName(low)) && !r.personNoun(low) {
			return "" // a noun of its own: "the generation of", "the gospel of"
		}
	}
	return ""
}

// personNoun reports whether WordNet knows w first as a person: a title
// before a name ("The words of king Lemuel").
func (r *Retriever) personNoun(w string) bool {
	if r.senses == nil {
		return false
	}
	lf, ok := firstNounLexFile(r.senses.wn, w)
	return ok && lf == lexNounPerson
}

// clauseWords are the words of a clause, punctuation dropped.
func clauseWords(clause string) []string {
	return strings.FieldsFunc(clause, func(r rune) bool { return !unicode.IsLetter(r) && r != '’' && r != '\'' })
}

// writingNoun reports whether one of w's WordNet noun senses is of
// communication or cognition ("words", "burden", "vision").
func (r *Retriever) writingNoun(w string) bool {
	if r.senses == nil {
		return false
	}
	for _, l := range r.senses.wn.Lookup(w) {
		if l.POS != wordnet.Noun {
			continue
		}
		for _, s := range l.Senses {
			if lf := int(s.Synset.LexFile); lf == lexNounCommunication || lf == lexNounCognition {
				return true
			}
		}
	}
	return false
}

// WriterFact is the verse that names the writer of the book (or chapter)
// a question asks about, and the name.
type WriterFact struct {
	// Work is how the answer names what was written: "the book of
	// Romans", "Psalms 23", "Proverbs 31".
	Work  string
	Name  string
	Verse corpus.VerseID
	// Title is the psalm's title that names the writer ("A Psalm of
	// David"), empty when the verse's text does.
	Title string
}

// writerQuestionFor builds the question a writer question is answered by:
// the verse naming the writer, its one candidate. ok is false when the
// book's opening names no one.
func (a *Answerer) writerQuestionFor(question string, ask writerAsk, maxRefs int) (Question, bool) {
	v, name, ok := a.r.namedWriter(ask)
	if !ok {
		return Question{}, false
	}
	work := "the book of " + ask.book.Name
	switch {
	case ask.chapter > 0 && ask.book.Name == "Psalms":
		work = "Psalm " + strconv.Itoa(ask.chapter) // one psalm: "Psalm 23"
	case ask.chapter > 0:
		work = ask.book.Name + " " + strconv.Itoa(ask.chapter)
	}
	f := WriterFact{Work: work, Name: name, Verse: v.ID}
	if strings.Contains(openingClause(v.Title), name) {
		f.Title = strings.TrimRight(strings.TrimSpace(v.Title), ".")
	}
	return Question{Text: question, MaxRefs: maxRefs, Writer: &f,
		Candidates: []Candidate{{N: 1, Verse: v, Evidence: 1, Key: true}}}, true
}

// writerSentences say whom the opening names, and quote it: "The book of
// Romans opens with the name of Paul (Romans 1:1). Romans 1:1 reads:
// "Paul, a servant of Jesus Christ…" (Romans 1:1)."; a psalm's title is
// quoted as its name: "The title of Psalms 23 names David: "A Psalm of
// David" (Psalms 23:1).". Nil when the verse cannot be cited.
func (c *composition) writerSentences() []string {
	w := c.q.Writer
	ref, ok := c.cite([]corpus.VerseID{w.Verse})
	if !ok {
		return nil
	}
	if w.Title != "" {
		return []string{fmt.Sprintf("The title of %s names %s: \"%s\" (%s).", w.Work, w.Name, w.Title, ref)}
	}
	lead := fmt.Sprintf("%s opens with the name of %s (%s).", upperFirst(w.Work), w.Name, ref)
	if w.Verse.Verse() > 1 {
		lead = fmt.Sprintf("%s names %s as its sender in its opening (%s).", upperFirst(w.Work), w.Name, ref)
	}
	c.first = c.chosenRun(w.Verse)
	text := quotation(c.spanText(c.first), maxQuoteRunes, cutQuoteRunes, minCutRunes)
	return []string{lead, fmt.Sprintf("%s reads: \"%s\" (%s).", ref, text, ref)}
}
