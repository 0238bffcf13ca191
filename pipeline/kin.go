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

// Questions about a family ("who was king david's father", "whose son was
// gideon", "who did ruth marry", "how was lot related to abraham") are
// answered from the relations Nave's Topical Bible states in its
// sub-entries: JESSE's "Father of David", BATH-SHEBA's "Solomon's
// mother", SOLOMON's "Son of David by Bath-sheba", JACOB's "His uncle,
// Laban". Searched as any other question, "father" finds the verses about
// fathers and the question's person his whole life: the relation, which
// Nave's states in so many words, is what it asks.
//
// The one hand-written table is the English kinship vocabulary below (a
// closed class of nouns, with each relation's converse: a father's child,
// a wife's husband); which people are related, and how, is read from
// Nave's.

// kin is a relation of the kinship vocabulary: its kind and, for a
// gendered word, the sex (m or f; 0 for "parent", "cousin").
type kin struct {
	kind string
	sex  byte
}

// kinWords are the English kinship nouns, singular and plural, the
// in-law forms hyphenated (kinNoun joins "father in law").
var kinWords = func() map[string]kin {
	m := map[string]kin{}
	add := func(k kin, words ...string) {
		for _, w := range words {
			m[w] = k
		}
	}
	add(kin{"parent", 'm'}, "father", "fathers", "dad")
	add(kin{"parent", 'f'}, "mother", "mothers", "mom", "mum")
	add(kin{"parent", 0}, "parent", "parents")
	add(kin{"child", 'm'}, "son", "sons")
	add(kin{"child", 'f'}, "daughter", "daughters")
	add(kin{"child", 0}, "child", "children", "kids")
	add(kin{"spouse", 'f'}, "wife", "wives")
	add(kin{"spouse", 'm'}, "husband", "husbands")
	add(kin{"spouse", 0}, "spouse")
	add(kin{"sibling", 'm'}, "brother", "brothers", "brethren")
	add(kin{"sibling", 'f'}, "sister", "sisters")
	add(kin{"sibling", 0}, "sibling", "siblings")
	add(kin{"grandparent", 'm'}, "grandfather", "grandfathers")
	add(kin{"grandparent", 'f'}, "grandmother", "grandmothers")
	add(kin{"grandparent", 0}, "grandparent", "grandparents")
	add(kin{"grandchild", 'm'}, "grandson", "grandsons")
	add(kin{"grandchild", 'f'}, "granddaughter", "granddaughters")
	add(kin{"grandchild", 0}, "grandchild", "grandchildren")
	add(kin{"uncle", 'm'}, "uncle", "uncles")
	add(kin{"uncle", 'f'}, "aunt", "aunts")
	add(kin{"nephew", 'm'}, "nephew", "nephews")
	add(kin{"nephew", 'f'}, "niece", "nieces")
	add(kin{"cousin", 0}, "cousin", "cousins")
	add(kin{"parent-in-law", 'm'}, "father-in-law")
	add(kin{"parent-in-law", 'f'}, "mother-in-law")
	add(kin{"child-in-law", 'm'}, "son-in-law")
	add(kin{"child-in-law", 'f'}, "daughter-in-law")
	add(kin{"sibling-in-law", 'm'}, "brother-in-law")
	add(kin{"sibling-in-law", 'f'}, "sister-in-law")
	return m
}()

// kinConverse is each kind's converse: when A is B's father, B is A's
// child.
var kinConverse = map[string]string{
	"parent": "child", "child": "parent", "spouse": "spouse", "sibling": "sibling",
	"grandparent": "grandchild", "grandchild": "grandparent", "uncle": "nephew", "nephew": "uncle",
	"cousin": "cousin", "parent-in-law": "child-in-law", "child-in-law": "parent-in-law",
	"sibling-in-law": "sibling-in-law",
}

// kinCompose is the relation of a relative's relative: a sister's son is
// a nephew ("JOAB: Son of David's sister"). The kind "kin" stands for
// one the vocabulary has no noun for; it answers only how two are
// related.
var kinCompose = map[string]string{
	"child/sibling": "nephew", "child/child": "grandchild", "parent/parent": "grandparent",
	"sibling/parent": "uncle", "child/uncle": "cousin", "spouse/child": "child-in-law",
	"parent/spouse": "parent-in-law", "sibling/spouse": "sibling-in-law", "spouse/sibling": "sibling-in-law",
}

// kinNoun returns the kinship noun at ws[i] and how many words it takes
// ("father in law" is one noun).
func kinNoun(ws []string, i int) (string, int, bool) {
	if i >= len(ws) {
		return "", 0, false
	}
	w := ws[i]
	if i+2 < len(ws) && ws[i+1] == "in" && (ws[i+2] == "law" || ws[i+2] == "laws") {
		if _, ok := kinWords[w+"-in-law"]; ok {
			return w + "-in-law", 3, true
		}
	}
	w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "'")
	if _, ok := kinWords[w]; ok {
		return w, 1, true
	}
	return "", 0, false
}

// kinAsk is a family question read: the relation asked (Rel: a kind of
// kinConverse, and "/m" or "/f" for a gendered noun) of Person ("parent/m"
// of "king david"), or how Person and Other are related (Rel empty).
// Unknown: the person named is not the Bible's — a word of the name
// neither Bible uses, or a capitalised word after a name that is no name
// of the Bible ("Joseph Smith").
type kinAsk struct {
	Rel           string
	Noun          string   // the kinship noun asked ("sons")
	Person, Other []string // the name words (Bible names), lower case
	Unknown       bool
	plural        bool
	// Qualifier is a word between the person and the relation
	// ("favorite" of "jacob's favorite son"): a fact must say it.
	Qualifier string
}

// kinOpeners are the frames that put a family question ("who was", "what
// were the names of"): the words before the person or relation.
var kinOpeners = [][]string{
	{"what", "was", "the", "name", "of"}, {"what", "were", "the", "names", "of"}, {"what", "is", "the", "name", "of"},
	{"what", "are", "the", "names", "of"}, {"what", "were", "the", "name", "of"},
	{"who", "was"}, {"who", "were"}, {"who", "is"}, {"who", "are"}, {"whom", "was"},
	{"name", "of"}, {"names", "of"},
	{"tell", "me", "about"},
}

// kinQuestion reads a family question; typed is the question as typed
// (its capitals tell a surname from a title).
func (r *Retriever) kinQuestion(typed string) (kinAsk, bool) {
	tws := typedFields(typed, false)
	ws := make([]string, len(tws))
	for i, w := range tws {
		ws[i] = strings.ToLower(w)
	}
	if len(ws) < 2 {
		return kinAsk{}, false
	}
	// "whose son was gideon": the parent of Gideon.
	if ws[0] == "whose" {
		if noun, n, ok := kinNoun(ws, 1); ok && 1+n < len(ws) && beForms[ws[1+n]] {
			p, ok := r.kinPerson(tws, ws, 2+n)
			return kinAsk{Rel: kinConverse[kinWords[noun].kind], Person: p.names, Unknown: p.unknown}, ok
		}
		return kinAsk{}, false
	}
	// "how was lot related to abraham", "how are ruth and david related".
	if ws[0] == "how" && len(ws) > 3 && beForms[ws[1]] {
		if i := slices.Index(ws, "related"); i > 2 {
			if i+2 < len(ws) && ws[i+1] == "to" {
				p, ok1 := r.kinPerson(tws, ws[:i], 2)
				o, ok2 := r.kinPerson(tws, ws, i+2)
				return kinAsk{Person: p.names, Other: o.names, Unknown: p.unknown || o.unknown}, ok1 && ok2
			}
			if and := slices.Index(ws[2:i], "and"); and > 0 {
				p, ok1 := r.kinPerson(tws, ws[:2+and], 2)
				o, ok2 := r.kinPerson(tws, ws[:i], 2+and+1)
				return kinAsk{Person: p.names, Other: o.names, Unknown: p.unknown || o.unknown}, ok1 && ok2
			}
		}
		return kinAsk{}, false
	}
	// "who did ruth marry", "who was bathsheba married to".
	if ws[0] == "who" || ws[0] == "whom" {
		if len(ws) > 3 && ws[1] == "did" && slices.Contains(ws, "marry") {
			p, ok := r.kinPerson(tws, ws[:slices.Index(ws, "marry")], 2)
			return kinAsk{Rel: "spouse", Person: p.names, Unknown: p.unknown}, ok
		}
		if len(ws) > 3 && beForms[ws[1]] {
			if i := slices.Index(ws, "married"); i > 2 {
				p, ok := r.kinPerson(tws, ws[:i], 2)
				return kinAsk{Rel: "spouse", Person: p.names, Unknown: p.unknown}, ok
			}
		}
	}
	// "did jesus have brothers", "did paul have a nephew".
	if ws[0] == "did" && len(ws) > 3 {
		if i := slices.Index(ws, "have"); i > 1 {
			j := i + 1
			for j < len(ws) && (ws[j] == "a" || ws[j] == "any" || ws[j] == "an") {
				j++
			}
			if noun, _, ok := kinNoun(ws, j); ok {
				p, ok := r.kinPerson(tws, ws[:i], 1)
				k := kinWords[noun]
				return kinAsk{Rel: k.kind + sexSuffix(k.sex), Noun: noun, Person: p.names, Unknown: p.unknown, plural: true}, ok
			}
		}
		return kinAsk{}, false
	}
	// "jeroboam son of who", "who is jehu the son of".
	start := 0
	for _, o := range kinOpeners {
		if len(ws) > len(o) && slices.Equal(ws[:len(o)], o) {
			start = len(o)
			break
		}
	}
	for start < len(ws) && (ws[start] == "the" || ws[start] == "a") {
		start++
	}
	// The relation first: "the father of david", "the sons of jacob".
	if noun, n, ok := kinNoun(ws, start); ok && start+n < len(ws) && ws[start+n] == "of" {
		p, ok := r.kinPerson(tws, ws, start+n+1)
		k := kinWords[noun]
		return kinAsk{Rel: k.kind + sexSuffix(k.sex), Noun: noun, Person: p.names, Unknown: p.unknown, plural: plural(noun)}, ok
	}
	// The person first: "david's father", "moses' father in law name",
	// "isaac wife name", "ruths mother in law", "adam and eve's
	// children", "jeroboam son of who". The person's words run from the
	// frame to the possessive, or to a name the relation follows.
	end, poss := -1, false
	for i := start; i < len(ws) && i < start+6 && end < 0; i++ {
		w := ws[i]
		switch {
		case strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "'"):
			end, poss = i, true
		case !r.isName(w) && strings.HasSuffix(w, "s") && r.isName(strings.TrimSuffix(w, "s")) && kinFollows(ws, i+1):
			end, poss = i, true
		case r.isName(w) && kinIn(ws, i+1):
			end = i
		}
	}
	if end < 0 {
		return kinAsk{}, false
	}
	if start == 0 {
		// With no frame, the question opens with the person ("isaac
		// wife name", "Was Laban Jacob's uncle?"), or it asks something
		// else of them ("what happened to david's son absalom").
		first := 0
		if beForms[ws[0]] {
			first = 1
		}
		if !r.isName(unpossessed(ws[first])) && !(poss && end == first) {
			return kinAsk{}, false
		}
	}
	// A word or two may qualify the relation: "david's first wife".
	for j := end + 1; j <= end+3 && j < len(ws); j++ {
		noun, n, ok := kinNoun(ws, j)
		if !ok {
			continue
		}
		if !poss && j != end+1 {
			break
		}
		converse := j+n < len(ws) && ws[j+n] == "of"
		if converse && !slices.Contains(ws[j+n:], "who") && !slices.Contains(ws[j+n:], "whom") {
			// "david's son of ..." reads no further.
			break
		}
		if !poss && !converse && start == 0 && !kinTrailer(ws[j+n:]) {
			break
		}
		from := start
		if beForms[ws[0]] {
			// "Was Laban Jacob's uncle?": Jacob's uncle is asked.
			for k := start; k < end; k++ {
				if r.isName(ws[k]) {
					from = k + 1
					break
				}
			}
		}
		words := make([]string, 0, end+1-start)
		typed := make([]string, 0, end+1-start)
		for k := from; k <= end; k++ {
			w, t := unpossessed(ws[k]), unpossessed(tws[k])
			if k == end && poss && !r.isName(w) && strings.HasSuffix(w, "s") && r.isName(strings.TrimSuffix(w, "s")) {
				w, t = strings.TrimSuffix(w, "s"), strings.TrimSuffix(t, "s")
			}
			words, typed = append(words, w), append(typed, t)
		}
		p := r.kinNames(typed, words)
		if last := words[len(words)-1]; poss && !r.isName(last) {
			if r.titledPerson(last) && (len(p.names) == 0 || r.isName(words[max(0, len(words)-2)])) {
				// "john mark's mother": a name Nave's titles, right
				// after another ("eli the priest's sons" names Eli).
				// "lot's uncle": the KJV writes "lot" in lower case
				// more often than the name, but Nave's titles it.
				p.names = append(p.names, last)
			} else if len(p.names) == 0 && (r.unknownWord(last) || startsUpper(typed[len(typed)-1])) {
				// "Zeus's wife": a possessor the Bible does not name
				// ("the widow's son" is one it does not name either,
				// but speaks of).
				p.unknown = true
			}
		}
		k := kinWords[noun]
		qualifier := ""
		if j > end+1 {
			qualifier = ws[j-1]
		}
		if converse {
			// "jeroboam son of who": whose son he is.
			return kinAsk{Rel: kinConverse[k.kind], Person: p.names, Unknown: p.unknown}, len(p.names) > 0 || p.unknown
		}
		return kinAsk{Rel: k.kind + sexSuffix(k.sex), Noun: noun, Person: p.names, Unknown: p.unknown, plural: plural(noun), Qualifier: qualifier}, len(p.names) > 0 || p.unknown
	}
	return kinAsk{}, false
}

// kinFollows reports whether a kinship noun stands at ws[i], or after a
// word or two qualifying it.
func kinFollows(ws []string, i int) bool {
	for j := i; j < len(ws) && j <= i+2; j++ {
		if _, _, ok := kinNoun(ws, j); ok {
			return true
		}
	}
	return false
}

// kinIn reports whether a kinship noun stands right at ws[i].
func kinIn(ws []string, i int) bool {
	_, _, ok := kinNoun(ws, i)
	return ok
}

// kinTrailer reports whether the words after a bare "isaac wife" make it
// a question of the relation: nothing, "name", or where it is told.
func kinTrailer(ws []string) bool {
	return len(ws) == 0 || ws[0] == "name" || ws[0] == "names" || ws[0] == "in" || ws[0] == "called"
}

func sexSuffix(sex byte) string {
	switch sex {
	case 'm':
		return "/m"
	case 'f':
		return "/f"
	}
	return ""
}

func plural(noun string) bool {
	return strings.HasSuffix(noun, "s") && noun != "mrs" || noun == "children" || noun == "grandchildren"
}

// kinPersonWords is what kinPerson read.
type kinPersonWords struct {
	names   []string
	unknown bool
}

// kinPerson reads the person named from ws[i] on: a run of names, joined
// by "the" or "of" ("john the baptist", "simon of cyrene"), after at most
// two words of title ("king", "the prophet"); ok when it holds a name or
// a word neither Bible uses ("zeus").
func (r *Retriever) kinPerson(tws, ws []string, i int) (kinPersonWords, bool) {
	j := i
	for j < len(ws) && j < i+3 && !r.isName(unpossessed(ws[j])) && r.inBible(ws[j]) && !r.unknownWord(ws[j]) {
		j++
	}
	if j == len(ws) || !r.isName(unpossessed(ws[j])) && !r.unknownWord(unpossessed(ws[j])) {
		// No name: "lot", which Nave's titles, will do.
		for _, w := range ws[i:min(len(ws), i+3)] {
			if w = unpossessed(w); r.titledPerson(w) {
				return kinPersonWords{names: []string{w}}, true
			}
		}
		return kinPersonWords{}, false
	}
	k := j
	for k < len(ws) {
		w := unpossessed(ws[k])
		if r.isName(w) || r.unknownWord(w) {
			k++
			if w != ws[k-1] {
				break // a possessive ends the name
			}
			continue
		}
		if (w == "the" || w == "of" || w == "and") && k+1 < len(ws) && r.isName(unpossessed(ws[k+1])) {
			k++
			continue
		}
		break
	}
	typed := make([]string, 0, k-j)
	for _, w := range tws[j:min(k, len(tws))] {
		typed = append(typed, unpossessed(w))
	}
	words := make([]string, 0, k-j)
	for _, w := range ws[j:k] {
		words = append(words, unpossessed(w))
	}
	p := r.kinNames(typed, words)
	// A capitalised word right after the name that is no name of the
	// Bible is a surname: "Joseph Smith"; the KJV's own pairs are not
	// ("Judas Iscariot").
	if k < len(tws) && k > j && startsUpper(tws[k]) && !r.isName(strings.ToLower(unpossessed(tws[k]))) &&
		!r.phrase.holds(runWords(strings.ToLower(tws[k-1]+" "+unpossessed(tws[k])))) {
		p.unknown = true
	}
	return p, len(p.names) > 0 || p.unknown
}

// kinNames are the Bible names among words (lower case; typed as typed),
// and whether one is unknown to both Bibles or a capitalised word after
// the last name is no name (a surname).
func (r *Retriever) kinNames(typed, words []string) kinPersonWords {
	var p kinPersonWords
	last := -1
	for i, w := range words {
		switch {
		case r.isName(w):
			p.names = append(p.names, strings.ReplaceAll(w, "-", ""))
			last = i
		case r.unknownWord(w):
			p.unknown = true
		}
	}
	for i := last + 1; last >= 0 && i < len(typed); i++ {
		if startsUpper(typed[i]) {
			p.unknown = true
		}
	}
	return p
}

// titledPerson reports whether Nave's states a family relation of
// someone of the name: "lot" and "mark", which the KJV writes in lower
// case more often than as the names ("LOT: 2. The son of Haran").
func (r *Retriever) titledPerson(w string) bool {
	nr, ok := r.Router.(*NaveRouter)
	if !ok {
		return false
	}
	nr.kinFacts()
	return nr.kinPeople[strings.ReplaceAll(w, "-", "")]
}

// unknownWord reports whether neither Bible nor Nave's uses the word.
func (r *Retriever) unknownWord(w string) bool {
	if w == "" || !unicode.IsLetter([]rune(w)[0]) {
		return false
	}
	if r.inBible(w) {
		return false
	}
	known := false
	r.lex.an.terms(w, func(t string) { known = known || r.knownTerm(t) })
	return !known
}

// kinFact is one relation Nave's states: Subject is the Relation of
// Object ("Jesse" is the father of "David"), in the entry's verses.
type kinFact struct {
	entry           int32
	Subject, Object string // as Nave's writes them
	subj, obj       []string
	// members are the names of an object that lists several ("Father
	// of James and John"), each its keys.
	members [][]string
	// subjAll, objAll add the other names Nave's titles give them
	// ("SARAH (SARAI)"): the verses may write either.
	subjAll, objAll []string
	Word            string // the kinship noun as Nave's writes it
	rel             kin
	plural          bool // "one of the wives of David"
	byMother        bool // the mother named after "by": "Son of Jacob by Rachel"
	Verses          []corpus.VerseID
}

// Nave's ways of stating a relation at the head of a phrase or of one of
// its clauses: "Father of David", "The son of Haran", "Son of David by
// Bath-sheba", "Solomon's mother", "His uncle, Laban", "Marries Elisheba".
var (
	kinOfRe   = regexp.MustCompile(`^(?:(?:the|a|an|one of the|later one of the|and|later)\s+)*(?:[a-z]+\s+)?([a-z]+(?:-in-law)?)\s+of\s+((?:King\s+|Queen\s+)?[A-Z][\w'-]*(?:\s+(?:the\s+)?[A-Z][\w-]*)*(?:(?:,|,?\s+and)\s+[A-Z][\w-]*)*)(?:\s+by\s+([A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)|\s+([a-z]+(?:-in-law)?))?`)
	kinPossRe = regexp.MustCompile(`^([A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)'\s?s\s+([a-z]+(?:-in-law)?)$`)
	kinHisRe  = regexp.MustCompile(`^(?:his|her)\s+(?:[a-z]+\s+)?([a-z]+(?:-in-law)?),?\s+([A-Z][\w-]*)`)
	// "Sojourns in Haran with his uncle, Laban": set off by a comma, the
	// name is the relative's anywhere in the phrase; without one ("marries
	// his daughter Zipporah") "his" may be another's.
	kinApposRe  = regexp.MustCompile(`\b(?:his|her)\s+(?:[a-z]+\s+)?([a-z]+(?:-in-law)?),\s+([A-Z][\w-]*)`)
	kinMarryRe  = regexp.MustCompile(`^(?:marries|married|marriage to|married to)\s+([A-Z][\w-]*)`)
	kinNumberRe = regexp.MustCompile(`^\d+\.\s*`)
	kinAndRe    = regexp.MustCompile(`,?\s+and\s+(?:later\s+)?`)
	kinCalledRe = regexp.MustCompile(`^(?:\d+\.\s*)?(?:Also\s+)?[Cc]alled\s+([A-Z][A-Z-]+)\b`)
	kinListRe   = regexp.MustCompile(`,\s*(?:and\s+)?|\s+and\s+`)
)

// kinFacts are the relations Nave's states, read once.
func (r *NaveRouter) kinFacts() []kinFact {
	r.kinOnce.Do(func() {
		r.kin = r.readKin()
		r.kinPeople = map[string]bool{}
		for _, f := range r.kin {
			for _, k := range append(slices.Clone(f.subj), f.obj...) {
				r.kinPeople[k] = true
			}
		}
	})
	return r.kin
}

func (r *NaveRouter) readKin() []kinFact {
	var out []kinFact
	// A topic's other names: its title's ("SARAH (SARAI)") and those
	// its entries give ("Also called ABRAM"); the verses may write
	// either. A fact's person is the topic itself, or the one topic
	// titled by the name (byName): another bearer's alias ("JEHOAHAZ:
	// Called SHALLUM") is no alias of every Shallum.
	aliases, _ := r.topicNames()
	byName := map[string]int{}
	for ti, t := range r.topics {
		if ks := nameKeys(topicDisplayName(t.title)); len(ks) == 1 {
			if _, dup := byName[ks[0]]; dup {
				byName[ks[0]] = -1
			} else {
				byName[ks[0]] = ti
			}
		}
	}
	all := func(keys []string, topic int) []string {
		out := slices.Clone(keys)
		if topic < 0 && len(keys) == 1 {
			if t, ok := byName[keys[0]]; ok {
				topic = t
			}
		}
		if topic >= 0 {
			for _, a := range aliases[topic] {
				if !slices.Contains(out, a) {
					out = append(out, a)
				}
			}
		}
		return out
	}
	for e := range r.entries {
		re := &r.entries[e]
		if re.key {
			continue
		}
		title := r.topics[re.topic].title
		if !(r.Entity != nil && r.Entity(title) || re.bearer > 0) {
			// A theme's instances ("INSTABILITY: Lot's wife") are no
			// relation of the theme's; a name the KJV writes in lower
			// case more often ("lot") is one when Nave's numbers its
			// bearers ("LOT: 2. The son of Haran").
			continue
		}
		verses := re.verses
		if len(verses) == 0 {
			// HANNAH's "(The mother of Samuel)" lists no verses: the
			// topic's do (kinVerses keeps those naming both).
			t := r.topics[re.topic]
			for _, te := range r.entries[t.first:t.end] {
				verses = append(verses, te.verses...)
			}
		}
		subject := topicDisplayName(title)
		if head, _, ok := strings.Cut(re.sense, " — "); ok && allCaps(head) {
			// Under a heading ("NAMES, APPELLATIONS, AND TITLES OF —
			// Son of David"), a phrase is no relation.
			continue
		}
		own := strings.NewReplacer("(", "", ")", "", "’", "'").Replace(re.ownPhrase())
		own = kinNumberRe.ReplaceAllString(strings.TrimSpace(own), "")
		for _, clause := range kinClauses(own) {
			add := func(f kinFact) {
				f.entry, f.Verses = int32(e), verses
				f.Subject, f.subj = r.kinName(f.Subject)
				f.Object, f.obj = r.kinName(f.Object)
				own := int(re.topic)
				if f.Subject == subject {
					f.subjAll, f.objAll = all(f.subj, own), all(f.obj, -1)
				} else {
					f.subjAll, f.objAll = all(f.subj, -1), all(f.obj, own)
				}
				for _, m := range kinListRe.Split(f.Object, -1) {
					if ks := nameKeys(m); len(ks) > 0 {
						f.members = append(f.members, ks)
					}
				}
				if len(f.subj) > 0 && len(f.obj) > 0 && !strings.HasSuffix(f.Object, "'s") && !strings.HasSuffix(f.Object, "'") {
					// "Son of Saul's" ends no relation.
					out = append(out, f)
				}
			}
			lower := lowerFirst(clause)
			if m := kinOfRe.FindStringSubmatch(lower); m != nil {
				if k, ok := kinWords[m[1]]; ok {
					f := kinFact{Subject: subject, Object: m[2], Word: m[1], rel: k, plural: plural(m[1]) || strings.Contains(lower[:strings.Index(lower, m[1])], "one of")}
					if inner, ok := kinWords[m[4]]; ok && strings.HasSuffix(m[2], "'s") {
						// "Son of David's sister": David's nephew.
						f.Object += " " + m[4]
						f.rel = kin{kinCompose[k.kind+"/"+inner.kind], k.sex}
						if f.rel.kind == "" {
							f.rel.kind = "kin"
						}
					}
					add(f)
					if m[3] != "" && (k.kind == "child") {
						// "Son of David by Bath-sheba": his mother.
						add(kinFact{Subject: subject, Object: m[3], Word: m[1], rel: k, byMother: true})
					}
					continue
				}
			}
			if m := kinPossRe.FindStringSubmatch(clause); m != nil {
				if k, ok := kinWords[m[2]]; ok {
					add(kinFact{Subject: subject, Object: m[1], Word: m[2], rel: k})
					continue
				}
			}
			if m := kinHisRe.FindStringSubmatch(lower); m != nil {
				if k, ok := kinWords[m[1]]; ok && !plural(m[1]) {
					add(kinFact{Subject: m[2], Object: subject, Word: m[1], rel: k})
					continue
				}
			}
			for _, m := range kinApposRe.FindAllStringSubmatch(clause, -1) {
				if k, ok := kinWords[m[1]]; ok && !plural(m[1]) {
					add(kinFact{Subject: m[2], Object: subject, Word: m[1], rel: k})
				}
			}
			if m := kinMarryRe.FindStringSubmatch(lower); m != nil && !strings.HasPrefix(lower[len(m[0]):], "'") {
				// Not "Marries Nabal's widow".
				add(kinFact{Subject: m[1], Object: subject, Word: "spouse", rel: kin{"spouse", 0}})
			}
		}
	}
	return out
}

// kinClauses splits a phrase at its clauses, each said of the topic:
// at semicolons and "and" ("A Levite and son of Amram", "Son of Isaac,
// and the twin brother of Esau"). A comma alone sets off another's
// description ("Ish-bosheth, son of Saul"), which is not the topic's.
func kinClauses(phrase string) []string {
	var out []string
	for _, part := range strings.Split(phrase, ";") {
		cs := kinAndRe.Split(part, -1)
		for i, c := range cs {
			c = strings.TrimSpace(c)
			if c == "" {
				continue
			}
			if i > 0 && startsUpper(c) && len(out) > 0 {
				// "Father of James and John", "Son of Jacob and Leah":
				// one list of names.
				out[len(out)-1] += " and " + c
				continue
			}
			out = append(out, c)
		}
	}
	return out
}

// lowerFirst lower-cases a phrase's first word unless it is a name
// ("Father of David" → "father of David"; "Solomon's mother" stays).
func lowerFirst(s string) string {
	first, _, _ := strings.Cut(s, " ")
	if _, ok := kinWords[strings.ToLower(first)]; ok || slices.Contains([]string{"The", "A", "An", "His", "Her", "One", "Marries", "Married", "Twin", "Elder", "Younger", "Later"}, first) {
		return strings.ToLower(s[:1]) + s[1:]
	}
	return s
}

// kinName is a name as Nave's writes it without the words before it
// that are no name ("Becomes Isaac's wife"), and its keys (nameKeys).
func (r *NaveRouter) kinName(name string) (string, []string) {
	ws := strings.Fields(name)
	verb := func(w string) bool {
		w = strings.ToLower(w)
		if r.Verb == nil {
			return false
		}
		if r.Verb(w) {
			return true
		}
		return r.Base != nil && slices.ContainsFunc(r.Base(w), r.Verb)
	}
	for len(ws) > 1 && verb(ws[0]) && !(r.Entity != nil && r.Entity(ws[0])) && !(r.Person != nil && r.Person(ws[0])) {
		ws = ws[1:]
	}
	name = strings.Join(ws, " ")
	return name, nameKeys(name)
}

// nameKeys are the name words of a name as Nave's writes it, lower case,
// without hyphens ("Bath-sheba" → "bathsheba"; "King Rehoboam" →
// "rehoboam"); titles and small words dropped.
func nameKeys(name string) []string {
	var out []string
	for _, w := range strings.Fields(name) {
		if !startsUpper(w) || w == "King" || w == "Queen" {
			continue
		}
		out = append(out, strings.ToLower(strings.ReplaceAll(strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "'"), "-", "")))
	}
	return out
}

// topicDisplayName is a Nave's title's first name in title case
// ("BATH-SHEBA (BATHSHEBA)" → "Bath-sheba").
func topicDisplayName(title string) string {
	name := titleNames(title)[0]
	if first, _, ok := strings.Cut(name, ","); ok {
		name = first
	}
	words := strings.Fields(name)
	for i, w := range words {
		words[i] = titleCaps(w, i == 0)
	}
	return strings.Join(words, " ")
}

// kinMatch scores how well a fact's name words (keys) name the person a
// question names (asked): the share of the words of both they share.
func kinMatch(keys, asked []string) float64 {
	shared := 0
	for _, k := range keys {
		if slices.Contains(asked, k) {
			shared++
		}
	}
	if shared == 0 {
		return 0
	}
	return float64(shared) / float64(len(keys)+len(asked)-shared)
}

// objMatch is kinMatch of a fact's object, a list of people when Nave's
// names several ("Grandfather of Moses, Aaron, and Miriam"): then the
// share of the asked names it lists.
func (f kinFact) objMatch(asked []string) float64 {
	if len(f.members) < 2 {
		return kinMatch(f.obj, asked)
	}
	n := 0
	for _, k := range asked {
		if slices.ContainsFunc(f.members, func(m []string) bool { return slices.Contains(m, k) }) {
			n++
		}
	}
	return float64(n) / float64(len(asked))
}

// KinFact is a family relation the question asks about, as Nave's
// states it: the composer says it and cites its verses first.
type KinFact struct {
	Sentences []KinSentence
}

// KinSentence is one relation stated ("Jesse was the father of David")
// and the verses that state it.
type KinSentence struct {
	Text   string
	Verses []corpus.VerseID
}

// kinRelation answers ask from Nave's relations: the facts stating it,
// best first.
func (a *Answerer) kinRelation(ask kinAsk) []kinScored {
	nr, ok := a.r.Router.(*NaveRouter)
	if !ok {
		return nil
	}
	kind, sex, _ := strings.Cut(ask.Rel, "/")
	var out []kinScored
	var qualifier map[string]bool
	if ask.Qualifier != "" {
		qualifier = a.r.lex.an.termSet(ask.Qualifier)
	}
	for _, f := range nr.kinFacts() {
		held := false
		a.r.lex.an.terms(nr.entries[f.entry].sense, func(t string) { held = held || qualifier[t] })
		if qualifier != nil && !held {
			// "jacob's favorite son": Nave's must say which.
			continue
		}
		var s float64
		if len(ask.Other) > 0 {
			// How two are related: a relation between them either way.
			s = min(kinMatch(f.subj, ask.Person), f.objMatch(ask.Other))
			s = max(s, min(f.objMatch(ask.Person), kinMatch(f.subj, ask.Other)))
		}
		if f.rel.kind == kind && (sex == "" || f.rel.sex == 0 || f.rel.sex == sex[0]) {
			// "Father of David" of JESSE: the father asked; of equal
			// matches, the word asked ("wife" before "Marries").
			if d := f.objMatch(ask.Person); d > 0 {
				if sex != "" && f.rel.sex == sex[0] {
					d += 0.05
				}
				s = max(s, d)
			}
		}
		if f.rel.kind == kinConverse[kind] && kinConverse[kind] != "" && !(kind == "spouse" && sex != "" && f.rel.sex == sex[0]) {
			// "Son of Jesse" of DAVID: his father, or his mother (a
			// wife's "Wife of" is no answer to whose wife she is not).
			c := 0.8 * kinMatch(f.subj, ask.Person)
			if b := nr.entries[f.entry].bearer; b > 0 && f.Subject == topicDisplayName(nr.topics[nr.entries[f.entry].topic].title) {
				// Of a name several bore, the one Nave's tells most of
				// is the one meant ("JOSIAH: 2. Son of Zephaniah" is not
				// the king).
				c *= 0.5 + 0.5*b
			}
			if kind == "parent" && sex == "f" && f.rel.kind == "child" && !f.byMother && len(f.members) < 2 {
				// Nave's names a mother after "by" ("Son of Jacob by
				// Rachel") or beside the father; alone, a father.
				c *= 0.5
			}
			s = max(s, c)
		}
		if s < 0.5 {
			continue
		}
		// Of equal matches, a fact whose verses name both people.
		vs, both := a.kinVerses(f)
		if both {
			s += 0.03
		}
		out = append(out, kinScored{f, s, vs})
	}
	slices.SortStableFunc(out, func(x, y kinScored) int { return cmp.Compare(y.score, x.score) })
	return out
}

// kinScored is a fact that answers a question, how well, and the verses
// stating it (kinVerses).
type kinScored struct {
	kinFact
	score  float64
	verses []corpus.VerseID
}

// kinPath returns two facts relating the two people a question names
// through a third ("Lot was a son of Haran", "Haran was a brother of
// Abraham"), or none: of the paths, the first in Nave's order whose
// verses name both people of each fact.
func (a *Answerer) kinPath(ask kinAsk) []kinScored {
	nr, ok := a.r.Router.(*NaveRouter)
	if !ok {
		return nil
	}
	// other is the side of f that is not the person keys name, when f
	// names them on one side.
	other := func(f kinFact, keys []string) ([]string, bool) {
		switch {
		case kinMatch(f.subj, keys) >= 0.5 && len(f.members) < 2:
			return f.obj, true
		case f.objMatch(keys) >= 0.5:
			return f.subj, true
		}
		return nil, false
	}
	var froms, tos []kinFact
	for _, f := range nr.kinFacts() {
		if _, ok := other(f, ask.Person); ok {
			froms = append(froms, f)
		}
		if _, ok := other(f, ask.Other); ok {
			tos = append(tos, f)
		}
	}
	for _, f := range froms {
		mid, _ := other(f, ask.Person)
		if kinMatch(mid, ask.Other) > 0 {
			continue
		}
		for _, g := range tos {
			m2, _ := other(g, ask.Other)
			if !slices.Equal(mid, m2) || kinMatch(m2, ask.Person) > 0 {
				continue
			}
			fv, fboth := a.kinVerses(f)
			if !fboth {
				continue
			}
			gv, gboth := a.kinVerses(g)
			if !gboth {
				continue
			}
			return []kinScored{{f, 0, fv}, {g, 0, gv}}
		}
	}
	return nil
}

// kinList says the relatives a plural question asks for in one sentence
// ("Reuben, Simeon and Levi were sons of Jacob"), citing the verses that
// name most of them: the facts of the first fact's relation and person.
func (a *Answerer) kinList(ask kinAsk, facts []kinScored) (KinSentence, bool) {
	// The facts naming the relatives as their subject ("Abital was one of
	// the wives of David"); of the converse (ABIGAIL's "marriage to
	// David"), the subject is the person asked about.
	direct := slices.DeleteFunc(slices.Clone(facts), func(f kinScored) bool { return f.objMatch(ask.Person) < 0.5 })
	if len(direct) < 2 {
		return KinSentence{}, false
	}
	first := direct[0]
	var names []string
	var keys [][]string
	var pool []corpus.VerseID
	for _, f := range direct {
		if f.rel.kind != first.rel.kind || slices.Contains(names, f.Subject) {
			continue
		}
		names, keys = append(names, f.Subject), append(keys, f.subjAll)
		for _, id := range f.Verses {
			if !slices.Contains(pool, id) {
				pool = append(pool, id)
			}
		}
	}
	if len(names) < 2 {
		return KinSentence{}, false
	}
	// The verses naming the most of them, and the person, best first.
	type counted struct {
		id corpus.VerseID
		n  int
	}
	var cs []counted
	for _, id := range pool {
		v, ok := a.r.Verse(id)
		if !ok {
			continue
		}
		text := strings.ToLower(strings.ReplaceAll(v.Text, "-", ""))
		if !slices.ContainsFunc(first.objAll, func(k string) bool { return containsWord(text, k) }) {
			continue
		}
		n := 0
		for _, ks := range keys {
			if slices.ContainsFunc(ks, func(k string) bool { return containsWord(text, k) }) {
				n++
			}
		}
		if n > 0 {
			cs = append(cs, counted{id, n})
		}
	}
	slices.SortStableFunc(cs, func(x, y counted) int { return y.n - x.n })
	if len(cs) == 0 {
		return KinSentence{}, false
	}
	var vs []corpus.VerseID
	for _, c := range cs[:min(len(cs), maxKinVerses)] {
		vs = append(vs, c.id)
	}
	// The noun asked ("parents" of Amram and Jochebed), else Nave's.
	word := ask.Noun
	if !plural(word) {
		word = first.Word
		if !first.plural && !strings.HasSuffix(word, "s") {
			word = pluralOf(word)
		}
	}
	if len(names) > maxKinListed {
		names = append(names[:maxKinListed], "others")
	}
	return KinSentence{Text: fmt.Sprintf("%s were %s of %s", joinAnd(names), word, first.Object), Verses: vs}, true
}

// same reports whether two facts state one relation ("Abraham married
// Sarah", "Sarah was the wife of Abraham").
func (f kinFact) same(g kinFact) bool {
	if f.rel.kind != g.rel.kind && f.rel.kind != kinConverse[g.rel.kind] {
		return false
	}
	return slices.Equal(f.subj, g.subj) && slices.Equal(f.obj, g.obj) || slices.Equal(f.subj, g.obj) && slices.Equal(f.obj, g.subj)
}

// sentence says a fact as Nave's states it: "Jesse was the father of
// David".
func (f kinFact) sentence() string {
	word := f.Word
	if word == "spouse" {
		return fmt.Sprintf("%s married %s", f.Object, f.Subject)
	}
	if f.plural {
		if strings.HasSuffix(word, "s") {
			return fmt.Sprintf("%s was one of the %s of %s", f.Subject, word, f.Object)
		}
		return fmt.Sprintf("%s was one of the %s of %s", f.Subject, pluralOf(word), f.Object)
	}
	article := "the"
	switch f.rel.kind {
	case "child", "sibling", "grandchild", "nephew", "cousin":
		article = "a"
	}
	return fmt.Sprintf("%s was %s %s of %s", f.Subject, article, word, f.Object)
}

func pluralOf(w string) string {
	switch w {
	case "wife":
		return "wives"
	case "child":
		return "children"
	}
	return w + "s"
}

// kin answers a family question from Nave's relations; where Nave's
// states none about the people it names, the answer is the one the
// question gets as any other (computed first, once). A question about
// someone the Bible does not name ("Zeus's wife") is declined.
func (a *Answerer) kin(ctx context.Context, question string, ask kinAsk, maxRefs int, opts AnswerOptions) (Answer, bool, error) {
	inner := opts
	inner.unkinned = true
	more, err := a.Answer(ctx, question, maxRefs, inner)
	if err != nil {
		return Answer{}, false, err
	}
	if ask.Unknown {
		return declined(more), true, nil
	}
	facts := a.kinRelation(ask)
	if len(facts) == 0 && len(ask.Other) > 0 {
		// "how was lot related to abraham": through Haran, Lot's
		// father and Abraham's brother.
		facts = a.kinPath(ask)
	}
	if len(facts) == 0 {
		return more, true, nil
	}
	var kf KinFact
	var cands []Candidate
	var said []kinFact
	addCand := func(id corpus.VerseID) { cands = a.r.keyCandidate(cands, id) }
	if ask.plural {
		if s, ok := a.kinList(ask, facts); ok {
			kf.Sentences = append(kf.Sentences, s)
			for _, id := range s.Verses {
				addCand(id)
			}
		}
	}
	for i, f := range facts {
		if len(kf.Sentences) == maxKinSentences || ask.plural && len(kf.Sentences) > 0 {
			break
		}
		if i > 0 && len(kf.Sentences) > 0 && f.score < facts[0].score-0.01 {
			// A second relation only as well attested as the first
			// (Ruth's husbands), not another bearer's.
			break
		}
		s := f.sentence()
		if slices.ContainsFunc(said, func(g kinFact) bool { return g.same(f.kinFact) || g.sentence() == s }) {
			continue
		}
		said = append(said, f.kinFact)
		if len(f.verses) == 0 {
			continue
		}
		kf.Sentences = append(kf.Sentences, KinSentence{Text: s, Verses: f.verses})
		for _, id := range f.verses {
			addCand(id)
		}
	}
	if len(kf.Sentences) == 0 {
		return more, true, nil
	}
	for _, ref := range more.References {
		for _, id := range ref.VerseIDs() {
			addCand(id)
		}
	}
	q := Question{Text: question, MaxRefs: maxRefs, Kin: &kf, Candidates: cands}
	ans, err := a.write(ctx, q, Answer{gate: more.gate, themes: more.themes}, opts.Extractive)
	return ans, err == nil, err
}

// maxKinSentences is how many relations an answer states; maxKinVerses
// how many verses each cites.
const (
	maxKinSentences = 2
	maxKinVerses    = 2
	maxKinListed    = 12
)

// kinVerses are the verses stating a fact: of the verses Nave's lists
// under its entry and those of the KJV naming both people, the ones
// naming both, then holding a word of kinship, then listed by Nave's
// (Genesis 29:10, "Laban his mother's brother", for JACOB's "his
// uncle, Laban", which Nave's files under Genesis 29:30 and Hosea
// 12:12, verses naming one of them); both: one names both.
func (a *Answerer) kinVerses(f kinFact) (vs []corpus.VerseID, both bool) {
	type scored struct {
		id    corpus.VerseID
		score float64
		order int
	}
	var cs []scored
	seen := map[corpus.VerseID]bool{}
	consider := func(id corpus.VerseID, listed bool) {
		if seen[id] {
			return
		}
		seen[id] = true
		v, ok := a.r.Verse(id)
		if !ok {
			return
		}
		text := strings.ToLower(strings.ReplaceAll(v.Text, "-", ""))
		has := func(keys []string) bool {
			return slices.ContainsFunc(keys, func(k string) bool { return containsWord(text, k) })
		}
		s := 0.0
		switch {
		case has(f.subjAll) && has(f.objAll):
			s = 2
		case has(f.subjAll) || has(f.objAll):
			s = 1
		default:
			return
		}
		{
			// A word of kinship within three words of one of the names
			// ("Laban his mother's brother", "Saul the son of Kish",
			// "his brethren, James"): the relation's own words
			// ("sister" of a sibling) count whole, another of
			// kinship's half. A verse Nave's lists may name one of
			// them by a pronoun ("is not this the carpenter's son? …
			// and his brethren, James").
			words := plainWords(v.Text)
			rel, other := false, false
			for i, w := range words {
				w = unpossessed(w)
				if !slices.Contains(f.subjAll, w) && !slices.Contains(f.objAll, w) {
					continue
				}
				for _, x := range words[max(0, i-3):min(len(words), i+4)] {
					x = unpossessed(x)
					_, kw := kinWords[x]
					rel = rel || relationWord(f.rel.kind, x)
					other = other || kw || kinVerbs[x]
				}
			}
			switch {
			case rel:
				s++
			case other:
				s += 0.5
			}
		}
		if listed {
			s++
		}
		cs = append(cs, scored{id, s, len(cs)})
	}
	for _, id := range f.Verses {
		consider(id, true)
	}
	for _, id := range a.r.versesNaming(f.subjAll, f.objAll, maxKinSearched) {
		consider(id, false)
	}
	slices.SortStableFunc(cs, func(x, y scored) int {
		switch {
		case x.score > y.score:
			return -1
		case x.score < y.score:
			return 1
		}
		return x.order - y.order
	})
	for _, c := range cs {
		if len(vs) == maxKinVerses || len(vs) > 0 && (c.score < 2 || c.score < cs[0].score-0.5) {
			// A second verse only as plain as the first.
			break
		}
		if c.score < 2 && !slices.Contains(f.Verses, c.id) {
			continue
		}
		vs = append(vs, c.id)
	}
	return vs, len(cs) > 0 && cs[0].score >= 2
}

// relationWord reports whether a KJV word says a relation of kind: its
// nouns and its converse's ("father" and "son"), the verbs of birth and
// marriage, and the nouns of the relations the KJV says it by ("Laban
// his mother's brother"; "father in law").
func relationWord(kind, w string) bool {
	k, ok := kinWords[w]
	switch {
	case ok && (k.kind == kind || k.kind == kinConverse[kind]):
		return true
	case kind == "parent" || kind == "child":
		return w == "begat" || w == "begot" || w == "bare"
	case kind == "spouse":
		return w == "married"
	case kind == "uncle" || kind == "nephew" || kind == "cousin":
		return ok && (k.kind == "sibling" || k.kind == "parent" || k.kind == "child" || k.kind == "uncle")
	case strings.HasSuffix(kind, "-in-law"):
		return w == "law"
	}
	return false
}

// kinVerbs are the KJV's verbs of kinship, beside its nouns (kinWords).
var kinVerbs = map[string]bool{"begat": true, "begot": true, "bare": true, "married": true}

// maxKinSearched bounds the verses naming two people that kinVerses
// weighs (David and Solomon share about 150).
const maxKinSearched = 400

// versesNaming returns the verses whose KJV text names one of as and
// one of bs, in canonical order, at most limit.
func (r *Retriever) versesNaming(as, bs []string, limit int) []corpus.VerseID {
	da, db := r.namingDocs(as), r.namingDocs(bs)
	if len(da) > len(db) {
		da, db = db, da
	}
	var ids []corpus.VerseID
	for d := range da {
		if db[d] {
			ids = append(ids, r.lex.ids[d])
		}
	}
	slices.Sort(ids)
	if len(ids) > limit {
		ids = ids[:limit]
	}
	return ids
}

// namingDocs are the lexical index's documents holding one of keys.
func (r *Retriever) namingDocs(keys []string) map[int32]bool {
	out := map[int32]bool{}
	for _, k := range keys {
		r.lex.an.terms(k, func(t string) {
			if id, ok := r.lex.terms[t]; ok {
				for _, p := range r.lex.postings[id] {
					out[p.doc] = true
				}
			}
		})
	}
	return out
}

// containsWord reports whether text holds w as a whole word.
func containsWord(text, w string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !unicode.IsLetter(rune(text[j-1]))
		after := j+len(w) == len(text) || !unicode.IsLetter(rune(text[j+len(w)]))
		if before && after {
			return true
		}
		i = j + len(w)
	}
}

// kinSentences state the relations and cite their verses:
// "Jesse was the father of David (Ruth 4:17; 1 Samuel 17:12)." The first
// is the summary; the verse stating the first is quoted.
func (c *composition) kinSentences() (own []string) {
	for _, s := range c.q.Kin.Sentences {
		var refs []string
		for _, span := range groupAdjacent(s.Verses) {
			if ref, ok := c.cite(span); ok {
				refs = append(refs, ref)
			}
		}
		if len(refs) == 0 {
			continue
		}
		own = append(own, fmt.Sprintf("%s (%s).", s.Text, strings.Join(refs, "; ")))
	}
	if len(own) > 0 && len(c.q.Kin.Sentences[0].Verses) > 0 {
		own = append(own, c.readsSentence(c.q.Kin.Sentences[0].Verses[0]))
	}
	return own
}

// readsSentence quotes the passage the composer chose around a verse
// ("Ruth 4:17 reads: \"…\" (Ruth 4:17).").
func (c *composition) readsSentence(id corpus.VerseID) string {
	span := c.chosenRun(id)
	if len(span) == 0 {
		span = []corpus.VerseID{id}
	}
	ref := spanReference(span)
	return fmt.Sprintf("%s reads: \"%s\" (%s).", ref, quotation(c.spanText(span), maxQuoteRunes, cutQuoteRunes, minCutRunes), ref)
}
