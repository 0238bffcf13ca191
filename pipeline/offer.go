package pipeline

import (
	"context"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/selahdev/selah/corpus/topics"
	"github.com/selahdev/selah/corpus/wordnet"
)

// Offered verses: "a good verse for a wedding card", "what scripture can
// we read at our daughter's christening", "easter verses for our church
// bulletin" ask for a verse to give or read for an occasion, not what the
// Bible says of a wedding (the parable of the wedding garment) or of
// cards. The verses a teacher offers are the key passages of the theme
// the occasion is about (corpus/topics keys): MARRIAGE for a wedding,
// BAPTISM for a christening, RESURRECTION for Easter. Nothing on the
// machine lists occasions; WordNet says what each is, and the theme is
// the key list titled by a word WordNet relates the occasion to: its
// synonyms ("wedding": marriage), its broader terms ("christening":
// baptism) or its definition ("Easter": "a Christian celebration of the
// Resurrection of Christ"). The answer is the theme's first key passages
// in the key list's order (Answerer.offered); a request naming no
// occasion WordNet relates to a theme is answered as any question.

// verseWords name a passage of Scripture asked for.
var verseWords = map[string]bool{
	"verse": true, "verses": true, "scripture": true, "scriptures": true,
	"passage": true, "passages": true,
}

// occasionPreps open the occasion after the verse asked for: "a verse
// for a wedding", "to read at a funeral", "in a sympathy card", "before
// thanksgiving dinner". Not "on" or "about", which open a subject ("verses
// on laziness"), answered as any question.
var occasionPreps = map[string]bool{
	"for": true, "at": true, "in": true, "into": true, "before": true,
}

// medium are the lexicographer files of the medium a verse is written on
// or in, no occasion: an artifact, food, and noun.communication (an
// announcement, a bulletin, the verse itself). A collocation whose first
// sense is one ("sympathy card", WordNet's "a card expressing
// condolence") is read by its words.
var medium = map[uint8]bool{lexNounArtifact: true, lexNounCommunication: true, lexNounFood: true}

// occasionSense are the lexicographer files of the noun senses an
// occasion is read in: an act (a baptism), an event (a wedding), a time
// (Easter), a state (retirement), a feeling (sympathy), what is known or
// held (cognition, attribute) or a process; not a place (the front), a
// group (a party), a natural phenomenon (Easter, the east wind) or a
// thing.
var occasionSense = map[uint8]bool{
	lexNounAct: true, lexNounAttribute: true, lexNounCognition: true, lexNounEvent: true,
	lexNounFeeling: true, lexNounProcess: true, lexNounState: true, lexNounTime: true,
}

// offerWord is a word of an offer request that may name its occasion,
// with whether it names the person the verse is for.
type offerWord struct {
	word   string
	person bool
}

// offerOccasion returns the words of question that may name the occasion
// a verse is asked for, most likely first: those just before the verse
// word ("easter verses", "birthday card verse"), then those of the phrase
// after it and its preposition ("for a new baby card"), each phrase read
// from its head back ("graduation" before "school" in "high school
// graduation"); a person last ("for my mom"). ok is false when the
// question asks for no verse.
func offerOccasion(wn *wordnet.WordNet, question string) (words []offerWord, ok bool) {
	toks := offerTokens(question)
	at := slices.IndexFunc(toks, func(t string) bool { return verseWords[t] })
	if at < 0 {
		return nil, false
	}
	var before []string
	// Before the verse word: the run of words naming what it is for.
	i := at - 1
	for ; i >= 0; i-- {
		t := toks[i]
		if t == "" || isStop(t) || t == "bible" || t == "kjv" || t == "good" {
			break
		}
		before = append([]string{t}, before...)
	}
	if i >= 0 && toks[i] == "the" {
		// "the suffering servant passage" names a passage; it is asked
		// about, not for an occasion.
		before = nil
	}
	// After it: the phrases opened by a preposition, each up to the next
	// word that is no noun's modifier (a preposition, a relative "who",
	// any other stop word), to the end of the sentence: "for a mothers
	// day card for my mom".
	var after [][]string
	open := false
loop:
	for _, t := range toks[at+1:] {
		switch {
		case t == "":
			break loop
		case occasionPreps[t]:
			open = true
			after = append(after, nil)
		case open && len(after[len(after)-1]) == 0 && (determiners[t] || t == "the"):
		case open && !isStop(t):
			after[len(after)-1] = append(after[len(after)-1], t)
		default:
			open = false
		}
	}
	var people []offerWord
	for _, phrase := range append([][]string{before}, after...) {
		for _, t := range nounUnits(wn, phrase) {
			person := false
			if isPossessive(t) {
				person, t = true, strings.TrimSuffix(strings.TrimSuffix(t, "'s"), "’s")
			}
			switch lex, _ := firstNounLex(wn, t); {
			case medium[lex]:
			case person || lex == lexNounPerson:
				people = append(people, offerWord{t, true})
			default:
				words = append(words, offerWord{t, false})
			}
		}
	}
	return append(words, people...), true
}

// nounUnits returns a phrase's words from its head back, two words
// WordNet holds as one noun read as one ("new year", "mothers day" as
// Mother's Day).
func nounUnits(wn *wordnet.WordNet, phrase []string) []string {
	var out []string
	for i := len(phrase) - 1; i >= 0; i-- {
		if i > 0 {
			pair := phrase[i-1] + " " + phrase[i]
			if lex, ok := firstNounLex(wn, pair); ok && !medium[lex] {
				out = append(out, pair)
				i--
				continue
			}
			p := strings.TrimSuffix(phrase[i-1], "s") + "'s " + phrase[i]
			if lex, ok := firstNounLex(wn, p); ok && !medium[lex] {
				out = append(out, p)
				i--
				continue
			}
		}
		out = append(out, phrase[i])
	}
	return out
}

// firstNounLex returns the lexicographer file of w's first noun sense.
func firstNounLex(wn *wordnet.WordNet, w string) (uint8, bool) {
	for _, l := range wn.Lookup(w) {
		if l.POS == wordnet.Noun && len(l.Senses) > 0 {
			return l.Senses[0].LexFile, true
		}
	}
	return 0, false
}

// offerTokens splits question into lower-case words, keeping
// apostrophes; a punctuation mark ending a clause is an empty token.
func offerTokens(question string) []string {
	var out []string
	for _, f := range strings.Fields(strings.ToLower(question)) {
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’' })
		w = strings.Trim(w, "'’")
		if w != "" {
			out = append(out, w)
		}
		if last := f[len(f)-1]; w == "" || strings.ContainsRune(",.?!;:/-", rune(last)) {
			out = append(out, "")
		}
	}
	return out
}

// maxGlossShare bounds how common a word of a definition may be, as the
// share of WordNet's synsets whose definitions hold it, for it to name a
// theme: "a ceremony at which a dead person is buried" says dead (in
// about 0.1% of definitions), not person (2%). Broader terms are read
// the same way. Chosen on occasiondev.
const maxGlossShare = 0.002

// occasionThemes is what offer requests read of WordNet and the key
// lists, built once: the key theme each word's base form titles (one-word
// titles of abstractions: CHILDREN for child, not the person JOB), and
// how many definitions hold each word.
type occasionThemes struct {
	titled map[string]string
	df     map[string]int
	n      int
}

// newOccasionThemes reads the index from wn; entity reports whether a
// Nave's title names a person or place (Retriever.namesEntity).
func newOccasionThemes(wn *wordnet.WordNet, entity func(title string) bool) *occasionThemes {
	o := &occasionThemes{titled: map[string]string{}, df: map[string]int{}}
	for _, title := range slices.Sorted(maps.Keys(topics.Keys())) {
		if strings.ContainsAny(title, " ,-") || entity(title) {
			continue
		}
		w := strings.ToLower(title)
		for _, b := range append([]string{w}, wn.BaseForms(w)...) {
			if _, ok := o.titled[b]; !ok || b == w {
				o.titled[b] = title
			}
		}
	}
	// Each word's base forms once: the definitions hold about a million
	// words.
	bases := map[string][]string{}
	_ = wn.EachSynset(func(s *wordnet.Synset) error {
		o.n++
		seen := map[string]bool{}
		for _, w := range definitionWords(s.Gloss) {
			bs, ok := bases[w]
			if !ok {
				bs = append([]string{w}, wn.BaseForms(w)...)
				bases[w] = bs
			}
			for _, b := range bs {
				if !seen[b] {
					seen[b] = true
					o.df[b]++
				}
			}
		}
		return nil
	})
	return o
}

// occasionTheme returns the key-passage theme WordNet relates an
// occasion's word to: the theme titled by the word, else by a synonym or
// derived form of its first two noun senses, else by a rare word of a
// definition (maxGlossShare), else by a broader term; "" when none. A
// person (the verse is for "my mom") is read by the word and its
// synonyms and broader terms, not its definition: "a very young child
// (birth to 1 year)" is about no year.
func (r *Retriever) occasionTheme(w offerWord) string {
	wn := r.senses.wn
	o := r.offer()
	key := func(w string) string {
		for _, b := range append([]string{w}, wn.BaseForms(w)...) {
			if t, ok := o.titled[b]; ok {
				return t
			}
		}
		return ""
	}
	// A related word titles a theme itself or by a derived form of any
	// of its senses: a funeral's definition's "buried" names BURIAL.
	related := func(x string) string {
		if t := key(x); t != "" {
			return t
		}
		for _, s := range wn.Senses(x, 0) {
			for _, d := range s.Derived {
				if t := key(d); t != "" {
					return t
				}
			}
		}
		return ""
	}
	if t := key(w.word); t != "" {
		return t
	}
	var nouns []wordnet.Sense
	n := 2
	if w.person {
		n = 1
	}
	for _, s := range wn.Senses(w.word, n) {
		if s.POS == wordnet.Noun && (w.person || occasionSense[s.LexFile]) {
			nouns = append(nouns, s)
		}
	}
	rare := func(x string) bool {
		return float64(o.df[x]) <= maxGlossShare*float64(o.n)
	}
	rels := []func(s wordnet.Sense) []string{
		func(s wordnet.Sense) []string { return append(append([]string(nil), s.Synonyms...), s.Derived...) },
		func(s wordnet.Sense) []string {
			if w.person {
				return nil
			}
			var out []string
			for _, x := range definitionWords(s.Gloss) {
				if rare(x) {
					out = append(out, x)
				}
			}
			return out
		},
		func(s wordnet.Sense) []string {
			if w.person {
				return s.Hypernyms
			}
			// A broader term is read only when none of its words is
			// common: "act, deed, human action" is every act's.
			if slices.ContainsFunc(s.Hypernyms, func(x string) bool { return !rare(x) }) {
				return nil
			}
			return s.Hypernyms
		},
	}
	for _, rel := range rels {
		for _, s := range nouns {
			for _, x := range rel(s) {
				if isStop(x) || strings.Contains(x, " ") {
					continue
				}
				if t := related(x); t != "" {
					return t
				}
			}
		}
	}
	return ""
}

// definitionWords are the words of a WordNet gloss's definition, before
// its examples.
func definitionWords(gloss string) []string {
	if i := strings.IndexAny(gloss, ";\""); i >= 0 {
		gloss = gloss[:i]
	}
	var out []string
	for _, t := range offerTokens(gloss) {
		if t != "" {
			out = append(out, t)
		}
	}
	return out
}

// offeredTheme returns the key theme of the occasion an offer request
// names: that of its first word (offerOccasion's order) WordNet relates
// to one; ok is false when the question asks for no verse or names no
// occasion with a theme. Without WordNet nothing is offered.
func (r *Retriever) offeredTheme(question string) (string, bool) {
	if r.offer == nil {
		return "", false
	}
	words, ok := offerOccasion(r.senses.wn, question)
	if !ok {
		return "", false
	}
	for _, w := range words {
		if t := r.occasionTheme(w); t != "" {
			return t, true
		}
	}
	return "", false
}

// offered answers an offer request from the first maxRefs key passages of
// theme, in the order a teacher gives them, each quoted: the verses to
// offer, not what Nave's files them under (a key list is editorial, and
// Nave's may file its verses elsewhere: Psalms 34:18 under HEART).
func (a *Answerer) offered(ctx context.Context, question, theme string, maxRefs int, extractive bool) (Answer, error) {
	k, _ := topics.KeyFor(theme)
	return a.cited(ctx, question, "", k.References(), maxRefs, extractive)
}
