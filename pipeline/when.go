package pipeline

import (
	"context"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/wordnet"
)

// Questions asking when: "when was jesus born", "what hour did jesus
// die", "in what year of his reign did hezekiah …", "how old was david
// when he became king". They ask for the verse stating the event's time,
// which the verses holding the event's words seldom do: 1 Kings 6:1 ("in
// the four hundred and eightieth year … that he began to build the house
// of the LORD") tells the temple's time, 1 Kings 5 its making. As with a
// why-question (why.go), the event is what the search reads, and the
// verse answering is one told beside it, or found by its words, that
// states a time: a noun WordNet files under time (noun.time: hour, day,
// month, year, sabbath, passover, reign), counted or ordered by a number
// ("the ninth hour", "the first day of the week"), or the days of a
// named king ("in the days of Herod the king"). The frame is a closed
// class, as the why-question's is.

var (
	// whenFrames: "when did X", "when was X", "what day did X", "in
	// what year of his reign did X", "at what age was X", "how old was X
	// when Y", "how long did X". A when-question in the past tense asks
	// about an event; one in the present or future ("when is the
	// sabbath", "when will jesus return") asks about a teaching, answered
	// as any other question.
	whenFrames = []struct {
		re        *regexp.Regexp
		age, long bool
		unit      bool // the first group is the unit asked
	}{
		{re: regexp.MustCompile(`^when\s+(?:exactly\s+|approximately\s+|roughly\s+)?(?:did|was|were|had)\s+(.+)$`)},
		{re: regexp.MustCompile(`^(?:at|in|on|during|by)?\s*(?:what|which)\s+age\s+(?:did|was|were|had)\s+(.+)$`), age: true},
		{re: regexp.MustCompile(`^(?:at|in|on|during|by)?\s*(?:what|which)\s+(time|day|hour|month|year|season|feast|week|night|watch)(?:\s+of\s+(?:the\s+)?(?:day|week|month|year))?\b(.*?)\s+(?:did|was|were|had)\s+(.+)$`), unit: true},
		{re: regexp.MustCompile(`^how\s+old\s+(?:was|were)\s+(.+\s+when\s+.+)$`), age: true},
		{re: regexp.MustCompile(`^how\s+long\s+(?:did|was|were|had)\s+(.+)$`), long: true},
	}
	// whenHappen is a close saying only that the event took place, or
	// lasted.
	whenHappen = regexp.MustCompile(`\s+(?:happen|take\s+place|occur|come\s+to\s+pass|last)$`)
)

// whenAsk is a when-question, read.
type whenAsk struct {
	// Event is what the question asks the time of, lower-cased, without
	// the frame.
	Event string
	// Unit is the unit of time asked ("hour" of "what hour did …"), ""
	// for any.
	Unit string
	// Age: it asks how old someone was ("N years old" answers); Long:
	// how long something lasted (a time counted answers).
	Age, Long bool
	// names are the event's people (whenFor), whose age an Age asks.
	names []string
}

// whenQuestion reads question as one asking when; ok is false for any
// other question. A sentence of context may come first.
func whenQuestion(question string) (whenAsk, bool) {
	var ask whenAsk
	_, ok := framedSentence(question, func(s string) (string, bool) {
		var ok bool
		ask, ok = whenFrame(s)
		return ask.Event, ok
	})
	return ask, ok
}

func whenFrame(s string) (whenAsk, bool) {
	for _, f := range whenFrames {
		m := f.re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		// The unit asked and what qualifies it ("year of his reign")
		// are words of the question a verse stating the time holds
		// ("about the ninth hour Jesus cried"), and the unit is what
		// the time must be a kind of (timeStrength).
		unit := ""
		if f.unit && m[1] != "time" {
			unit = m[1]
		}
		event := strings.Join(strings.Fields(strings.Join(m[1:], " ")), " ")
		event = strings.TrimFunc(event, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
		event = reasonClose.ReplaceAllString(event, "")
		event = whenHappen.ReplaceAllString(event, "")
		if len(strings.Fields(event)) >= 2 {
			return whenAsk{Event: event, Unit: unit, Age: f.age, Long: f.long}, true
		}
	}
	return whenAsk{}, false
}

// numberWordSet holds English's number words as the KJV writes them, cardinal
// and ordinal ("nine", "ninth", "fortieth", "threescore"): a time noun
// after one is counted or ordered.
var numberWordSet = func() map[string]bool {
	out := map[string]bool{"hundred": true, "thousand": true, "hundredth": true, "thousandth": true, "score": true, "threescore": true, "fourscore": true, "twain": true}
	for _, w := range slices.Concat(smallNumbers[1:], tensNumbers[2:]) {
		out[w], out[ordinalWords(w)] = true, true
	}
	return out
}()

// timeNouns are the words of the KJV whose commonest noun sense WordNet
// files under time (noun.time), and which it knows as no adjective or
// adverb ("old", "now", "yesterday" qualify more often than they name).
func timeNouns(wn *wordnet.WordNet, verses []corpus.Verse) map[string]bool {
	out := map[string]bool{}
	seen := map[string]bool{}
	for _, v := range verses {
		for _, w := range plainWords(v.Text) {
			w = unpossessed(w)
			if seen[w] {
				continue
			}
			seen[w] = true
			if isStop(w) || wn.Has(w, wordnet.Adj) || wn.Has(w, wordnet.Adv) {
				continue
			}
			for _, l := range wn.Lookup(w) {
				if l.POS != wordnet.Noun || len(l.Senses) == 0 || l.Senses[0].Synset.LexFile != lexNounTime {
					continue
				}
				// A form of a verb is that verb, unless the time is
				// written so in lower case: "evening" (of "even") is a
				// time, "sat" is Saturday's "Sat", "leaves" a leave's.
				if inflectedVerb(wn, w) && !slices.Contains(l.Senses[0].Synset.Words, w) {
					continue
				}
				out[w] = true
				break
			}
		}
	}
	return out
}

// inflectedVerb reports whether WordNet reads w as a form of another verb.
func inflectedVerb(wn *wordnet.WordNet, w string) bool {
	return slices.ContainsFunc(wn.Lookup(w), func(l wordnet.Lemma) bool { return l.POS == wordnet.Verb && l.Lemma != w })
}

// nounPlace are the words after which a word stands as a noun: English's
// articles, demonstratives and the prepositions of time ("in the
// morning", "that night", "at midnight"), not "to wait" or "shall fall".
var nounPlace = map[string]bool{"the": true, "a": true, "an": true, "that": true, "this": true, "those": true, "these": true,
	"in": true, "at": true, "on": true, "by": true, "until": true, "till": true, "every": true, "same": true, "next": true, "each": true}

const (
	// weakTimeStrength is how plainly a time noun alone states a time
	// ("in the morning", "on the sabbath day"), against 1 for one counted
	// or of a named king's days.
	weakTimeStrength = 0.5
	// timeCounted is how many words before a time noun a number counts
	// it ("the four hundred and eightieth year" is one).
	timeCounted = 3
	// minWhenEvidence is the share of the event's words a verse must
	// hold to be taken as stating its time.
	minWhenEvidence = 0.4
	// whenNamed is how many verses before one stating a time may name
	// the person whose event it is: a narrative names its subject once
	// and goes on with "he" ("And it was the third hour, and they
	// crucified him", Mark 15:25, ten verses after "Jesus").
	whenNamed = 10
)

var wordRe = regexp.MustCompile(`\pL+(?:['’]\pL+)*`)

// timeStrength is how plainly a verse states the time ask asks (see the
// top of this file), and where, in its KJV text, the clause stating it
// opens. An age asked is stated by a time counted that is an age ("thirty
// years old") of someone the event names alone; a length asked only by
// a time counted.
func (r *Retriever) timeStrength(id corpus.VerseID, ask whenAsk) (float64, int) {
	v, ok := r.Verse(id)
	if !ok || len(r.timeNouns) == 0 {
		return 0, 0
	}
	locs := wordRe.FindAllStringIndex(v.Text, -1)
	words := make([]string, len(locs))
	for i, l := range locs {
		words[i] = v.Text[l[0]:l[1]]
	}
	best, at := 0.0, -1
	for i, w := range words {
		if !r.timeNouns[unpossessed(strings.ToLower(w))] {
			continue
		}
		s := 0.0
		if i > 0 && nounPlace[strings.ToLower(words[i-1])] {
			s = weakTimeStrength
		}
		counted := false
		for k := max(0, i-timeCounted); k < i; k++ {
			if numberWordSet[strings.ToLower(words[k])] {
				counted = true
			}
		}
		named := i+2 < len(words) && strings.EqualFold(words[i+1], "of") && startsUpper(words[i+2]) && r.isName(strings.ToLower(unpossessed(words[i+2]))) // "the days of Herod"
		if ask.Unit != "" && r.kindOf != nil && !r.kindOf(strings.ToLower(w), ask.Unit) {
			// Another unit than the one asked: "that year" is not
			// what hour, "the days of Herod" not what year.
			continue
		}
		switch {
		case ask.Long && !counted:
			s = 0
		case ask.Age:
			if counted && statesAge(words[i+1:]) && namedNear(words, i, ask.names) {
				s = 1
			} else {
				// Any other time is not how old they were ("the
				// eighteenth year of king Josiah", "the birth of
				// Jesus").
				s = 0
			}
		case counted || named:
			s = 1
		}
		if s > best {
			best, at = s, i
		}
	}
	if at < 0 {
		return 0, 0
	}
	from := strings.LastIndexAny(v.Text[:locs[at][0]], ",;:.?!") + 1
	for from < len(v.Text) && v.Text[from] == ' ' {
		from++
	}
	return best, from
}

// statesAge reports whether the words after a counted time make it an
// age: "years old", "years of age".
func statesAge(after []string) bool {
	return len(after) > 0 && strings.EqualFold(after[0], "old") ||
		len(after) > 1 && strings.EqualFold(after[0], "of") && strings.EqualFold(after[1], "age")
}

// namedNear reports whether one of names is within fateNear words of
// words[i] ("David was thirty years old", "Sixteen years old was
// Uzziah"): the age is theirs, not Ish-bosheth's beside them. With no
// names, any age is.
func namedNear(words []string, i int, names []string) bool {
	if len(names) == 0 {
		return true
	}
	for k := max(0, i-fateNear); k < min(len(words), i+fateNear+1); k++ {
		if slices.Contains(names, unpossessed(strings.ToLower(words[k]))) {
			return true
		}
	}
	return false
}

// WhenFact is the verse stating the time a when-question asks for.
type WhenFact struct {
	Verses []corpus.VerseID
	// From is where, in the first verse's KJV text, the clause stating
	// the time opens, for a quotation of a long verse to start there.
	From int
	// Age and Long: the question asks an age or a length (whenAsk).
	Age, Long bool
}

// whenFor finds the verse stating the time of event: of the verses told
// beside it (besideEvent), the one holding enough of its words that
// states a time most plainly, weighed, as a reason is, by its nearness
// at half.
func (a *Answerer) whenFor(ctx context.Context, ask whenAsk, cited []corpus.VerseID) (WhenFact, bool, error) {
	event := ask.Event
	pool, nearness, err := a.besideEvent(ctx, event, cited)
	if err != nil {
		return WhenFact{}, false, err
	}
	rv := a.r.newRelevance(event)
	var names []string
	for _, w := range plainWords(event) {
		if a.r.isName(w) && !a.r.ubiquitous(w) {
			names = append(names, w)
		}
	}
	ask.names = names
	// The event's own words, without its people and the unit asked:
	// what was done ("born", "crucified").
	var done []string
	for _, w := range plainWords(event) {
		if !slices.Contains(names, w) && w != ask.Unit {
			done = append(done, w)
		}
	}
	rvDone := a.r.newRelevance(strings.Join(done, " "))
	if ask.Age && len(names) > 0 {
		// An age is told of someone wherever they are named, seldom
		// beside the event's words: "David was thirty years old when he
		// began to reign" (2 Samuel 5:4) is far from his anointing.
		for _, id := range a.r.versesNamingAny(names, math.MaxInt) {
			if _, ok := nearness[id]; !ok {
				pool = append(pool, id)
				nearness[id] = 0
			}
		}
	}
	var best WhenFact
	top := 0.0
	for _, id := range pool {
		e := rv.evidence(id)
		s, from := a.r.timeStrength(id, ask)
		if e < minWhenEvidence && !(ask.Age && s == 1 && a.namedBefore(id, names)) {
			// An age is asked of someone ("how old was Josiah when he
			// became king"): the verse naming them stating one ("Josiah
			// was eight years old when he began to reign") answers in
			// words of its own.
			continue
		}
		switch done := rvDone.evidence(id); {
		case s < 1 && done < minWhenEvidence:
			// A time alone ("that year") is the event's only when the
			// verse tells what was done: John 11:51's "that year" is
			// Caiaphas's, not the year Jesus was born.
			continue
		case ask.Unit == "" && !ask.Age && done == 0 && !a.tellsNext(rvDone, id):
			// Asked when, not in what hour or at what age, a time
			// counted is the event's when the verse, or the next, tells
			// what was done: "the seven years of dearth began" (Genesis
			// 41:54) is not when Israel left Egypt. "About the ninth
			// hour Jesus cried" answers what hour he died.
			continue
		}
		if len(names) > 0 && !a.namedBefore(id, names) {
			// The event is someone's: a verse naming none of them, nor
			// the verses before it in its passage, tells another's time
			// ("Saul reigned one year" for Manasseh's).
			continue
		}
		if score := e * s * (0.5 + 0.5*nearness[id]); score > top {
			best, top = WhenFact{Verses: []corpus.VerseID{id}, From: from, Age: ask.Age, Long: ask.Long}, score
		}
	}
	return best, top > 0, nil
}

// tellsNext reports whether the verse after id, in its chapter, holds
// one of rv's words: the time is told, then the event ("And when he was
// full forty years old, it came into his heart to visit his brethren").
func (a *Answerer) tellsNext(rv *relevance, id corpus.VerseID) bool {
	if !sameChapter(id+1, id) {
		return false
	}
	return rv.evidence(id+1) > 0
}

// namedBefore reports whether the verse or one of the whenNamed before it
// in its chapter names one of names.
func (a *Answerer) namedBefore(id corpus.VerseID, names []string) bool {
	for k := range corpus.VerseID(whenNamed + 1) {
		v, ok := a.r.Verse(id - k)
		if !ok || !sameChapter(id-k, id) {
			break
		}
		if slices.ContainsFunc(plainWords(v.Text), func(w string) bool { return slices.Contains(names, unpossessed(w)) }) {
			return true
		}
	}
	return false
}

// when answers a when-question from the verse stating the time; ok is
// false when no verse near the event states one (besideAnswer).
func (a *Answerer) when(ctx context.Context, question string, ask whenAsk, maxRefs int, opts AnswerOptions) (Answer, bool, error) {
	inner := opts
	inner.unwhen = true
	return a.besideAnswer(ctx, question, maxRefs, opts, inner, func(near []corpus.VerseID) (Question, bool, error) {
		f, ok, err := a.whenFor(ctx, ask, near)
		if err != nil || !ok {
			return Question{}, false, err
		}
		return Question{Text: ask.Event, When: &f, Candidates: a.r.keyCandidates(f.Verses)}, true, nil
	})
}

// whenSentences say where the time is stated and quote the verse:
// "Scripture tells when in Matthew 2:1. The verse reads: "…" (Matthew
// 2:1)." ("tells the age", "tells how long" for an age or a length.) The
// summary quotes the clause stating the time.
func (c *composition) whenSentences() (own []string, summary string) {
	f := c.q.When
	lead := "Scripture tells when in %s."
	switch {
	case f.Age:
		lead = "Scripture tells the age in %s."
	case f.Long:
		lead = "Scripture tells how long in %s."
	}
	return c.clauseSentences(f.Verses, f.From, lead)
}
