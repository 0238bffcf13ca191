package pipeline

import (
	"slices"
	"strings"
)

// Questions asking whether the Bible speaks of a thing: "does the bible
// mention unicorns", "is the trinity in the bible", "is tithing
// biblical", "is there a verse about guardian angels", "where in the
// bible does it talk about dancing". What they ask about is the thing;
// the rest is their frame. Left in, the frame's words were read as the
// question's: "talk" routed to COMMUNION and SPEAKING, "verse" to POETRY,
// "mention" to NAME, and the theme gate counted them among the words a
// theme's setting must hold, so that "where in the bible does it talk
// about dancing" weighed DANCING as a question about dancing and talk
// (DEVELOPERS.md, forty-third round).
//
// English grammar, not a word list of subjects: the auxiliaries, the
// copulas, the names of the Bible and the verbs of speaking about a thing
// are closed classes, as predicate.go's are.

// existenceVerbs are the verbs a question uses of the Bible speaking of a
// thing, in the forms a question gives them ("does the bible mention",
// "where does it say"): speaking of it, and the stances a law or teaching
// takes on it ("does the bible forbid tattoos").
var existenceVerbs = map[string]bool{
	"mention": true, "say": true, "talk": true, "speak": true, "address": true,
	"discuss": true, "teach": true, "reference": true, "refer": true, "describe": true,
	"record": true, "contain": true, "include": true, "forbid": true, "prohibit": true,
	"condemn": true, "allow": true, "permit": true, "approve": true, "support": true,
	"tell": true, "warn": true, "command": true, "deal": true, "cover": true,
}

// existenceParticiples are the participles of "is X mentioned in the
// Bible", "where is X found in the Bible".
var existenceParticiples = map[string]bool{
	"mentioned": true, "found": true, "named": true, "spoken": true, "talked": true,
	"referred": true, "referenced": true, "taught": true, "written": true, "recorded": true,
	"described": true, "discussed": true, "addressed": true, "forbidden": true,
	"prohibited": true, "condemned": true, "allowed": true, "permitted": true,
}

// existenceFiller are the words between a frame's verb and its thing
// ("say anything about", "talk about", "speak of", "say that"), and the
// adverbs a frame takes ("ever", "actually", "really"): none of them is
// the thing asked about.
var existenceFiller = map[string]bool{
	"anything": true, "something": true, "much": true, "ever": true, "actually": true,
	"really": true, "even": true, "truly": true, "explicitly": true, "specifically": true,
	"literally": true, "directly": true, "anywhere": true, "at": true, "all": true,
	"about": true, "of": true, "on": true, "to": true, "with": true, "that": true,
	"regarding": true, "concerning": true, "against": true, "for": true, "in": true,
	"it": true, "us": true, "we": true, "anyone": true,
}

// existenceNouns are the nouns of "is there a verse about …": a passage,
// or a mention, that speaks of the thing.
var existenceNouns = map[string]bool{
	"verse": true, "verses": true, "passage": true, "passages": true, "scripture": true,
	"scriptures": true, "mention": true, "mentions": true, "reference": true,
	"references": true, "place": true, "story": true, "stories": true, "example": true,
	"examples": true, "teaching": true, "commandment": true, "law": true, "rule": true,
}

// bibleAt returns how many words of ws from i name the Bible ("the
// bible", "scripture", "the scriptures", "god's word", "the word of
// god"); 0 when none does.
func bibleAt(ws []string, i int) int {
	if i < len(ws) && ws[i] == "the" {
		if n := bibleAt(ws, i+1); n > 0 {
			return n + 1
		}
		if i+3 < len(ws) && ws[i+1] == "word" && ws[i+2] == "of" && ws[i+3] == "god" {
			return 4
		}
		return 0
	}
	if i >= len(ws) {
		return 0
	}
	switch ws[i] {
	case "bible", "scripture", "scriptures", "kjv":
		return 1
	case "god's":
		if i+1 < len(ws) && ws[i+1] == "word" {
			return 2
		}
	}
	return 0
}

// existenceSubject returns the thing a question asks whether the Bible
// speaks of, in the words and case it was typed, and whether the question
// is such a question. The forms:
//
//   - "does the bible (ever) mention / say anything about / talk about X",
//     and with "where (in the bible)" before it, "where does it say X";
//   - "is X (mentioned) in the bible", "is X biblical", "are there X in the
//     bible", "where is X (found) in the bible";
//   - "is there a verse / any mention (in the bible) about / of / that
//     says X".
func existenceSubject(question string) (string, bool) {
	for _, s := range questionSentences(asBible(question)) {
		typed := typedFields(s, true)
		ws := make([]string, len(typed))
		for i, w := range typed {
			ws[i] = strings.ToLower(w)
		}
		from, to, ok := existenceFrame(ws)
		if !ok {
			continue
		}
		subject := typed[from:to]
		if !slices.ContainsFunc(subject, func(w string) bool { return !isStop(strings.ToLower(w)) }) {
			// "is it in the bible": the thing is elsewhere (a follow-up).
			continue
		}
		return strings.Join(subject, " "), true
	}
	return "", false
}

// existenceFrame returns the span of ws that is the thing asked about.
func existenceFrame(ws []string) (from, to int, ok bool) {
	if len(ws) < 3 {
		return 0, 0, false
	}
	i := 0
	where := ws[0] == "where"
	named := false // "where in the bible"
	if where {
		i = 1
		if n := inBible(ws, i); n > 0 {
			i, named = i+n, true
		}
	}
	if i >= len(ws) {
		return 0, 0, false
	}
	switch ws[i] {
	case "does", "do", "did", "doesn't", "dont", "don't":
		// "does the bible mention X", "where does it say X".
		j := i + 1
		if n := bibleAt(ws, j); n > 0 {
			j += n
		} else if where && j < len(ws) && ws[j] == "it" {
			j++
		} else {
			return 0, 0, false
		}
		j = skipFiller(ws, j, false)
		if j >= len(ws) || !existenceVerbs[verbStem(ws[j])] {
			return 0, 0, false
		}
		from = skipFiller(ws, j+1, true)
		to, _ = trimFrameEnd(ws, from, len(ws))
		return from, to, from < to
	case "is", "are", "was", "were", "isn't", "aren't":
		j := i + 1
		if j < len(ws) && ws[j] == "there" {
			// "is there a verse about X", "are there giants in the bible".
			j++
			k := j
			if k < len(ws) && (ws[k] == "a" || ws[k] == "an" || ws[k] == "any" || ws[k] == "one") {
				k++
			}
			if k < len(ws) && ws[k] == "bible" {
				k++
			}
			if k < len(ws) && existenceNouns[ws[k]] {
				k++
				k += inBible(ws, k)
				from = skipFiller(ws, k, true)
				if from < len(ws) && (ws[from] == "where" || ws[from] == "which" || ws[from] == "saying") {
					from = skipSaying(ws, from+1)
				} else if from > k && ws[from-1] == "that" {
					from = skipSaying(ws, from)
				}
				to, _ = trimFrameEnd(ws, from, len(ws))
				return from, to, from < to
			}
			to, bible := trimFrameEnd(ws, j, len(ws))
			return j, to, (bible || named) && j < to
		}
		// "is X (mentioned) in the bible", "is X biblical", "where in the
		// bible is X".
		to, bible := trimFrameEnd(ws, j, len(ws))
		return j, to, (bible || named) && j < to
	}
	return 0, 0, false
}

// inBible returns how many words of ws from i are "in the bible" (or "in
// scripture"); 0 when they are not.
func inBible(ws []string, i int) int {
	if i < len(ws) && (ws[i] == "in" || ws[i] == "within") {
		if n := bibleAt(ws, i+1); n > 0 {
			return n + 1
		}
	}
	return 0
}

// skipFiller skips the filler words from i; with thing, it stops before a
// word a thing may open with ("for" is filler only in "a verse for").
func skipFiller(ws []string, i int, thing bool) int {
	for i < len(ws) && existenceFiller[ws[i]] {
		if thing && (ws[i] == "it" || ws[i] == "we" || ws[i] == "us" || ws[i] == "anyone") {
			// "does the bible say we should pay taxes": the clause is
			// the thing.
			break
		}
		i++
	}
	return i
}

// skipSaying skips "it says", "says", "talks about" after "where" or
// "that" in "is there a verse where it says X".
func skipSaying(ws []string, i int) int {
	if i < len(ws) && (ws[i] == "it" || ws[i] == "god" || ws[i] == "jesus") && i+1 < len(ws) && existenceVerbs[verbStem(ws[i+1])] {
		i++
	}
	if i < len(ws) && existenceVerbs[verbStem(ws[i])] {
		i++
	}
	return skipFiller(ws, i, true)
}

// trimFrameEnd returns the end of the thing in ws[from:to], before the
// frame's close ("(mentioned) in the bible", "biblical", "at all"), and
// whether the close names the Bible: "is anger a sin at all" asks no
// such thing.
func trimFrameEnd(ws []string, from, to int) (int, bool) {
	bible := false
	for to > from {
		w := ws[to-1]
		switch {
		case w == "biblical" || w == "scriptural" || w == "biblically" || w == "unbiblical":
			to, bible = to-1, true
		case existenceFiller[w] && w != "it" && w != "we" && w != "us":
			to--
		case existenceParticiples[w] && to-1 > from:
			to--
		default:
			// "in the bible" anywhere after the thing's first word
			// closes it: "is the trinity actually in the bible".
			for k := from + 1; k < to; k++ {
				if n := inBible(ws, k); n > 0 && k+n == to {
					to, _ = trimFrameEnd(ws, from, k)
					return to, true
				}
			}
			return to, bible
		}
	}
	return to, bible
}

// verbStem is a frame verb's base form: "mentions" and "talks" are
// "mention" and "talk", "says" "say".
func verbStem(w string) string {
	if existenceVerbs[w] {
		return w
	}
	if b, ok := strings.CutSuffix(w, "es"); ok && existenceVerbs[b] {
		return b
	}
	if b, ok := strings.CutSuffix(w, "s"); ok && existenceVerbs[b] {
		return b
	}
	return w
}

// knownAlternatives is thing without its alternatives that hold a word
// the corpus has never seen, when another alternative holds none: "does
// the bible mention astrology or horoscopes" asks whether it speaks of
// either, and it has astrologers and no horoscopes. The thing itself when
// every alternative, or none, holds such a word.
func (a *Answerer) knownAlternatives(thing string) string {
	var alts [][]string
	cur := []string{}
	for _, w := range strings.Fields(thing) {
		if strings.EqualFold(w, "or") {
			alts, cur = append(alts, cur), []string{}
			continue
		}
		cur = append(cur, w)
	}
	alts = append(alts, cur)
	if len(alts) < 2 {
		return thing
	}
	var known []string
	for _, alt := range alts {
		if len(alt) > 0 && a.r.analyse(strings.Join(alt, " ")).unknown == 0 {
			known = append(known, strings.Join(alt, " "))
		}
	}
	if len(known) == 0 || len(known) == len(alts) {
		return thing
	}
	return strings.Join(known, " or ")
}
