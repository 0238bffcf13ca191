package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/wordnet"
)

// A question about a person's end — "how did king saul die", "who
// killed goliath", "where was sarah buried", "how old was moses when he
// died", "what happened to lot's wife" — is answered from the person's
// Nave's entry that tells it ("Is defeated, and is killed with some of
// his sons", 1 Samuel 31), narrowed to the verses that say it ("So Saul
// died", 31:6), not from the verses that share the question's words.
//
// Which words tell an end is WordNet's: a word whose sense is, is a kind
// of, or causes one of fateRoots (wordnet.Leads: "stoned" is a kind of
// kill, which causes die; "burial" is derived from bury). The one choice
// of ours is the two roots.

// fateRoot is a verb sense a question about a person's end asks of.
type fateRoot struct {
	verb  string
	sense int    // WordNet's sense number
	noun  string // the noun WordNet derives from it, for "Scripture tells of the death of Samuel"
}

// fateRoots: die (sense 1, "pass from physical life") and bury (sense 2,
// "place in a grave or tomb"; sense 1 is "cover from sight").
var fateRoots = []fateRoot{{"die", 1, "death"}, {"bury", 2, "burial"}}

// fateSenses is how many of a word's most frequent senses may tell an
// end: "hang" kills by hanging in its third; "go" and "pass" die only in
// their twentieth or so.
const fateSenses = 3

// fateClassifier tells the root of the end a word tells, "" for none,
// each word looked up once.
type fateClassifier struct {
	wn    *wordnet.WordNet
	g     *grammar
	cache sync.Map // word -> string
}

func newFateClassifier(wn *wordnet.WordNet) *fateClassifier {
	if wn == nil {
		return nil
	}
	return &fateClassifier{wn: wn, g: newGrammar(wn)}
}

// root is the first of fateRoots the lower-case word leads to, or "".
func (f *fateClassifier) root(w string) string {
	if f == nil || len(w) < 3 {
		return ""
	}
	if v, ok := f.cache.Load(w); ok {
		return v.(string)
	}
	out := ""
	for _, r := range fateRoots {
		if f.wn.Leads(w, r.verb, r.sense, fateSenses) {
			out = r.verb
			break
		}
	}
	f.cache.Store(w, out)
	return out
}

// causes reports whether the word's sense kills (leads to kill, which
// causes die): said of its subject, it tells another's end ("Kills the
// Gibeonites"), unless passive or reflexive ("is killed", "hangs
// himself").
func (f *fateClassifier) causes(w string) bool {
	return f != nil && f.wn.Leads(w, "kill", 1, fateSenses)
}

// verb reports whether the word is a form of a verb ("burial" and
// "death" are not).
func (f *fateClassifier) verb(w string) bool {
	return f != nil && slices.ContainsFunc(f.wn.Lookup(w), func(l wordnet.Lemma) bool { return l.POS == wordnet.Verb })
}

// past reports whether the word is a past form ("died", "slew" of slay,
// "stoned"), of a verb other than itself: a narrative's, where a base or present form may be a
// threat or a plan ("if I prevail against him, and kill him").
func (f *fateClassifier) past(w string) bool {
	if f == nil || strings.HasSuffix(w, "s") || strings.HasSuffix(w, "eth") || strings.HasSuffix(w, "est") || strings.HasSuffix(w, "ing") {
		return false
	}
	for _, l := range f.wn.Lookup(w) {
		if l.POS == wordnet.Verb && l.Lemma != w {
			return true
		}
	}
	return false
}

// fateOf is the root a word of a question or a verse tells, its archaic
// form ("dieth") read as the modern one.
func (r *Retriever) fateOf(w string) string {
	w = strings.ToLower(w)
	if isStop(w) || r.isName(w) {
		return ""
	}
	if m, ok := r.lex.an.modern[w]; ok {
		w = m
	}
	return r.fate.root(w)
}

// fateAsk is a question about a person's end, read.
type fateAsk struct {
	Roots  []string // the fateRoots' verbs it asks of
	Person []string // the person's name words, lower case
	// Kin is a relative of Person the question asks about ("wife" of
	// "lot's wife", "sons" of "saul's sons").
	Kin string
	// Other are its other words ("king", "judah", "old"): they tell one
	// bearer of a name from another and the verse that says what is
	// asked ("how old" → "an hundred and twenty years old").
	Other    []string
	Unknown  bool
	Killed   bool // it asks with a killing verb ("who killed", "how was … murdered")
	Happened bool // "what happened to …", "what became of …"
}

// fateQuestion reads a question about a person's end; typed is the
// question as typed (its capitals tell a surname).
func (r *Retriever) fateQuestion(typed string) (fateAsk, bool) {
	if r.fate == nil {
		return fateAsk{}, false
	}
	// "ben-hadad" is one name, "ishbosheth" the KJV's "Ish-bosheth".
	typed = hyphenedRe.ReplaceAllStringFunc(typed, func(m string) string {
		if r.isName(strings.ToLower(m)) {
			return strings.ReplaceAll(m, "-", "")
		}
		return m
	})
	tws := typedFields(typed, false)
	ws := make([]string, len(tws))
	for i, w := range tws {
		ws[i] = strings.ToLower(w)
		if h := r.hyphenedName(unpossessed(ws[i])); h != "" {
			ws[i] = h + ws[i][len(unpossessed(ws[i])):]
		}
	}
	if len(ws) < 3 {
		return fateAsk{}, false
	}
	if !r.fateFrame(ws) {
		return fateAsk{}, false
	}
	var ask fateAsk
	ask.Happened = ws[0] == "what" && (ws[1] == "happened" || ws[1] == "happens" || ws[1] == "became")
	fateAt := map[int]string{}
	for i, w := range ws {
		if root := r.fateOf(unpossessed(w)); root != "" {
			fateAt[i] = root
		}
	}
	if len(fateAt) == 0 && !ask.Happened {
		return fateAsk{}, false
	}
	person := -1
	for i, w := range ws {
		if fateAt[i] != "" || isStop(w) {
			continue
		}
		// A people's name ("the first Christian martyr") is no one's.
		if u := unpossessed(w); r.isName(u) && !r.determined[u] || r.titledPerson(u) || r.unknownWord(u) && r.nameLike(tws[i], u) {
			person = i
			break
		}
	}
	// A verb telling an end said of the person as its subject tells
	// another's: "Where did Abraham bury Sarah?" asks of Sarah, "Herod
	// who killed the babies" of no one named. Not "how was Naboth
	// killed", "did X get killed".
	passive := person >= 1 && (beForms[ws[1]] || slices.Contains(ws[:person], "get") || slices.Contains(ws[:person], "got"))
	for i := person + 1; person >= 0 && i < len(ws); i++ {
		if fateAt[i] == "" || passive || !r.fate.causes(unpossessed(ws[i])) && fateAt[i] == fateRoots[0].verb ||
			slices.ContainsFunc(ws[max(person+1, i-3):i], func(w string) bool { return beForms[w] }) {
			// "and where is he buried": passive too.
			continue
		}
		if i+1 < len(ws) && !isStop(ws[i+1]) && r.isName(unpossessed(ws[i+1])) {
			person = i + 1
		} else {
			delete(fateAt, i)
		}
		break
	}
	if len(fateAt) == 0 && !ask.Happened {
		return fateAsk{}, false
	}
	if person < 0 || person > maxFatePerson {
		// "what happens to people who never heard of Jesus": the
		// person is not what the frame asks of.
		return fateAsk{}, false
	}
	for i := person + 1; i < len(ws) && fateAt[i] == ""; i++ {
		if u := unpossessed(ws[i]); r.isName(u) && !r.ubiquitous(u) && ws[i-1] != "of" && ws[i-1] != "the" && !r.isName(unpossessed(ws[i-1])) {
			// "Where did Abraham take Isaac to be sacrificed?": an
			// end told after another name is that one's.
			for j := range fateAt {
				if j > i {
					delete(fateAt, j)
				}
			}
			break
		}
	}
	for i, w := range ws {
		if root := fateAt[i]; root != "" {
			ask.Killed = ask.Killed || r.fate.causes(unpossessed(w))
			if !slices.Contains(ask.Roots, root) {
				ask.Roots = append(ask.Roots, root)
			}
		}
	}
	if len(ask.Roots) == 0 {
		if !ask.Happened {
			return fateAsk{}, false
		}
		ask.Roots = []string{fateRoots[0].verb}
	}
	p, ok := r.kinPerson(tws, ws, person)
	if !ok {
		return fateAsk{}, false
	}
	ask.Person, ask.Unknown = p.names, p.unknown
	if !ask.Unknown && !r.onePerson(tws, ws, person) {
		// "Julius Caesar": two names the Bible gives, never together.
		ask.Unknown = true
	}
	for k := person; k+1 < len(ws); k++ {
		if ws[k] != unpossessed(ws[k]) || !r.isName(ws[k]) && strings.HasSuffix(ws[k], "s") && r.isName(strings.TrimSuffix(ws[k], "s")) {
			if noun, _, ok := kinNoun(ws, k+1); ok {
				ask.Kin = noun
			}
			break
		}
	}
	for i, w := range ws {
		u := unpossessed(w)
		if fateAt[i] != "" || isStop(u) || questionFrame[u] || slices.Contains(ask.Person, strings.ReplaceAll(u, "-", "")) || u == ask.Kin || len(u) < 3 {
			continue
		}
		if i < 2 && (u == "happened" || u == "happens" || u == "became") {
			continue
		}
		ask.Other = append(ask.Other, u)
	}
	return ask, true
}

// hyphenedRe matches a hyphened word ("ben-hadad").
var hyphenedRe = regexp.MustCompile(`\pL+(?:-\pL+)+`)

// hyphenedNames maps each hyphened name of names written without its
// hyphens to it.
func hyphenedNames(names map[string]bool) map[string]string {
	out := map[string]string{}
	for n := range names {
		if strings.Contains(n, "-") {
			out[strings.ReplaceAll(n, "-", "")] = n
		}
	}
	return out
}

// hyphenedName is the KJV's hyphened name a word writes without its
// hyphens ("ishbosheth" → "ish-bosheth"), or "".
func (r *Retriever) hyphenedName(w string) string {
	if r.isName(w) {
		return ""
	}
	return r.hyphened[w]
}

// nameLike reports whether a word neither Bible uses reads as a name:
// typed with a capital, or no English word, or one WordNet writes only
// with a capital ("achilles"); "statue" (the KJV says "image") is none.
func (r *Retriever) nameLike(typed, lower string) bool {
	return startsUpper(typed) || r.Dictionary == nil || !r.Dictionary(lower) || r.fate.g.nameOnly(lower)
}

// maxFatePerson is the last word a question's person may start at: the
// frame ("how old was", "what happened to king") comes first.
const maxFatePerson = 5

// fateFrame reports whether the question opens as one asking of a
// person's end does: "how did …", "how old was …", "who killed …",
// "where was … buried", "when did … die", "what happened to …", "did …
// die", or with the name ("saul death"). "How do I cope with grief when
// someone I love dies?" and "Why did Jesus die?" (why.go's) are not.
func (r *Retriever) fateFrame(ws []string) bool {
	switch ws[0] {
	case "how":
		return slices.Contains([]string{"did", "was", "were", "is", "old", "does", "had", "has"}, ws[1])
	case "who", "whom", "where", "when":
		return auxiliaries[ws[1]] || beForms[ws[1]] || r.fateOf(ws[1]) != ""
	case "what":
		// "what happened to lot's wife", "what became of", not "what
		// happened when Jesus calmed the storm" (an event).
		return (ws[1] == "happened" || ws[1] == "happens") && ws[2] == "to" || ws[1] == "became" && ws[2] == "of" || beForms[ws[1]]
	case "did", "was", "is", "were":
		return true
	}
	return !isStop(ws[0]) && r.isName(unpossessed(ws[0]))
}

// onePerson reports whether the run of names from ws[i] is one person's:
// the KJV writes them together ("Judas Iscariot", "Pontius Pilate"), or
// one Nave's topic names them all ("DORCAS: Also called Tabitha"), or
// the typed words join them ("Zechariah the son of Jehoiada").
func (r *Retriever) onePerson(tws, ws []string, i int) bool {
	nr, ok := r.Router.(*NaveRouter)
	if !ok {
		return true
	}
	aliases, byKey := nr.topicNames()
	// A word titling a topic is a name too when WordNet writes it only
	// with a capital ("CAESAR", which the KJV writes too often to count
	// as one; not "KING").
	named := func(w string) bool {
		return r.isName(w) || len(byKey[w]) > 0 && r.fate.g.nameOnly(w)
	}
	j := i
	for j < len(ws) && named(unpossessed(ws[j])) {
		if ws[j] != unpossessed(ws[j]) {
			j++
			break
		}
		j++
	}
	if j-i < 2 {
		return true
	}
	run := make([]string, 0, j-i)
	for _, w := range ws[i:j] {
		run = append(run, unpossessed(w))
	}
	if r.phrase.holds(runWords(strings.Join(run, " "))) {
		return true
	}
	for _, t := range byKey[strings.ReplaceAll(run[0], "-", "")] {
		if !slices.ContainsFunc(run[1:], func(w string) bool { return !slices.Contains(aliases[t], strings.ReplaceAll(w, "-", "")) }) {
			return true
		}
	}
	return false
}

// fateGroup is one bearer's entries of a topic (Nave's numbers the
// people of one name: "JUDAS: 1. Surnamed Iscariot … 2. One of the
// physical half-brothers of Jesus"), or a topic's unnumbered entries.
type fateGroup struct {
	topic   int32
	entries []int32
	score   float64
}

// Scores of fate's choices, each a design choice rather than a fit.
const (
	// maxFateFacts is how many of a person's entries an answer states,
	// maxFateVerses how many verses each cites.
	maxFateFacts  = 2
	maxFateVerses = 3
	// fateNear is how many words from a name a word telling an end
	// says it of the named ("Saul took a sword, and fell upon it … So
	// Saul died").
	fateNear = 5
	// maxFateTopic: a topic of more entries is a theme's outline, not a
	// life told in order (the longest life, ISRAEL's as Jacob, has
	// 214; JESUS, THE CHRIST 801).
	maxFateTopic = 300
	// maxFateSearched bounds the verses naming a person that are read
	// when Nave's tells no end of theirs.
	maxFateSearched = 400
)

// fateEntry is an entry telling the end asked about, with the verses
// that say it.
type fateEntry struct {
	entry  int32
	score  float64
	verses []corpus.VerseID
	told   bool    // its phrase tells the end (fateTells)
	vscore float64 // its best verse's fateVerse
}

// fate answers a question about a person's end; where neither Nave's
// nor the KJV tells the person's end, the answer is the one the
// question gets as any other (computed first, once). A person the Bible
// does not name ("how did julius caesar die") is declined.
func (a *Answerer) fate(ctx context.Context, question string, ask fateAsk, maxRefs int, opts AnswerOptions) (Answer, bool, error) {
	inner := opts
	inner.unfated = true
	more, err := a.Answer(ctx, question, maxRefs, inner)
	if err != nil {
		return Answer{}, false, err
	}
	if ask.Unknown {
		return declined(more), true, nil
	}
	nr, ok := a.r.Router.(*NaveRouter)
	if !ok {
		return more, true, nil
	}
	var ff FateFact
	var cands []Candidate
	addCand := func(id corpus.VerseID) { cands = a.r.keyCandidate(cands, id) }
	group, found, outline := a.fateGroup(nr, ask)
	if outline {
		return more, true, nil
	}
	if ask.Happened && found {
		// "what happened to Saul on the road to Damascus" asks of an
		// event, told by words the person's entries do not hold; "what
		// happened to agag king of the amalekites" describes him.
		text := nr.groupText(group)
		if slices.ContainsFunc(ask.Other, func(w string) bool { return !containsWord(text, w) }) {
			return more, true, nil
		}
	}
	var keys []string
	if found {
		aliases, _ := nr.topicNames()
		keys = aliases[group.topic]
		for _, fe := range a.fateEntries(nr, group, ask, keys) {
			re := &nr.entries[fe.entry]
			ff.Facts = append(ff.Facts, Fact{Topic: nr.topics[re.topic].title, Entry: re.sense, Verses: fe.verses, Score: 1})
			for _, id := range fe.verses {
				addCand(id)
			}
		}
	}
	if len(ff.Facts) == 0 {
		// Nave's tells no end of theirs: the verse naming them that
		// tells one (Uzziah "slept with his fathers; and they buried
		// him", 2 Chronicles 26:23).
		if len(keys) == 0 {
			keys = ask.Person
		}
		best, score := corpus.VerseID(0), 0.0
		for _, id := range a.r.versesNamingAny(keys, maxFateSearched) {
			if s := a.fateVerse(id, ask, keys); s > score {
				best, score = id, s
			}
		}
		if score < fateFound {
			return more, true, nil
		}
		ff.Verses = []corpus.VerseID{best}
		addCand(best)
	} else {
		ff.Verses = ff.Facts[0].Verses[:1]
	}
	for _, ref := range more.References {
		for _, id := range ref.VerseIDs() {
			addCand(id)
		}
	}
	ff.Told = ask.told(nr, group, found)
	q := Question{Text: question, MaxRefs: maxRefs, Fate: &ff, Candidates: cands}
	ans, err := a.write(ctx, q, Answer{gate: more.gate, themes: more.themes}, opts.Extractive)
	return ans, err == nil, err
}

// fateFound is the least score (fateVerse) of a verse found outside
// Nave's: it names the person and tells the end asked, near the name.
const fateFound = 4

// told is what a question asks to be told: "the death of Samuel", "the
// death and burial of Joshua", "what became of Lot's wife".
func (ask fateAsk) told(nr *NaveRouter, g fateGroup, found bool) string {
	name := ""
	if found {
		name = topicDisplayName(nr.topics[g.topic].title)
	} else {
		words := make([]string, len(ask.Person))
		for i, w := range ask.Person {
			words[i] = titleCaps(w, true)
		}
		name = strings.Join(words, " ")
	}
	if ask.Kin != "" {
		name = possessive(name) + " " + ask.Kin
	}
	if ask.Happened {
		return "what became of " + name
	}
	var nouns []string
	for _, r := range fateRoots {
		if slices.Contains(ask.Roots, r.verb) {
			nouns = append(nouns, r.noun)
		}
	}
	return "the " + strings.Join(nouns, " and ") + " of " + name
}

// fateGroup chooses the bearer asked about: of the topics the person's
// first name titles, the bearer whose entries hold most of the
// question's other words and names ("Iscariot", "king of Judah"), then
// one whose entries tell an end, then the one Scripture says most of.
// outline: the name titles a theme's outline (maxFateTopic).
func (a *Answerer) fateGroup(nr *NaveRouter, ask fateAsk) (best fateGroup, found, outline bool) {
	aliases, byKey := nr.topicNames()
	for _, t := range byKey[ask.Person[0]] {
		rt := nr.topics[t]
		if rt.end-rt.first > maxFateTopic {
			// JESUS, THE CHRIST (801 entries) tells his death in
			// sections, not as one life in order: the question is
			// answered as any other, not from JUSTUS ("Also called
			// Jesus").
			return fateGroup{}, false, true
		}
		if nr.Place != nil && nr.Place(rt.title) {
			continue // SODOM
		}
		groups := map[string][]int32{}
		var order []string
		for e := rt.first; e < rt.end; e++ {
			re := &nr.entries[e]
			if re.key {
				continue
			}
			b := bearerOf(re.sense)
			if _, ok := groups[b]; !ok {
				order = append(order, b)
			}
			groups[b] = append(groups[b], e)
		}
		for _, b := range order {
			g := fateGroup{topic: t, entries: groups[b]}
			share := 0.0
			tells := false
			for _, e := range g.entries {
				re := &nr.entries[e]
				share = max(share, re.bearer)
				tells = tells || len(re.verses) > 0 && a.fateTells(re.ownPhrase(), ask, aliases[t]) > 0
			}
			text := nr.groupText(g)
			for _, w := range slices.Concat(ask.Person[1:], ask.Other) {
				if containsWord(text, strings.ReplaceAll(w, "-", "")) {
					g.score++
				}
			}
			if tells {
				g.score += 0.5
			}
			g.score += 0.1 * share
			if !found || g.score > best.score {
				best, found = g, true
			}
		}
	}
	return best, found, false
}

// groupText is a group's phrases, lower case, hyphens dropped.
func (r *NaveRouter) groupText(g fateGroup) string {
	var text strings.Builder
	for _, e := range g.entries {
		text.WriteString(strings.ToLower(strings.ReplaceAll(r.entries[e].sense, "-", "")))
		text.WriteByte(' ')
	}
	return text.String()
}

// fateTells scores what a phrase of the person's topic tells of the end
// asked (fateWord); with a relative asked, the phrase must name them
// ("His wife … becomes a pillar of salt"), and a what-happened question
// takes any phrase that does.
func (a *Answerer) fateTells(phrase string, ask fateAsk, keys []string) float64 {
	words := plainWords(phrase)
	if ask.Kin != "" && !slices.ContainsFunc(words, func(w string) bool { return kinSame(w, ask.Kin) }) {
		return 0
	}
	s := 0.0
	for i := range words {
		s = max(s, a.fateWord(words, i, ask, keys, true))
	}
	if s == 0 && ask.Happened && ask.Kin != "" {
		s = 1
	}
	return s
}

// plainWords are a text's words, lower case, hyphens dropped
// ("Bath-sheba" is "bathsheba", as nameKeys write names).
func plainWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(strings.ReplaceAll(text, "-", "")), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
}

// reflexives make a killing verb tell its subject's end ("hangs
// himself").
var reflexives = map[string]bool{"himself": true, "herself": true, "themselves": true}

// fateWord scores words[i] as telling the end asked of the person
// (keys: their names): 2 for a word of an asked root, 1 for the other
// root's, half more for a past form; 0 when it tells another's end — a
// killing verb said of its subject ("Kills the Gibeonites", "Saul sought
// to slay them"), unless passive ("is killed by David"; a Nave's phrase
// opening with a participle: "Stoned"), reflexive, or its object the
// person ("slew him", "stoned Stephen"), and "the death of Naboth".
func (a *Answerer) fateWord(words []string, i int, ask fateAsk, keys []string, phrase bool) float64 {
	w := unpossessed(words[i])
	root := a.r.fateOf(w)
	if root == "" {
		return 0
	}
	modern := w
	if m, ok := a.r.lex.an.modern[w]; ok {
		modern = m
	}
	// A verb's subject and object tell whose end it is; a noun's "of"
	// does ("Death and burial of", "the death of Naboth").
	transitive := (a.r.fate.causes(modern) || root != fateRoots[0].verb) &&
		a.r.fate.verb(modern) && !(i+1 < len(words) && words[i+1] == "of")
	passive := false
	if transitive {
		// "was Belshazzar the king of the Chaldeans slain": a
		// participle ("slain", "smitten") is passive but after "had".
		had := i > 0 && (words[i-1] == "had" || words[i-1] == "have" || words[i-1] == "hath" || words[i-1] == "has")
		passive = i > 0 && beForms[words[i-1]] || i+1 < len(words) && (words[i+1] == "by" || reflexives[words[i+1]]) ||
			phrase && i == 0 && a.r.fate.past(modern) || participle(modern) && a.r.fate.past(modern) && !had
		object := false
		for _, x := range words[i+1 : min(len(words), i+4)] {
			x = unpossessed(x)
			if slices.Contains(keys, x) || x == "him" || x == "her" {
				object = true
				break
			}
			if a.r.isName(x) && !a.r.ubiquitous(x) {
				break
			}
		}
		if !passive && !object {
			return 0
		}
	}
	if i+2 < len(words) && words[i+1] == "of" && a.r.isName(unpossessed(words[i+2])) && !slices.Contains(keys, unpossessed(words[i+2])) {
		return 0
	}
	if !transitive || passive {
		// "Sarah, his wife, dies", "Sarah died in Kirjath-arba",
		// "Naboth is stoned": the name before it is the one who died
		// ("Abraham buried Sarah" is Sarah's burial).
		for j := i - 1; j >= max(0, i-fateNear); j-- {
			// A people's name ("the king of the Chaldeans") is no
			// one's end.
			if x := unpossessed(words[j]); a.r.isName(x) && !a.r.ubiquitous(x) && !a.r.determined[x] {
				if !slices.Contains(keys, x) {
					return 0
				}
				break
			}
		}
	}
	s := 1.0
	if slices.Contains(ask.Roots, root) {
		s = 2
	}
	if ask.Killed && a.r.fate.causes(modern) {
		// "Who killed Abel?" asks for the killing: "Cain … slew him",
		// not "the blood of Abel … which perished".
		s += 0.5
	}
	if a.r.fate.past(modern) {
		s += 0.5
	}
	return s
}

// kinSame reports whether w is the kinship noun or its plural.
func kinSame(w, noun string) bool {
	return w == noun || w == pluralOf(noun) || pluralOf(w) == noun
}

// fateEntries are the group's entries telling the end asked, best
// first, each with its verses that say it. A what-happened question of
// a person Nave's tells no end of takes the last event of their story.
func (a *Answerer) fateEntries(nr *NaveRouter, g fateGroup, ask fateAsk, keys []string) []fateEntry {
	var out []fateEntry
	for i, e := range g.entries {
		re := &nr.entries[e]
		if len(re.verses) == 0 {
			continue
		}
		vs, vscore := a.fateVerses(re.verses, ask, keys, a.phraseNames(re.ownPhrase(), keys))
		s := a.fateTells(re.ownPhrase(), ask, keys)
		if s == 0 && (vscore < fateFound || ask.Kin != "" || ask.Happened) {
			// An entry whose phrase tells no end may list the verse
			// telling it ("History of" Abel: Genesis 4:8); what
			// became of someone is the last event of their story
			// (below) when none tells an end.
			continue
		}
		for _, w := range ask.Other {
			if containsWord(strings.ToLower(re.ownPhrase()), w) {
				s += 0.5
			}
		}
		// A later entry of equal score tells what an earlier foretold
		// ("Death of, foretold"; "Death of, at the hand of Jehu"):
		// Nave's tells a life in order.
		out = append(out, fateEntry{entry: e, score: s/2 + vscore + 1e-3*float64(i), verses: vs, told: s > 0, vscore: vscore})
	}
	// An entry whose phrase tells no end comes in only when its verse
	// says it more plainly than every one whose phrase does ("History
	// of" Abel, Genesis 4:8, "Cain … slew him"; not "Under divine
	// direction brings plagues", Exodus 8:13, "the frogs died", beside
	// "Death and burial of" Moses).
	told := -1.0
	for _, fe := range out {
		if fe.told {
			told = max(told, fe.vscore)
		}
	}
	out = slices.DeleteFunc(out, func(fe fateEntry) bool { return !fe.told && fe.vscore <= told })
	if len(out) == 0 && ask.Happened && ask.Kin == "" {
		for i := len(g.entries) - 1; i >= 0; i-- {
			re := &nr.entries[g.entries[i]]
			if len(re.verses) > 0 && !re.section && !naveSorting(re.ownPhrase()) {
				vs, _ := a.fateVerses(re.verses, ask, keys, a.phraseNames(re.ownPhrase(), keys))
				out = append(out, fateEntry{entry: g.entries[i], score: 1, verses: vs})
				break
			}
		}
	}
	slices.SortStableFunc(out, func(x, y fateEntry) int { return cmp.Compare(y.score, x.score) })
	if len(out) > maxFateFacts {
		out = out[:maxFateFacts]
	}
	if len(out) > 1 && out[1].score < out[0].score-1 {
		// A second entry only as telling as the first.
		out = out[:1]
	}
	return out
}

// fateVerses are the verses of an entry that say the end asked, at most
// maxFateVerses adjacent to the best (1 Samuel 31:4-6 of "Is defeated,
// and is killed", a chapter), and the best one's score; the entry's
// first verses when none tells it.
func (a *Answerer) fateVerses(ids []corpus.VerseID, ask fateAsk, keys, others []string) ([]corpus.VerseID, float64) {
	type scored struct {
		id    corpus.VerseID
		score float64
	}
	var cs []scored
	for _, id := range slices.Sorted(slices.Values(ids)) {
		s := a.fateVerse(id, ask, keys)
		if s > 0 && len(others) > 0 {
			// The entry names who did it ("is killed by David",
			// "killed by Samuel"): the verse naming them too tells it
			// (1 Samuel 17:50, not David's lion in 17:35).
			if v, ok := a.r.Verse(id); ok && slices.ContainsFunc(plainWords(v.Text), func(w string) bool { return slices.Contains(others, unpossessed(w)) }) {
				s += 0.5
			}
		}
		cs = append(cs, scored{id, s})
	}
	if len(cs) == 0 {
		return nil, 0
	}
	top := slices.MaxFunc(cs, func(x, y scored) int {
		if c := cmp.Compare(x.score, y.score); c != 0 {
			return c
		}
		return cmp.Compare(y.id, x.id) // the first of equals
	})
	if top.score == 0 {
		return ids[:min(len(ids), 1)], 0
	}
	i := slices.IndexFunc(cs, func(c scored) bool { return c.id == top.id })
	lo, hi := i, i+1
	fits := func(c scored) bool { return c.score > 0 && c.score >= top.score-1 }
	for grew := true; grew && hi-lo < maxFateVerses; {
		switch {
		case hi < len(cs) && cs[hi].id == cs[hi-1].id+1 && fits(cs[hi]):
			hi++
		case lo > 0 && cs[lo-1].id == cs[lo].id-1 && fits(cs[lo-1]):
			lo--
		default:
			grew = false
		}
	}
	out := make([]corpus.VerseID, 0, hi-lo)
	for _, c := range cs[lo:hi] {
		out = append(out, c.id)
	}
	return out, top.score
}

// phraseNames are the names an entry's phrase gives besides the
// person's (keys): "David" of "is killed by David".
func (a *Answerer) phraseNames(phrase string, keys []string) []string {
	var out []string
	for _, w := range strings.Fields(phrase) {
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })
		if !startsUpper(w) {
			continue
		}
		k := strings.ToLower(strings.ReplaceAll(unpossessed(w), "-", ""))
		if a.r.isName(k) && !a.r.ubiquitous(k) && !slices.Contains(keys, k) {
			out = append(out, k)
		}
	}
	return out
}

// fateVerse scores how plainly a verse says the end asked of the person
// (keys: their names): its best word telling it (fateWord), 1 for
// naming them (or the relative asked about), 1 more when the two are
// within fateNear words, and half for each of the question's other words
// it holds ("old" of "how old was moses when he died").
func (a *Answerer) fateVerse(id corpus.VerseID, ask fateAsk, keys []string) float64 {
	v, ok := a.r.Verse(id)
	if !ok {
		return 0
	}
	words := plainWords(v.Text)
	var fates, names []int
	fate := 0.0
	for i, w := range words {
		w = unpossessed(w)
		if ask.Kin == "" && slices.Contains(keys, w) || ask.Kin != "" && kinSame(w, ask.Kin) {
			// With a relative asked, the verse must name them: "So Job
			// died" is not how his children died.
			names = append(names, i)
			continue
		}
		if f := a.fateWord(words, i, ask, keys, false); f > 0 {
			fate = max(fate, f)
			fates = append(fates, i)
		}
	}
	s := fate
	if len(names) > 0 {
		s++
	}
	if slices.ContainsFunc(fates, func(f int) bool {
		// Near a name, or after "he" in a verse naming them before
		// ("Moses was an hundred and twenty years old when he died").
		return slices.ContainsFunc(names, func(n int) bool { return f-n <= fateNear && n-f <= fateNear }) ||
			f > 0 && subjectPronouns[words[f-1]] && len(names) > 0 && names[0] < f
	}) {
		s++
	}
	for _, w := range ask.Other {
		if slices.Contains(words, w) {
			s += 0.5
		}
	}
	return s
}

// versesNamingAny returns the verses whose KJV text names one of keys,
// in canonical order, at most limit.
func (r *Retriever) versesNamingAny(keys []string, limit int) []corpus.VerseID {
	seen := r.namingDocs(keys)
	ids := make([]corpus.VerseID, 0, len(seen))
	for d := range seen {
		ids = append(ids, r.lex.ids[d])
	}
	slices.Sort(ids)
	if len(ids) > limit {
		ids = ids[:limit]
	}
	return ids
}

// FateFact is what a question about a person's end is answered from: the
// person's Nave's entries telling it, each with the verses saying it,
// and the verse to quote.
type FateFact struct {
	Facts  []Fact
	Verses []corpus.VerseID
	// Told is what the verses tell ("the death of Samuel"), said when
	// no entry makes a sentence.
	Told string
}

// fateSentences say the entries as sentences ("Saul is defeated, and is
// killed with some of his sons (1 Samuel 31:4-6).") and quote the first
// verse saying it.
func (c *composition) fateSentences() (own []string) {
	f := c.q.Fate
	if len(f.Facts) > 0 {
		subject := topicSubject(f.Facts[0].Topic)
		own = joinClauses(subject, c.gram.plural(subject), c.topicClauses(subject, f.Facts, false))
	}
	if len(f.Verses) > 0 {
		if len(own) == 0 && f.Told != "" {
			if ref, ok := c.cite(c.chosenRun(f.Verses[0])); ok {
				own = append(own, fmt.Sprintf("Scripture tells of %s (%s).", f.Told, ref))
			}
		}
		own = append(own, c.readsSentence(f.Verses[0]))
	}
	return own
}
