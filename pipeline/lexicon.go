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
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/store"
)

// Word-meaning questions ("What does agape mean?", "What does the name
// Abraham mean?", "What is the Greek word for love?", "What does charity
// mean in the KJV?") are answered from Strong's dictionary and the KJV's
// Strong's tags, both read at ingest from Debian's modules: which Hebrew or
// Greek word the asked one is, what Strong says it means, and the verses
// where the KJV translates it. No word list here is written by hand: the
// KJV's own tags say which English word renders which original one.

// Lexicon is Strong's dictionary with the KJV words it tags, in memory.
type Lexicon struct {
	lemmas map[string]corpus.Lemma
	// translit maps a transliteration as readers type it (folded to
	// plain letters: "agape", "shalom") to the numbers so written.
	translit map[string][]string
	// english maps a lower-case KJV word to the numbers it renders, with
	// how often; capital counts its uses written with a capital letter.
	english map[string]map[string]int
	capital map[string]int
	// uses are each number's verses in order, with the KJV's words for it
	// there.
	uses map[string][]lexUse
}

// lexUse is one verse where the KJV translates a lemma.
type lexUse struct {
	verse corpus.VerseID
	// words are the KJV's lower-case words for it in the verse, one a
	// time it occurs ("charity", "charity", "charity": 1 Corinthians 13:4).
	words []string
}

// times counts the lemma's uses in the verse rendered by the KJV's word
// rendered, or all of them when rendered is "".
func (u lexUse) times(rendered string) int {
	if rendered == "" {
		return len(u.words)
	}
	n := 0
	for _, w := range u.words {
		if slices.Contains(strings.Fields(w), rendered) {
			n++
		}
	}
	return n
}

// LoadLexicon reads Strong's dictionary and the KJV's tagged words from st.
func LoadLexicon(ctx context.Context, st *store.Store) (*Lexicon, error) {
	lemmas, words, err := st.Lexicon(ctx)
	if err != nil {
		return nil, err
	}
	return NewLexicon(lemmas, words), nil
}

// NewLexicon indexes lemmas and the KJV's tagged words (in verse order).
func NewLexicon(lemmas []corpus.Lemma, words []corpus.TaggedWord) *Lexicon {
	x := &Lexicon{lemmas: make(map[string]corpus.Lemma, len(lemmas)), translit: map[string][]string{},
		english: map[string]map[string]int{}, capital: map[string]int{}, uses: map[string][]lexUse{}}
	for _, l := range lemmas {
		x.lemmas[l.Number] = l
		for _, f := range foldTransliteration(l.Transliteration) {
			if !slices.Contains(x.translit[f], l.Number) {
				x.translit[f] = append(x.translit[f], l.Number)
			}
		}
	}
	for _, w := range words {
		var lower []string
		for _, tok := range kjvWords(w.Text) {
			l := strings.ToLower(tok)
			if isStop(l) {
				continue
			}
			lower = append(lower, l)
			if x.english[l] == nil {
				x.english[l] = map[string]int{}
			}
			x.english[l][w.Number]++
			if r := []rune(tok)[0]; unicode.IsUpper(r) {
				x.capital[l]++
			}
		}
		us := x.uses[w.Number]
		if len(us) == 0 || us[len(us)-1].verse != w.Verse {
			us = append(us, lexUse{verse: w.Verse})
		}
		us[len(us)-1].words = append(us[len(us)-1].words, strings.Join(lower, " "))
		x.uses[w.Number] = us
	}
	return x
}

// kjvWords are the words of a tagged word's text; a hyphenated one is
// also a word joined ("Beth-lehem" is Bethlehem, "I-chabod" Ichabod, as
// readers write them) besides its parts.
func kjvWords(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) {
		parts := strings.FieldsFunc(f, func(r rune) bool { return r == '-' })
		out = append(out, parts...)
		if len(parts) > 1 {
			out = append(out, strings.Join(parts, ""))
		}
	}
	return out
}

// foldTransliteration writes a transliteration as readers type it: lower
// case, accents and breathings off ("agápē" → "agape", "'abrâhâm" →
// "abraham"). Strong writes a long vowel with its Hebrew vowel letter
// ("îy", "ûw", "ôw": 'ĕlôhîym, rûwach); the spelling without it
// ("elohim") is indexed too.
func foldTransliteration(s string) []string {
	var b, plain strings.Builder
	rs := []rune(norm.NFD.String(strings.ToLower(s)))
	for i, r := range rs {
		if r > unicode.MaxASCII || !unicode.IsLetter(r) {
			continue
		}
		b.WriteRune(r)
		// A vowel letter after a marked long vowel: the NFD form has the
		// mark (a circumflex) between them.
		if (r == 'y' || r == 'w') && i >= 2 && rs[i-1] == '\u0302' {
			continue
		}
		plain.WriteRune(r)
	}
	out := []string{b.String()}
	if p := plain.String(); p != out[0] {
		out = append(out, p)
	}
	if out[0] == "" {
		return nil
	}
	return out
}

// wordAsk is a question asking what a word means, as wordQuestion reads it.
type wordAsk struct {
	// word is the asked word, lower case; typed is as the question
	// wrote it (two words of a hyphenated name apart: "jehovah jireh").
	word, typed string
	// lang is 'G' or 'H' when the question names Greek or Hebrew (or
	// Aramaic, whose words Strong's Hebrew dictionary holds), else 0.
	lang byte
	// english is set when the question names an English word and asks
	// for the original behind it ("What is the Greek word for love?").
	english bool
}

// The forms of a word-meaning question, read from its lower-cased words:
// "what does (the) (Greek) (word|name) X mean (in the Bible)", "(what is)
// the meaning of (the name) X", "X meaning", "define X", "what is the
// Greek word for X", "which Hebrew word is translated X".
var (
	wordTail  = `(?: in (?:the )?(?:bible|kjv|king james(?: bible| version)?|scriptures?|new testament|old testament|greek|hebrew|aramaic|original(?: language)?))?`
	wordLang  = `(?:(greek|hebrew|aramaic) )?`
	wordKind  = `(?:(?:word|name|term) )?`
	wordAsked = []*regexp.Regexp{
		regexp.MustCompile(`^what (?:does|do|did) (?:the )?` + wordLang + wordKind + `(\pL+(?: \pL+)?) (?:mean|means|signify)` + wordTail + `$`),
		regexp.MustCompile(`^(?:what is |what's )?(?:the )?meaning of (?:the )?` + wordLang + wordKind + `(\pL+(?: \pL+)?)` + wordTail + `$`),
		regexp.MustCompile(`^` + wordLang + wordKind + `(\pL+(?: \pL+)?) meaning` + wordTail + `$`),
		regexp.MustCompile(`^define (?:the )?` + wordLang + wordKind + `(\pL+(?: \pL+)?)` + wordTail + `$`),
	}
	originalAsked = []*regexp.Regexp{
		regexp.MustCompile(`^(?:what is |what's |which is )?(?:the )?(greek|hebrew|aramaic) (?:word|term)s? (?:for|behind|translated(?: as)?|rendered(?: as)?|used for) (\pL+)` + wordTail + `$`),
		regexp.MustCompile(`^(?:which|what) (greek|hebrew|aramaic) words? (?:is|are) (?:translated|rendered|used for)(?: as)? (\pL+)` + wordTail + `$`),
	}
)

// wordQuestion reads a question asking what one word means, or which
// original word an English one translates; ok is false for any other.
func wordQuestion(question string) (wordAsk, bool) {
	q := strings.Map(func(r rune) rune {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’':
			// Digits stay, so a reference ("John 3:16") is no word.
			return unicode.ToLower(r)
		case r == '"' || r == '“' || r == '”' || r == '‘':
			return -1
		}
		return ' '
	}, question)
	// Quotes around the word ('charity') go; an apostrophe within a word
	// stays (what's).
	q = " " + strings.Join(strings.Fields(strings.ReplaceAll(q, "’", "'")), " ") + " "
	q = strings.Join(strings.Fields(strings.NewReplacer(" '", " ", "' ", " ").Replace(q)), " ")
	lang := func(s string) byte {
		switch s {
		case "greek":
			return 'G'
		case "hebrew", "aramaic":
			return 'H'
		}
		return 0
	}
	for _, re := range originalAsked {
		if m := re.FindStringSubmatch(q); m != nil && !isStop(m[2]) {
			return wordAsk{word: m[2], typed: m[2], lang: lang(m[1]), english: true}, true
		}
	}
	for _, re := range wordAsked {
		// Two words are a name the KJV hyphenates ("Jehovah jireh" is
		// Jehovah-jireh), looked up joined.
		if m := re.FindStringSubmatch(q); m != nil && !isStop(m[2]) {
			return wordAsk{word: strings.ReplaceAll(m[2], " ", ""), typed: m[2], lang: lang(m[1])}, true
		}
	}
	return wordAsk{}, false
}

// Lexicon answers' limits.
const (
	// maxLemmas is how many original words an answer names: an English
	// word the KJV uses for several ("love": agápē, agapáō, phileō).
	maxLemmas = 3
	// minLemmaShare is the share of an English word's tagged uses a lemma
	// needs to be named among its originals.
	minLemmaShare = 0.15
)

// wordPick is one lemma an answer tells of, with the words it was asked
// by.
type wordPick struct {
	lemma corpus.Lemma
	// rendered is the KJV word the question asked about ("charity"),
	// empty when it asked by the transliteration: the verses are then
	// those rendering it so.
	rendered string
	// uses counts the KJV's tagged uses of the lemma (as rendered).
	uses int
	// name is set when the KJV writes the word as a name (capitalised in
	// nearly every use): the answer tells what the name means.
	name bool
}

// picks resolves an asked word to the lemmas an answer tells of, most used
// first: by the KJV words the tags say render them, or by transliteration
// when a lemma so written is used more often than the KJV's word ("shalom"
// is the Hebrew for peace, not the KJV's one Jehovah-shalom). Nil when
// the lexicon knows neither. A name is told by the original it is first
// used for (Eve is Hebrew before she is Greek).
func (x *Lexicon) picks(ask wordAsk) []wordPick {
	inLang := func(n string) bool { return ask.lang == 0 || n[0] == ask.lang }
	var spelt []wordPick
	if !ask.english {
		for _, f := range foldTransliteration(ask.word) {
			for _, n := range x.translit[f] {
				l := x.lemmas[n]
				if inLang(n) && l.Gloss != "" && !slices.ContainsFunc(spelt, func(p wordPick) bool { return p.lemma.Number == n }) {
					spelt = append(spelt, wordPick{lemma: l, uses: x.taggedUses(n)})
				}
			}
		}
		// Two lemmas written alike: the one the KJV translates more often.
		slices.SortStableFunc(spelt, func(a, b wordPick) int { return b.uses - a.uses })
		spelt = spelt[:min(len(spelt), 1)]
	}
	counts := x.english[ask.word]
	total := 0
	var nums []string
	for n, c := range counts {
		if _, ok := x.lemmas[n]; ok && inLang(n) {
			total += c
			nums = append(nums, n)
		}
	}
	if total == 0 || len(spelt) > 0 && spelt[0].uses > total && counts[spelt[0].lemma.Number] == 0 {
		return spelt
	}
	uses := 0
	for _, c := range counts {
		uses += c
	}
	name := x.capital[ask.word]*10 >= uses*9
	slices.SortFunc(nums, func(a, b string) int {
		if name {
			return cmp.Compare(x.uses[a][0].verse, x.uses[b][0].verse)
		}
		return cmp.Or(counts[b]-counts[a], cmp.Compare(a, b))
	})
	var out []wordPick
	for _, n := range nums {
		l := x.lemmas[n]
		if l.Gloss == "" || float64(counts[n]) < minLemmaShare*float64(total) {
			continue
		}
		p := wordPick{lemma: l, rendered: ask.word, uses: counts[n], name: name && namesInGloss(l.Gloss)}
		if out = append(out, p); len(out) == maxLemmas || name {
			break
		}
	}
	return out
}

// taggedUses counts the KJV's tagged words translating lemma n.
func (x *Lexicon) taggedUses(n string) int {
	c := 0
	for _, u := range x.uses[n] {
		c += len(u.words)
	}
	return c
}

// namesInGloss reports whether a gloss names someone or something: Strong
// writes the name after its meaning, capitalised ("father of a multitude;
// Abraham, the later name of Abram"), as no gloss of a common word does
// ("suspension (of music), that is, pause" for the KJV's Selah).
func namesInGloss(gloss string) bool {
	for i, w := range strings.Fields(gloss) {
		if r := []rune(strings.TrimLeft(w, "(")); i > 0 && len(r) > 0 && unicode.IsUpper(r[0]) {
			return true
		}
	}
	return false
}

// Verse choice for a lemma: of the verses translating it, those that show
// its meaning. The weights were set on worddev.jsonl.
const (
	// lexGlossWeight weighs the share of the gloss's words (idf-weighted)
	// a verse holds beside the word itself: "father of a multitude" and
	// Genesis 17:5's "a father of many nations".
	lexGlossWeight = 2.0
	// lexListedWeight weighs how many Nave's entries list the verse
	// (log): the verses a topical Bible turns to.
	lexListedWeight = 0.5
	// lexRepeatWeight weighs each further use of the word in the verse
	// (1 Corinthians 13:4's charity, three times).
	lexRepeatWeight = 0.5
	// lexNamingWeight is the weight of a verse that gives a name ("called
	// his name", "thy name shall be"), and lexFirstWeight that of the
	// first verse writing it, for a name's meaning: a name is explained
	// where it is given, and it is given before it is used.
	lexNamingWeight = 1.5
	lexFirstWeight  = 2.5
)

// lexVerses are the verses of one lemma an answer may cite, best first.
func (a *Answerer) lexVerses(p wordPick, n int) []corpus.VerseID {
	x := a.r.Lexicon
	gloss := map[string]float64{}
	total := 0.0
	meaning := p.lemma.Gloss
	if p.name {
		// A name's gloss is its meaning, then whose name it is
		// ("father of a multitude; Abraham, the later name of Abram").
		meaning, _, _ = strings.Cut(meaning, ";")
	}
	a.r.lex.an.terms(meaning, func(t string) {
		if _, seen := gloss[t]; !seen {
			gloss[t] = a.r.lex.termIDF(t)
			total += gloss[t]
		}
	})
	naming := a.r.lex.an.termSet("name called")
	type scored struct {
		id    corpus.VerseID
		score float64
	}
	var out []scored
	first := true
	for _, u := range x.uses[p.lemma.Number] {
		times := u.times(p.rendered)
		if times == 0 {
			continue
		}
		v, ok := a.r.Verse(u.verse)
		if !ok {
			continue
		}
		own := map[string]bool{}
		for _, w := range u.words {
			a.r.lex.an.terms(w, func(t string) { own[t] = true })
		}
		held, names := map[string]bool{}, false
		a.r.lex.an.terms(v.Text, func(t string) {
			if gloss[t] > 0 && !own[t] {
				held[t] = true
			}
			names = names || naming[t]
		})
		s := 0.0
		for t := range held {
			s += gloss[t]
		}
		if total > 0 {
			s = lexGlossWeight * s / total
		}
		if tl, ok := a.Router.(topicLister); ok {
			s += lexListedWeight * math.Log1p(float64(len(tl.Listed(u.verse))))
		}
		s += lexRepeatWeight * float64(times-1)
		if p.name && names {
			s += lexNamingWeight
		}
		if p.name && first {
			s += lexFirstWeight
		}
		first = false
		out = append(out, scored{u.verse, s})
	}
	slices.SortStableFunc(out, func(a, b scored) int { return cmp.Compare(b.score, a.score) })
	ids := make([]corpus.VerseID, 0, n)
	for _, s := range out[:min(len(out), n)] {
		ids = append(ids, s.id)
	}
	return ids
}

// WordFact is a Strong's dictionary entry a word-meaning question asks
// about: what the original word is and means, and the candidate verses
// translating it, best first.
type WordFact struct {
	Lemma corpus.Lemma
	// Asked is the word as the question asked it ("agape", "charity").
	Asked string
	// Rendered is set when Asked is the KJV's word for the lemma.
	Rendered bool
	// Name is set when the KJV writes the word as a name.
	Name bool
	// English is set when the question asked for the original word
	// behind an English one.
	English bool
	// Uses counts the KJV's tagged uses (as rendered, when Rendered).
	Uses   int
	Verses []corpus.VerseID
}

// wordEntries are the API's form of a word-meaning question's entries.
func wordEntries(ws []WordFact) []api.WordEntry {
	out := make([]api.WordEntry, len(ws))
	for i, w := range ws {
		out[i] = api.Word(w.Lemma, w.Uses)
	}
	return out
}

// wordQuestionFor builds the question a word-meaning ask is answered by:
// the lemmas' facts and their verses as candidates. ok is false when the
// lexicon knows no lemma for the word, or none has a verse.
func (a *Answerer) wordQuestionFor(question string, ask wordAsk, maxRefs int) (Question, bool) {
	if a.r.Lexicon == nil {
		return Question{}, false
	}
	picks := a.r.Lexicon.picks(ask)
	per := max(2, 2*maxRefs/max(1, len(picks)))
	var words []WordFact
	var ids []corpus.VerseID
	for _, p := range picks {
		vs := a.lexVerses(p, per)
		if len(vs) == 0 {
			continue
		}
		words = append(words, WordFact{Lemma: p.lemma, Asked: ask.typed, Rendered: p.rendered != "", Name: p.name,
			English: ask.english, Uses: p.uses, Verses: vs})
		for _, id := range vs {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	if len(words) == 0 {
		return Question{}, false
	}
	q := Question{Text: question, MaxRefs: maxRefs, Words: words}
	if !ask.english && !words[0].Name {
		// A curated hub's definition leads ("Grace is God's undeserved
		// kindness and help") when one of its passages translates the
		// word as asked: the lexicon, not the hub's word list, found it
		// relevant (hubFacts). Asked for the original word, or what a name
		// means, the answer is that.
		q.Hubs = lexHubs(hubFacts(question), a.r.Lexicon.uses[words[0].Lemma.Number], picks[0].rendered)
		for _, h := range q.Hubs {
			for _, id := range h.Verses {
				if !slices.Contains(ids, id) {
					ids = append(ids, id)
				}
			}
		}
	}
	for _, id := range ids {
		// The retriever's copy of the verses, as the search's candidates
		// are; the references are read from the database (write).
		if v, ok := a.r.Verse(id); ok {
			// Each verse holds the word asked about: evidence enough.
			q.Candidates = append(q.Candidates, Candidate{N: len(q.Candidates) + 1, Verse: v, Evidence: 1, Key: true})
		}
	}
	return q, len(q.Candidates) > 0
}

// lexHubs is the first hub with a definition one of whose passages
// translates the lemma (uses; by the KJV's word rendered, when set), with
// that passage's verses alone: the first that translates it, and the
// hub's verses adjacent to it (Ephesians 2:8-9, which finishes 2:8's
// sentence).
func lexHubs(hubs []HubFact, uses []lexUse, rendered string) []HubFact {
	translates := func(id corpus.VerseID) bool {
		i, found := slices.BinarySearchFunc(uses, id, func(u lexUse, id corpus.VerseID) int { return cmp.Compare(u.verse, id) })
		return found && uses[i].times(rendered) > 0
	}
	for _, h := range hubs {
		i := slices.IndexFunc(h.Verses, translates)
		if i < 0 || firstSentence(h.Summary) == "" {
			continue
		}
		run := []corpus.VerseID{h.Verses[i]}
		for next := run[0] + 1; slices.Contains(h.Verses, next) && next.Chapter() == run[0].Chapter(); next++ {
			run = append(run, next)
		}
		h.Verses = run
		return []HubFact{h}
	}
	return nil
}

// wordSentences are the composer's sentences for the word facts: for
// each lemma what it is and means, tied to its first verse that fits, and
// a quotation of the first lemma's verse.
func (c *composition) wordSentences() []string {
	// A hub's definition first, tied to its passage, which is then the
	// one quoted.
	out := c.hubSentences()
	hubbed := len(out) > 0
	for i, w := range c.q.Words {
		var ref string
		var span []corpus.VerseID
		for _, id := range w.Verses {
			if r, ok := c.cite([]corpus.VerseID{id}); ok {
				ref, span = r, c.chosenRun(id)
				break
			}
		}
		if ref == "" {
			break
		}
		out = append(out, wordSentence(w, i == 0)+" ("+ref+").")
		if i == 0 && !hubbed {
			c.first = span
		}
	}
	if len(out) == 0 || hubbed && len(out) == 1 {
		return nil
	}
	text := quotation(c.spanText(c.first), maxQuoteRunes, cutQuoteRunes, minCutRunes)
	ref := spanReference(c.first)
	at := 1
	if hubbed {
		at = 2
	}
	out = slices.Insert(out, at, fmt.Sprintf("%s reads: \"%s\" (%s).", ref, text, ref))
	// The references left are filled with more verses translating the
	// first lemma, in the order chosen (lexVerses), so that a reader
	// sees the word at work in more than one place.
	var more []string
	for _, id := range c.q.Words[0].Verses {
		if slices.Contains(c.chosen, id) {
			continue
		}
		if r, ok := c.cite([]corpus.VerseID{id}); ok {
			more = append(more, r)
		}
	}
	if len(more) > 0 {
		out = append(out, fmt.Sprintf("The King James Version also translates it in %s.", joinAnd(more)))
	}
	return out
}

// wordSentence says what a lemma is and means, without its citation:
// "Agape is the Greek word ἀγάπη (agápē, Strong's G26), which Strong's
// dictionary defines as love, i.e. affection or benevolence".
func wordSentence(w WordFact, first bool) string {
	lang := "Hebrew"
	if w.Lemma.Greek() {
		lang = "Greek"
	}
	orig := w.Lemma.Transliteration + " (Strong's " + w.Lemma.Number + ")"
	if w.Lemma.Lemma != "" {
		orig = w.Lemma.Lemma + " (" + w.Lemma.Transliteration + ", Strong's " + w.Lemma.Number + ")"
	}
	gloss := lexGloss(w.Lemma.Meaning())
	asked := upperFirst(w.Asked)
	switch {
	case w.Name:
		words := strings.Fields(w.Asked)
		for i, word := range words {
			words[i] = upperFirst(word)
		}
		asked = strings.Join(words, " ")
		meaning, who, _ := strings.Cut(gloss, ";")
		s := fmt.Sprintf("The name %s is the %s %s, meaning %s", asked, lang, orig, strings.TrimSpace(meaning))
		if who = strings.TrimSpace(who); who != "" {
			s += "; Strong's dictionary adds: " + who
		}
		return s
	case w.English || w.Rendered:
		times := "once"
		if w.Uses > 1 {
			times = fmt.Sprintf("%d times", w.Uses)
		}
		lead := fmt.Sprintf("In the King James Version, %s translates", w.Asked)
		if !first {
			lead = "It also translates"
		}
		return fmt.Sprintf("%s the %s word %s %s, which Strong's dictionary defines as %s", lead, lang, orig, times, gloss)
	default:
		return fmt.Sprintf("%s is the %s word %s, which Strong's dictionary defines as %s", asked, lang, orig, gloss)
	}
}

// upperFirst writes s with a capital first letter.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// lexGloss tidies a meaning for a sentence: the gaps where the dictionary's
// cross-references stood ("(larger than )") and the commas Strong's
// Hebrew dictionary leaves before a parenthesis ("(of music,)") go, and an
// abbreviation's full stop before a capital ("Mt. Moriah") is followed by
// a no-break space, so the gloss stays one sentence.
func lexGloss(g string) string {
	g = lexStop.ReplaceAllString(lexDefinition(g), ".\u00a0$1")
	// A number the definition cites reads as one in a sentence: "(much
	// like Strong's G1)".
	return lexNumber.ReplaceAllString(g, "Strong's $1")
}

// lexDefinition tidies a lemma's meaning for a sentence (lexGloss adds
// the no-break spaces). A definition read at ingest needs little of it;
// a gloss (a lemma stored before definitions) has gaps where the
// dictionary's cross-references stood.
func lexDefinition(g string) string {
	g = lexGap.ReplaceAllString(g, "")
	// Strong's Hebrew module has a "6" for a comma at some lines' ends
	// ("happy 6 friendly").
	g = lexSix.ReplaceAllString(g, "$1, $2")
	g = strings.NewReplacer(",)", ")", " ;", ";", " ,", ",").Replace(g)
	return strings.TrimRight(strings.TrimSpace(g), ";,.")
}

var (
	lexGap  = regexp.MustCompile(`\s*\([^()]*\s\)`)
	lexStop = regexp.MustCompile(`\. (\p{Lu})`)
	lexSix  = regexp.MustCompile(`(\pL) 6 (\pL)`)
	// lexNumber is a Strong's number in a definition.
	lexNumber = regexp.MustCompile(`\b([GH][1-9][0-9]*)\b`)
)

// alwaysCapital reports whether the KJV's tagged words write the
// lower-cased word l, wherever they use it, with a capital: a name, even
// one that only opens verses ("Jude").
func (x *Lexicon) alwaysCapital(l string) bool {
	uses := 0
	for _, n := range x.english[l] {
		uses += n
	}
	return uses > 0 && x.capital[l] == uses
}
