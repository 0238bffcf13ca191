package pipeline

import (
	"cmp"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/hbollon/go-edlib"

	"github.com/selahdev/selah/corpus/wordnet"
)

// lexNounCognition and lexNounCommunication are WordNet's lexicographer
// file numbers of noun.cognition (what is seen or known: "vision") and
// noun.communication (what is said or written: "words", "burden").
const (
	lexNounCognition     = 9
	lexNounCommunication = 10
)

// lexNounPerson is WordNet's lexicographer file number of noun.person.
const lexNounPerson = 18

// lexNounGroup is WordNet's lexicographer file number of noun.group
// (sects, tribes, peoples).
const lexNounGroup = 14

// lexNounLocation is WordNet's lexicographer file number of noun.location.
const lexNounLocation = 15

// lexNounTime is WordNet's lexicographer file number of noun.time.
const lexNounTime = 28

// More of WordNet's noun lexicographer files (lexnames(5WN)), read by
// offer requests (offer.go): what an occasion can be (an act, an
// attribute, an event, a feeling, a process, a state) and the medium a
// verse is written on (an artifact: a card; food: a toast's bread).
const (
	lexNounAct       = 4
	lexNounArtifact  = 6
	lexNounAttribute = 7
	lexNounEvent     = 11
	lexNounFeeling   = 12
	lexNounFood      = 13
	lexNounProcess   = 22
	lexNounState     = 26
)

// lexNounObject is WordNet's lexicographer file number of noun.object
// (natural objects: mountains, rivers, islands).
const lexNounObject = 17

// grammar is what the answer composer asks of WordNet 3.0 to turn a Nave's
// sub-entry phrase into a sentence: whether a word is a verb (and its past
// tense when irregular), and whether a noun's first sense names a person.
// A nil grammar (no WordNet) answers no to everything; the composer then
// writes sentences in fewer shapes (see phraseClause).
type grammar struct {
	wn *wordnet.WordNet
	// past maps a verb's base form to its irregular past tense
	// ("become" → "became"), from verb.exc.
	past map[string]string
	// pastForms are the irregular forms verb.exc lists ("became", "slew").
	pastForms map[string]bool
	// participles are the irregular forms that are only past participles
	// ("forbidden", "born", "taken"; not "ran", the past of run).
	participles map[string]bool
}

// newGrammar reads what the composer needs from wn; nil wn gives nil.
func newGrammar(wn *wordnet.WordNet) *grammar {
	if wn == nil {
		return nil
	}
	g := &grammar{wn: wn, past: map[string]string{}, pastForms: map[string]bool{}, participles: map[string]bool{}}
	baseOf := map[string]string{}
	wn.EachException(wordnet.Verb, func(form string, bases []string) {
		// "became become", "gone go": the past tense, not the participle
		// (which ends in n or ne: taken, given, gone, done), is wanted.
		// verb.exc also lists present participles ("running run"): not
		// past forms.
		if len(bases) != 1 || strings.Contains(form, "_") || strings.HasSuffix(form, "ing") || presentTense[form] != "" {
			return
		}
		g.pastForms[form] = true
		base := bases[0]
		baseOf[form] = base
		if old, ok := g.past[base]; !ok || participle(old) && !participle(form) {
			g.past[base] = form
		}
	})
	for form, base := range baseOf {
		if participle(form) && g.past[base] != form {
			g.participles[form] = true
		}
	}
	return g
}

// presentTense are the present forms verb.exc lists beside the past ones
// (be and have are English's only irregular present tenses), each with its
// past: "Are timid" says of doves that they were timid, and "is" is no past
// form.
var presentTense = map[string]string{"am": "was", "is": "was", "are": "were", "has": "had"}

// participle reports whether an irregular form looks like a past
// participle rather than a past tense: "taken", "gone", not "took", "went".
func participle(form string) bool {
	return strings.HasSuffix(form, "n") || strings.HasSuffix(form, "ne")
}

// isAdverb reports whether the lower-case word is only an adverb ("also"),
// not a noun, verb or adjective too.
func (g *grammar) isAdverb(w string) bool {
	return g != nil && g.wn.Has(w, wordnet.Adv) && !g.wn.Has(w, wordnet.Noun) && !g.wn.Has(w, wordnet.Verb) && !g.wn.Has(w, wordnet.Adj)
}

// objectOnly reports whether the regular past form w ("assigned",
// "authorized") is of a verb every sense of which takes a direct object
// in WordNet's sentence frames: then a phrase opening with it and going on
// with a preposition ("Assigned to the Levites") is passive, the object
// being the subject; a verb that can stand alone ("Returned to
// Jerusalem", frame 2 "Somebody ----s") is not.
func (g *grammar) objectOnly(w string) bool {
	base := g.regularBase(w)
	if base == "" {
		return false
	}
	frames := 0
	for _, l := range g.wn.Lookup(base) {
		if l.POS != wordnet.Verb || l.Lemma != base {
			continue
		}
		for _, se := range l.Senses {
			for _, f := range se.Frames {
				frames++
				if !objectFrames[f] {
					return false
				}
			}
		}
	}
	return frames > 0
}

// firstObject reports whether the regular past form w is of a verb whose
// first sense takes a direct object in every frame WordNet gives it
// ("shipwrecked": to ruin a ship; "betrayed"), though a later sense may
// stand alone ("suffer failure"): said of a name before a
// preposition ("Paul shipwrecked on the coast of"), the name is what it
// was done to. "Died", "prayed", "preached" stand alone first.
func (g *grammar) firstObject(w string) bool {
	base := g.regularBase(w)
	if base == "" {
		return false
	}
	for _, l := range g.wn.Lookup(base) {
		if l.POS != wordnet.Verb || l.Lemma != base || len(l.Senses) == 0 {
			continue
		}
		fs := l.Senses[0].Frames
		return len(fs) > 0 && !slices.ContainsFunc(fs, func(f int) bool { return !objectFrames[f] })
	}
	return false
}

// objectFrames are the frames(5WN) with a direct object: "Somebody ----s
// something" (8), "Somebody ----s somebody" (9), "Somebody ----s something
// to somebody" (15) and the like.
var objectFrames = map[int]bool{5: true, 8: true, 9: true, 10: true, 11: true, 14: true, 15: true, 16: true,
	17: true, 18: true, 19: true, 20: true, 21: true, 24: true, 25: true, 30: true, 31: true}

// plural reports whether a subject's head (its last word, before any
// "of") is a plural noun: a form
// WordNet reads as a noun whose base form differs ("Birds", "Angels"),
// and not itself a noun lemma ("Moses", "News").
func (g *grammar) plural(subject string) bool {
	if g == nil {
		return false
	}
	head, _, _ := strings.Cut(strings.ToLower(subject), " of ") // "Mount of Olives"
	words := strings.Fields(head)
	if len(words) == 0 {
		return false
	}
	w := words[len(words)-1]
	if !strings.HasSuffix(w, "s") {
		return false
	}
	if g.wn.Has(w, wordnet.Noun) {
		// A noun lemma is no plural ("Moses", "news", "riches"), unless
		// WordNet writes it only as a name and its singular is a person:
		// "Prophets" is a division of the Hebrew Bible to WordNet, and
		// PROPHETS' subject was told "Prophets was called seers".
		base := strings.TrimSuffix(w, "s")
		return g.nameOnly(w) && g.isPerson(base)
	}
	return g.isNoun(strings.TrimSuffix(w, "s")) || g.isNoun(strings.TrimSuffix(w, "es")) || g.isNoun(strings.TrimSuffix(w, "ies")+"y")
}

// nameOnly reports whether WordNet writes the noun lemma w with a capital
// in every synset that holds it ("Prophets", "Moses"; not "riches").
func (g *grammar) nameOnly(w string) bool {
	for _, l := range g.wn.Lookup(w) {
		if l.POS != wordnet.Noun || l.Lemma != w {
			continue
		}
		for _, s := range l.Senses {
			for _, sw := range s.Synset.Words {
				if strings.EqualFold(sw, w) && sw == strings.ToLower(sw) {
					return false
				}
			}
		}
		return len(l.Senses) > 0
	}
	return false
}

// isVerb reports whether the lower-case word is a verb's base form.
func (g *grammar) isVerb(w string) bool { return g != nil && g.wn.Has(w, wordnet.Verb) }

// isNoun reports whether the lower-case word is a noun.
func (g *grammar) isNoun(w string) bool { return g != nil && g.wn.Has(w, wordnet.Noun) }

// isPerson reports whether the noun's first (most frequent) sense is a
// person: "king", "priest", "daughter-in-law", "ancestor", but not
// "history" or "institution".
func (g *grammar) isPerson(w string) bool { return g.firstSenseIn(w, lexNounPerson) }

// groupNoun reports whether a lower-case noun's first sense is a group
// of people or things (noun.group: "sect", "tribe", "band").
func (g *grammar) groupNoun(w string) bool { return g.firstSenseIn(w, lexNounGroup) }

// firstSenseIn reports whether the lower-case noun's first sense is in
// the lexicographer file lex.
func (g *grammar) firstSenseIn(w string, lex int) bool {
	if !g.isNoun(w) {
		return false
	}
	l, ok := firstNounLexFile(g.wn, w)
	return ok && l == lex
}

// firstNounLexFile is the lexicographer file of the first (most frequent)
// sense of the lower-case noun w as written; false when WordNet has no
// such noun.
func firstNounLexFile(wn *wordnet.WordNet, w string) (int, bool) {
	for _, l := range wn.Lookup(w) {
		if l.POS == wordnet.Noun && l.Lemma == strings.ReplaceAll(w, "_", " ") && len(l.Senses) > 0 {
			return int(l.Senses[0].Synset.LexFile), true
		}
	}
	return 0, false
}

// placeDefinitions maps each word of the definition of a WordNet place
// (a noun.location synset: its gloss up to the first ';' or example) to
// the one-word lemmas it defines: "born" to "birthplace", "the place
// where someone was born". A where-question asks for a place in the
// words such a definition uses, and Nave's names it by the defined word
// (BETHLEHEM's "Birthplace of Jesus"): WordNet's own bridge between them.
func placeDefinitions(wn *wordnet.WordNet) map[string][]string {
	out := map[string][]string{}
	_ = wn.EachSynset(func(s *wordnet.Synset) error {
		if s.POS != wordnet.Noun || s.LexFile != lexNounLocation {
			return nil
		}
		def, _, _ := strings.Cut(s.Gloss, ";")
		def, _, _ = strings.Cut(def, "\"")
		for _, w := range strings.FieldsFunc(strings.ToLower(def), func(r rune) bool { return !unicode.IsLetter(r) }) {
			if isStop(w) {
				continue
			}
			for _, l := range s.Words {
				if !strings.Contains(l, " ") && !slices.Contains(out[w], strings.ToLower(l)) {
					out[w] = append(out[w], strings.ToLower(l))
				}
			}
		}
		return nil
	})
	return out
}

// namesPlace reports whether a Nave's title names a place: WordNet's
// commonest noun sense of its first word is a location ("BETHLEHEM",
// "NAZARETH") or a natural object, as WordNet files mountains, rivers and
// islands ("ARARAT"). The many names WordNet lacks
// ("GETHSEMANE") are not known to be places.
func namesPlace(wn *wordnet.WordNet, title string) bool {
	lex, ok := firstNounLexFile(wn, titleWord(title))
	return ok && (lex == lexNounLocation || lex == lexNounObject)
}

// namesPerson reports whether a Nave's title names a person WordNet knows:
// the commonest noun sense of its first word is filed as one ("JOSEPH").
func namesPerson(wn *wordnet.WordNet, title string) bool {
	lex, ok := firstNounLexFile(wn, titleWord(title))
	return ok && lex == lexNounPerson
}

// leadingNames returns how many of words a subject of names opening them
// takes: "David" of "David kills Goliath with a", three of "Esau and
// Jacob born to", four of "Mary, Martha, and Lazarus dwell at"; 0 when
// the first word is no name. A list ends at "and" and the name after it;
// a name alone before a comma is no subject ("David, king of Israel").
func (g *grammar) leadingNames(words []string) int {
	name := func(i int) bool {
		return i < len(words) && g.properName(strings.TrimSuffix(words[i], ","))
	}
	if !name(0) {
		return 0
	}
	n := 1
	for strings.HasSuffix(words[n-1], ",") && name(n) {
		n++
	}
	if n < len(words) && strings.ToLower(words[n]) == "and" && name(n+1) && (n == 1 || strings.HasSuffix(words[n-1], ",")) {
		return n + 2
	}
	if n > 1 || strings.HasSuffix(words[0], ",") {
		// "Mary, Martha" with no "and": a list of names is no subject.
		return 0
	}
	return 1
}

// properName reports whether a capitalized word is a name: WordNet writes
// its commonest sense capitalized ("David", "God"), or does not know it at
// all (most of the Bible's names: "Abner", "Ahithophel"). Pronouns,
// possessives and words before a comma are none.
func (g *grammar) properName(w string) bool {
	if g == nil || !startsUpper(w) || strings.ToUpper(w) == w && len(w) > 1 ||
		strings.ContainsAny(w, ",;:'’") || isStop(strings.ToLower(w)) {
		return false
	}
	lemmas := g.wn.Lookup(w)
	if len(lemmas) == 0 {
		return true
	}
	// Its commonest sense is a name: "David", "God", not "Fish".
	for _, l := range lemmas {
		if len(l.Senses) == 0 {
			continue
		}
		for _, sw := range l.Senses[0].Words {
			if strings.EqualFold(sw, l.Lemma) {
				return sw != strings.ToLower(sw)
			}
		}
	}
	return false
}

// pastTense is the past tense of a verb's base form: WordNet's irregular
// form when it lists one, else the regular spelling rules.
func (g *grammar) pastTense(base string) string {
	if g != nil {
		if p, ok := g.past[base]; ok {
			return p
		}
	}
	if unchangedPast[base] {
		return base
	}
	n := len(base)
	switch {
	case n == 0:
		return base
	case strings.HasSuffix(base, "e"):
		return base + "d"
	case n > 1 && base[n-1] == 'y' && !strings.ContainsRune("aeiou", rune(base[n-2])):
		return base[:n-1] + "ied"
	case n >= 3 && n <= 4 && !strings.ContainsRune("aeiouwxy", rune(base[n-1])) &&
		strings.ContainsRune("aeiou", rune(base[n-2])) && !strings.ContainsRune("aeiou", rune(base[n-3])):
		// One syllable ending consonant-vowel-consonant: "plan" → "planned".
		return base + base[n-1:] + "ed"
	}
	return base + "ed"
}

// unchangedPast are the English verbs whose past is their base form, which
// verb.exc leaves out as it lists only forms that differ: a closed class
// of the grammar, not of any subject ("casts an evil spirit out" is
// "cast", not "casted").
var unchangedPast = map[string]bool{
	"bet": true, "bid": true, "burst": true, "cast": true, "cost": true, "cut": true, "hit": true,
	"hurt": true, "let": true, "put": true, "quit": true, "read": true, "rid": true, "set": true,
	"shed": true, "shut": true, "slit": true, "split": true, "spread": true, "thrust": true, "upset": true,
}

// verbBase is the base form of a third-person present verb ("marries" →
// "marry", "goes" → "go", "receives" → "receive"), or "" when w is not one.
func (g *grammar) verbBase(w string) string {
	if g == nil || !strings.HasSuffix(w, "s") || strings.HasSuffix(w, "ss") || len(w) < 3 {
		return ""
	}
	// "-s" before "-es": "dines" is "dine", not "din"; "washes" has no
	// "washe" and is "wash".
	for _, c := range []string{strings.TrimSuffix(w, "ies") + "y", strings.TrimSuffix(w, "s"), strings.TrimSuffix(w, "es")} {
		if c != w && c != "" && g.isVerb(c) {
			return c
		}
	}
	return ""
}

// presentVerb is the base form of a present verb after its subject: the
// third person's ("kills" → "kill"), or, after a plural subject, the base
// form itself when WordNet has it as a verb ("dwell"); "" when w is
// neither.
func (g *grammar) presentVerb(w string, plural bool) string {
	if b := g.verbBase(w); b != "" {
		return b
	}
	if plural && g != nil && g.isVerb(w) {
		return w
	}
	return ""
}

// isPast reports whether w is a past form: a regular "-ed" form of a verb,
// or one WordNet lists as irregular.
func (g *grammar) isPast(w string) bool {
	if g == nil {
		return false
	}
	if g.pastForms[w] {
		return true
	}
	return g.regularBase(w) != ""
}

// regularBase is the base form of a regular past form ("assigned" →
// "assign", "married" → "marry"), or "" when w is not one.
func (g *grammar) regularBase(w string) string {
	if g == nil || !strings.HasSuffix(w, "ed") || len(w) < 4 {
		return ""
	}
	for _, c := range []string{strings.TrimSuffix(w, "d"), strings.TrimSuffix(w, "ed"), strings.TrimSuffix(w, "ied") + "y", w[:len(w)-3]} {
		if g.isVerb(c) {
			return c
		}
	}
	return ""
}

// wordNets holds each WordNet directory read in this process: the query
// expander and the composer's grammar share one copy (about 1.5 s and
// 100 MB to read).
var wordNets struct {
	sync.Mutex
	byDir map[string]*wordnet.WordNet
}

// OpenWordNet reads the WordNet database in dir once per process; later
// calls share that copy.
func OpenWordNet(dir string) (*wordnet.WordNet, error) {
	wordNets.Lock()
	defer wordNets.Unlock()
	if wn, ok := wordNets.byDir[dir]; ok {
		return wn, nil
	}
	wn, err := wordnet.Open(dir)
	if err != nil {
		return nil, err
	}
	if wordNets.byDir == nil {
		wordNets.byDir = map[string]*wordnet.WordNet{}
	}
	wordNets.byDir[dir] = wn
	return wn, nil
}

var composerGrammar = sync.OnceValue(func() *grammar {
	// Without WordNet the composer still writes sentences, in fewer shapes.
	wn, _ := OpenWordNet(cmp.Or(os.Getenv("SELAH_WORDNET_DIR"), DefaultWordNetDir))
	return newGrammar(wn)
})

// commonWord reports whether modern English uses the lower-case word
// first as a common word: WordNet writes the lemma of its commonest noun
// sense in lower case ("job": an occupation, before the book and the
// patriarch), or knows it only as another part of speech. A word whose
// commonest sense is a name ("ruth": Babe Ruth, then the Moabitess) or
// that WordNet does not know is not common.
func commonWord(wn *wordnet.WordNet, w string) bool {
	other := false
	for _, l := range wn.Lookup(w) {
		if len(l.Senses) == 0 {
			continue
		}
		if l.POS != wordnet.Noun {
			other = true
			continue
		}
		for _, sw := range l.Senses[0].Synset.Words {
			if strings.EqualFold(sw, l.Lemma) {
				return sw == strings.ToLower(sw)
			}
		}
	}
	return other
}

// verbCommunication is WordNet's lexicographer file of verbs of telling,
// asking, ordering and singing (lexnames(5WN): 32, verb.communication).
const verbCommunication = 32

// communicationVerb reports whether WordNet's commonest sense of w as a
// verb is one of communication: "say", "promise", "warn", "answer"; never
// for a stop word.
func communicationVerb(wn *wordnet.WordNet, w string) bool {
	if isStop(w) {
		// "will" decrees in WordNet; in a question it is the future.
		return false
	}
	for _, l := range wn.Lookup(w) {
		if l.POS == wordnet.Verb && len(l.Senses) > 0 && l.Senses[0].LexFile == verbCommunication {
			return true
		}
	}
	return false
}

// spellingVariants returns the other spellings WordNet gives word, or
// its base form ("neighbours": "neighbour"): the lemmas of its synsets one
// edit from it (a letter added, dropped, changed, or two swapped:
// "neighbour" and "neighbor", "judgement" and "judgment") whose senses, in
// every part of speech, include all of its own ("labour" has four as a
// noun, "labor" those and three more). A synonym spelt otherwise ("car",
// "auto"), a near word of one shared sense ("queer", "queen": WordNet's
// offensive noun; the adjective is no queen's), and an inflection
// ("doubled", "double") are no variants; nor has a word that reads as
// two lemmas any.
func spellingVariants(wn *wordnet.WordNet, word string) []string {
	type key struct {
		pos wordnet.POS
		off uint32
	}
	senses := func(lemmas []wordnet.Lemma, lemma string) map[key]bool {
		out := map[key]bool{}
		for _, l := range lemmas {
			if l.Lemma != lemma {
				continue
			}
			for _, s := range l.Senses {
				out[key{l.POS, s.Offset}] = true
			}
		}
		return out
	}
	lemmas := wn.Lookup(word)
	if slices.ContainsFunc(lemmas, func(l wordnet.Lemma) bool { return l.Lemma != lemmas[0].Lemma }) {
		// Two readings ("cleaning": the noun, and the verb clean): a
		// variant of one would change the other.
		return nil
	}
	var out []string
	for _, l := range lemmas {
		mine := senses(lemmas, l.Lemma)
		for _, s := range l.Senses {
			for _, v := range s.Words {
				if v == l.Lemma || slices.Contains(out, v) || len(v) < minVariant || len(l.Lemma) < minVariant ||
					strings.HasPrefix(v, l.Lemma) || strings.HasPrefix(l.Lemma, v) ||
					edlib.OSADamerauLevenshteinDistance(v, l.Lemma) > 1 {
					continue
				}
				theirs := senses(wn.Lookup(v), v)
				if !slices.ContainsFunc(slices.Collect(maps.Keys(mine)), func(k key) bool { return !theirs[k] }) {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// minVariant is the fewest letters of a word read for its spellings:
// between short words one edit is another word.
const minVariant = 4

// titleSpellings maps each word WordNet spells otherwise as a word of
// one of titles (spellingVariants: "neighbour" of NEIGHBOR, "judgement"
// of JUDGMENT) to that word, lower case; a word titles write themselves
// keeps its own spelling. Built once, so that no question's words are
// looked up in WordNet on the router's path.
func titleSpellings(wn *wordnet.WordNet, titles []string) map[string]string {
	own := map[string]bool{}
	for _, t := range titles {
		for _, w := range letterRuns(strings.ToLower(t)) {
			own[w] = true
		}
	}
	out := map[string]string{}
	// In order: a variant two title words claimed would otherwise go to
	// either, as the map's iteration fell.
	for _, w := range slices.Sorted(maps.Keys(own)) {
		for _, l := range wn.Lookup(w) {
			if l.Lemma != w {
				continue
			}
			for _, s := range l.Senses {
				for _, other := range s.Words {
					other = strings.ToLower(other)
					if own[other] || out[other] != "" || edlib.OSADamerauLevenshteinDistance(other, w) != 1 ||
						!slices.Contains(spellingVariants(wn, other), w) {
						continue
					}
					out[other] = w
				}
			}
		}
	}
	return out
}

// titleSynonyms maps Nave's titles (upper case, as titles gives them) to
// the other words of their WordNet synset, for the router to read as
// more names of the topic (NaveRouter.AddNames): "obesity" is
// CORPULENCY, "holy eucharist" EUCHARIST, "whorehouse" BROTHEL, "bearing
// false witness" PERJURY. The bridge is WordNet's, and kept where the
// synset is not in doubt: the title's first name and the synonym each
// have that one sense in WordNet (a word of several senses, "period" of
// MENSTRUATION, "draft" of CONSCRIPTION, means something else as often).
// Left out: a synonym that is another title, a synonym of two titles,
// and one that repeats a word of the title ("life eternal", "sir leslie
// stephen": it names nothing the title does not). A capitalised synonym
// (a proper name: "Amun" of AMEN, "Holy Eucharist" of EUCHARIST) is
// kept only for a title capitals allows (LoadRetriever: a name the KJV
// gives, or a word the Bible never writes), since WordNet's one sense of
// a Bible word may be something else of that name.
func titleSynonyms(wn *wordnet.WordNet, titles []string, capitals func(title string) bool) map[string][]string {
	isTitle := map[string]bool{}
	for _, t := range titles {
		for _, n := range titleNames(t) {
			isTitle[strings.ToLower(n)] = true
		}
	}
	// onlySense returns word's one synset, or nil when WordNet gives it
	// none or several (in any part of speech).
	onlySense := func(word string) *wordnet.Synset {
		var only *wordnet.Synset
		for _, l := range wn.Lookup(word) {
			if l.Lemma != word {
				continue
			}
			for _, s := range l.Senses {
				if only != nil {
					return nil
				}
				only = s.Synset
			}
		}
		return only
	}
	claimed := map[string][]string{}
	for _, t := range titles {
		name := strings.ToLower(titleNames(t)[0])
		s := onlySense(name)
		if s == nil {
			continue
		}
		for _, w := range s.Words {
			lw := strings.ToLower(w)
			if lw == name || isTitle[lw] || onlySense(lw) != s || sharesWord(lw, name) ||
				w != lw && !capitals(t) || strings.ContainsFunc(w, unicode.IsDigit) {
				continue
			}
			if !slices.Contains(claimed[lw], t) {
				claimed[lw] = append(claimed[lw], t)
			}
		}
	}
	out := map[string][]string{}
	for _, w := range slices.Sorted(maps.Keys(claimed)) {
		if ts := claimed[w]; len(ts) == 1 {
			out[ts[0]] = append(out[ts[0]], w)
		}
	}
	return out
}

// sharesWord reports whether phrases a and b (lower case) have a word in
// common.
func sharesWord(a, b string) bool {
	bs := letterRuns(b)
	return slices.ContainsFunc(letterRuns(a), func(w string) bool { return slices.Contains(bs, w) })
}
