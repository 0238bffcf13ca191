package pipeline

import (
	"slices"
	"strings"
	"sync"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/wordnet"
)

// Senses: what the Bible means by a topic's word, and whether a question
// means the same. A question about a word Nave's has a topic for is not
// always about that topic: "which stocks should I buy" and "what should I
// feed my pet ferret" name STOCKS (a frame for the feet of prisoners) and
// FERRET (an unclean creeping thing), and the Bible has nothing for them;
// "how do I get my anger under control" names ANGER, and the Bible has a
// great deal. Two facts from the data tell them apart:
//
//   - The Bible's sense of the topic's word is the WordNet noun sense
//     whose definition, synonyms and hypernyms share the most (by the
//     lexical index's idf) with the topic's own text: Nave's phrases and
//     the KJV and WEB wording of the verses it lists (simplified Lesk).
//     STOCKS's "Feet fastened in, as a punishment" picks "a frame that has
//     holes for holding the ankles ... used for public punishment", not the
//     capital of a corporation. WordNet then says whether that sense is a
//     physical thing or an abstraction (wordnet.Physical).
//   - Whether a question speaks of a thing in the Bible's setting: at
//     least one of its other words occurs in the topic's text. "Why did
//     Jesus curse the fig tree?" does ("cursed"); "feed my pet ferret"
//     does not.
//
// Abstractions (anger, debt, forgiveness, doubt) are what the Bible
// teaches about; a question that names one with teaching (key passages or
// sections) is answerable even when no single verse holds its many words,
// when the theme gate lets it through (a pastoral question: gate.go). A
// thing named outside the Bible's setting is a sense trap, and the
// question is declined.
type senses struct {
	wn *wordnet.WordNet
	r  *Retriever

	mu    sync.Mutex
	cache map[string]*topicSense
}

// topicSense is what senses learns of one topic, once.
type topicSense struct {
	// known: WordNet has a noun for the topic's title.
	known bool
	// physical: the Bible's sense of it is a thing.
	physical bool
	// text: the analysed terms of the topic's phrases and verses, as the
	// lexical index's term ids, sorted (a worker keeps one for every
	// topic questions reach: ids take a fraction of a map of strings).
	text []int32
	// own: the title's own terms.
	own map[string]bool
	// nouns: the WordNet noun lemmas of the title ("stock", "stocks").
	nouns map[string]bool
	// time: the Bible's sense of it is a time (noun.time: NIGHT, MONTH,
	// SABBATH, REST), which a question may name as its circumstance
	// (circumstance).
	time bool
}

func newSenses(wn *wordnet.WordNet, r *Retriever) *senses {
	if wn == nil {
		return nil
	}
	return &senses{wn: wn, r: r, cache: map[string]*topicSense{}}
}

// topic returns what is known of the Nave's topic titled title; nil when
// the router has no such topic.
func (s *senses) topic(title string) *topicSense {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	ts, ok := s.cache[title]
	s.mu.Unlock()
	if ok {
		return ts
	}
	ts = s.learn(title)
	s.mu.Lock()
	s.cache[title] = ts
	s.mu.Unlock()
	return ts
}

// maxSenseVerses bounds the verses read for a topic's text: the longest
// topics (JESUS, THE CHRIST; ISRAEL) list thousands, and a few hundred
// say what the topic is about as well.
const maxSenseVerses = 400

// thing reports whether WordNet knows the topic's word and its Bible
// sense is a thing: no theme a question can be answered from.
func (ts *topicSense) thing() bool { return ts != nil && ts.known && ts.physical }

// abstraction reports whether WordNet knows the topic's word and its Bible
// sense is no thing: what a theme can be.
func (ts *topicSense) abstraction() bool { return ts != nil && ts.known && !ts.physical }

func (s *senses) learn(title string) *topicSense {
	nr, ok := s.r.Router.(*NaveRouter)
	if !ok {
		return nil
	}
	an := s.r.lex.an
	name := titleNames(title)[0]
	ts := &topicSense{own: an.termSet(name), nouns: map[string]bool{}}
	add := func(t string) {
		if id, ok := s.r.lex.terms[t]; ok {
			ts.text = append(ts.text, id)
		}
	}
	read := 0
	if !nr.topicText(title, func(phrase string, verses []corpus.VerseID) {
		an.terms(phrase, add)
		for _, v := range verses {
			d, ok := s.r.lex.docIndex[v]
			if !ok || read >= maxSenseVerses {
				continue
			}
			read++
			an.terms(s.r.verses[d].Text, add)
			an.terms(s.r.web[d], add)
		}
	}) {
		return nil
	}
	slices.Sort(ts.text)
	ts.text = slices.Compact(ts.text)
	nouns := s.titleNouns(name)
	var best *wordnet.Synset
	bestScore := 0.0
	for _, l := range nouns {
		ts.nouns[l.Lemma] = true
		for _, se := range l.Senses {
			ts.known = true
			if best == nil {
				best = se.Synset
			}
			sig := se.Gloss + " " + strings.Join(se.Synonyms, " ") + " " + strings.Join(se.Hypernyms, " ")
			score, seen := 0.0, map[string]bool{}
			an.terms(sig, func(t string) {
				if seen[t] || ts.own[t] {
					return
				}
				seen[t] = true
				if id, ok := s.r.lex.terms[t]; ok && ts.has(id) {
					score += s.r.lex.idf[id]
				}
			})
			if score > bestScore {
				best, bestScore = se.Synset, score
			}
		}
	}
	// People are physical to WordNet, but how to treat an enemy, a widow
	// or a husband is what the Bible teaches; the traps are things.
	ts.physical = best != nil && s.wn.Physical(best) && best.LexFile != lexNounPerson
	ts.time = best != nil && best.LexFile == lexNounTime
	return ts
}

// trap reports whether a question whose best route is best (a theme
// topic) is a sense trap: the topic's word is a thing, the question names
// it as a noun (not only a word sharing its stem: "tired" reaches TIRE, a
// headdress), not as one of Nave's figures of it ("WAY / FIGURATIVE — Of
// holiness"), and says nothing of the Bible's setting of it ("which stocks
// should I buy"). Without WordNet (s nil) nothing is a trap.
func (s *senses) trap(question string, best Routed) bool {
	ts := s.topic(best.Topic)
	if ts == nil || !ts.known || !ts.physical || hasAnyPrefix(best.Entry, naveFigures) {
		return false
	}
	return ts.outOfSetting(s.r, question) && s.namedAsNoun(ts, question) && !s.r.namesProper(question)
}

// trapAmong is trap of the first of routes that is no key passage, unless
// another topic among the first maxThemeChoices is named whole by the
// question and its text holds the first one's title: "eating blood" names
// EATING, a thing whose entries are table manners, and BLOOD, whose
// verses forbid eating it. Without the second, the question was declined
// as a sense trap. ("is my tithe tax deductible" names TAX and TITHES,
// whose verses never say "tax": still a trap.)
func (s *senses) trapAmong(question string, routes []Routed) bool {
	i := slices.IndexFunc(routes, func(r Routed) bool { return !r.Key })
	if i < 0 || !s.trap(question, routes[i]) {
		return false
	}
	trapped := s.topic(routes[i].Topic)
	seen := map[string]bool{routes[i].Topic: true}
	for _, r := range routes[i+1:] {
		if r.Key || seen[r.Topic] {
			continue
		}
		if seen[r.Topic] = true; len(seen) > maxThemeChoices {
			break
		}
		// A topic titled by a part of the first's title (SEA of DEAD
		// SEA) names no other thing.
		if ts := s.topic(r.Topic); ts != nil && ts.holdsTitle(s.r, question) && !subsetOf(ts.own, trapped.own) && ts.holdsAll(s.r, trapped.own) {
			return false
		}
	}
	return true
}

// titleNouns returns the noun lemmas of a topic's name; a name WordNet
// has only as a verb form ("DOUBTING") stands for the nouns derived from
// the verb ("doubt").
func (s *senses) titleNouns(name string) []wordnet.Lemma {
	var nouns []wordnet.Lemma
	lemmas := s.wn.Lookup(name)
	for _, l := range lemmas {
		if l.POS == wordnet.Noun {
			nouns = append(nouns, l)
		}
	}
	if len(nouns) > 0 {
		return nouns
	}
	var derived []string
	for _, l := range lemmas {
		for _, se := range l.Senses {
			for _, d := range se.Derived {
				if !slices.Contains(derived, d) {
					derived = append(derived, d)
				}
			}
		}
	}
	for _, d := range derived {
		for _, l := range s.wn.Lookup(d) {
			if l.POS == wordnet.Noun && l.Lemma == d {
				nouns = append(nouns, l)
			}
		}
	}
	if len(nouns) == 0 && len(lemmas) == 0 {
		// A name of several words WordNet does not hold ("UNPARDONABLE
		// SIN", "SECOND DEATH") is a kind of what its head names: the
		// word before "of", else the last (English puts a compound's
		// head last, a phrase's before its complement).
		if head := nameHead(name); head != "" {
			return s.titleNouns(head)
		}
	}
	return nouns
}

// nameHead is the head word of a name of several words ("sin" of
// "unpardonable sin", "mark" of "mark of the beast"), "" for a name of
// one word.
func nameHead(name string) string {
	words := letterRuns(strings.ToLower(name))
	if len(words) < 2 {
		return ""
	}
	if i := slices.Index(words, "of"); i > 0 {
		return words[i-1]
	}
	return words[len(words)-1]
}

// namedAsNoun reports whether the question holds the topic's word as a
// noun: some word of it is a form of one of the title's noun lemmas. The
// router matches stems, and "tired" reaches TIRE (a headdress) by its
// stem, not by naming one.
func (s *senses) namedAsNoun(ts *topicSense, question string) bool {
	words := questionWords(question)
	for i, w := range words {
		forms := []string{w}
		if i+1 < len(words) {
			forms = append(forms, w+" "+words[i+1]) // "dead sea"
		}
		if slices.ContainsFunc(forms, func(f string) bool { return s.titleNoun(ts, f) }) {
			return true
		}
	}
	return false
}

// titleNoun reports whether w is a form of one of the title's nouns.
func (s *senses) titleNoun(ts *topicSense, w string) bool {
	return slices.ContainsFunc(s.wn.Lookup(w), func(l wordnet.Lemma) bool { return l.POS == wordnet.Noun && ts.nouns[l.Lemma] })
}

// circumstance reports whether the question names the topic, a time,
// only as the circumstance of what it asks: every word of it that is a
// form of the title's nouns follows a word that makes a time phrase an
// adverb ("I lie awake every night", "my dad died last month", "at
// night", "for 3 years"). "Is it wrong to work on the Sabbath?" and "I
// need rest" are about theirs.
func (s *senses) circumstance(ts *topicSense, question string) bool {
	if ts == nil || !ts.time {
		return false
	}
	words := questionFields(question, true)
	named := false
	for i, w := range words {
		if !s.titleNoun(ts, w) {
			continue
		}
		named = true
		// "How many days was Jesus tempted?" asks for the time itself.
		if i == 0 || !timeAdverbial(words[i-1]) || i >= 2 && words[i-2] == "how" {
			return false
		}
	}
	return named
}

// timeAdverbial reports whether w, before a noun of time, makes the
// phrase an adverb of time: a quantifier, a number, or "at" and
// "during". English's own closed classes, not a bridge between words.
func timeAdverbial(w string) bool {
	switch w {
	case "every", "each", "last", "next", "this", "all", "whole", "per", "few", "several", "many", "at", "during":
		return true
	}
	if w != "" && isASCIIDigit(rune(w[0])) {
		return true
	}
	return slices.Contains(smallNumbers[2:], w) || slices.Contains(tensNumbers[2:], w)
}

// holdsTitle reports whether the question holds every word of the
// topic's name, not only its rarer half ("old laptop" is not OLD AGE)
// or an alias of it.
func (ts *topicSense) holdsTitle(r *Retriever, question string) bool {
	got := r.lex.an.termSet(question)
	for t := range ts.own {
		if !got[t] {
			return false
		}
	}
	return len(ts.own) > 0
}

// subsetOf reports whether every term of a is one of b's.
func subsetOf(a, b map[string]bool) bool {
	for t := range a {
		if !b[t] {
			return false
		}
	}
	return true
}

// holdsAll reports whether the topic's text holds every one of terms.
func (ts *topicSense) holdsAll(r *Retriever, terms map[string]bool) bool {
	for t := range terms {
		id, ok := r.lex.terms[t]
		if !ok || !ts.has(id) {
			return false
		}
	}
	return len(terms) > 0
}

// has reports whether the topic's text holds the term.
func (ts *topicSense) has(id int32) bool {
	_, ok := slices.BinarySearch(ts.text, id)
	return ok
}

// outOfSetting reports whether a question naming the topic says nothing
// of the Bible's setting of it: it has content words besides the title's
// that the corpus knows, and the topic's text holds none of them.
func (ts *topicSense) outOfSetting(r *Retriever, question string) bool {
	others, shared := ts.setting(r, question, false)
	return others > 0 && shared == 0
}

// setting counts the question's content words besides the title's that
// the corpus knows (others) and those the topic's text holds (shared);
// with related, a word also counts as held when one of its WordNet
// synonyms or derivations is.
func (ts *topicSense) setting(r *Retriever, question string, related bool) (others, shared float64) {
	seen := map[string]bool{}
	for _, w := range questionWords(question) {
		if isStop(w) {
			continue
		}
		r.lex.an.terms(w, func(t string) {
			if seen[t] || ts.own[t] || questionFrame[t] {
				return
			}
			seen[t] = true
			id, ok := r.lex.terms[t]
			if !ok {
				return
			}
			w8 := r.lex.idf[id]
			others += w8
			if ts.has(id) {
				shared += w8
				return
			}
			if !related || r.Expand == nil {
				return
			}
			held := false
			for _, rel := range r.Expand.Related(w) {
				if rel.Weight < wordNetSynonym || held {
					continue
				}
				r.lex.an.terms(rel.Word, func(t string) {
					if id, ok := r.lex.terms[t]; ok && ts.has(id) {
						held = true
					}
				})
			}
			if held {
				shared += w8
			}
		})
	}
	return others, shared
}
