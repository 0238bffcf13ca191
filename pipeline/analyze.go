package pipeline

import (
	"regexp"
	"strings"

	"github.com/kljensen/snowball/english"

	"github.com/selahdev/selah/pipeline/wordvec"
)

// kjvFunctionWords are the KJV's pronouns, auxiliaries and connectives
// ("thou", "hast", "unto"): dropped like the stop words they are in modern
// English. This is a stop list, not a bridge: no KJV word is mapped onto a
// modern one here. Content words are bridged by the WEB field of the index
// and the archaic verb forms by deriveArchaic, which learns them from the
// two wordings.
var kjvFunctionWords = map[string]bool{
	"thee": true, "thou": true, "ye": true, "thy": true, "thine": true, "thyself": true,
	"hath": true, "hast": true, "doth": true, "dost": true, "art": true, "wast": true,
	"wert": true, "shalt": true, "wilt": true, "canst": true, "couldest": true,
	"didst": true, "hadst": true, "mayest": true, "mightest": true, "wouldest": true,
	"unto": true, "whoso": true, "whosoever": true, "whatsoever": true,
	"whithersoever": true, "whither": true, "thence": true, "hither": true,
	"yea": true, "nay": true, "ere": true, "betwixt": true, "wherefore": true,
}

// stopExtra are words that carry no meaning for retrieval beyond Snowball's
// English stop list: modal verbs and KJV connectives.
var stopExtra = map[string]bool{
	"shall": true, "may": true, "might": true, "must": true, "would": true,
	"could": true, "us": true, "also": true, "o": true, "oh": true, "lo": true,
	"yes": true, "thereof": true, "therefore": true, "therein": true,
	"thereon": true, "whereof": true, "upon": true, "even": true, "whoever": true,
	"whatever": true, "shouldest": true, "among": true, "every": true,
}

func isStop(w string) bool {
	return stopExtra[w] || kjvFunctionWords[w] || english.IsStopWord(w)
}

// negations all become the term "not": stop words elsewhere, but "judge
// not" and "don't judge" are the same saying, and "fear not" is not "fear".
var negations = map[string]bool{"not": true, "no": true, "nor": true}

// analyzer turns text into index terms: words, with archaic forms made
// modern, stop words dropped, and Snowball-stemmed.
type analyzer struct {
	// modern maps corpus-derived archaic verb forms ("loveth") to their
	// modern word ("love"), learned by deriveArchaic.
	modern map[string]string
	// stems caches Snowball stems while an index is built (one goroutine);
	// nil when the analyzer is shared by concurrent queries.
	stems map[string]string
}

func (a *analyzer) stem(w string) string {
	if a.stems == nil {
		return english.Stem(w, true)
	}
	s, ok := a.stems[w]
	if !ok {
		s = english.Stem(w, true)
		a.stems[w] = s
	}
	return s
}

// termSet is the set of text's index terms.
func (a *analyzer) termSet(text string) map[string]bool {
	out := map[string]bool{}
	a.terms(text, func(t string) { out[t] = true })
	return out
}

// terms calls fn with each index term of text, in order.
func (a *analyzer) terms(text string, fn func(term string)) {
	// The vectors' tokenization: the lexical index and the dense source
	// see the same words.
	wordvec.Each(text, func(w string) {
		if strings.ContainsRune(w, 'æ') {
			// The KJV writes "Zacchæus" and "Cæsar", Nave's titles
			// and people "ZACCHAEUS" and "caesar": a name respelt as
			// the KJV writes it (respell.go) reached no title.
			w = strings.ReplaceAll(w, "æ", "ae")
		}
		if m, ok := a.modern[w]; ok {
			w = m
		}
		if negations[w] {
			fn("not")
			return
		}
		if len(w) < 2 || isStop(w) {
			return
		}
		fn(a.stem(w))
	})
}

// features calls fn with each term of text and, after each but the
// first, the pair of it and the term before ("god love" for "God so
// loved").
func (a *analyzer) features(text string, fn func(term string, bigram bool)) {
	prev := ""
	a.terms(text, func(t string) {
		fn(t, false)
		if prev != "" {
			fn(prev+" "+t, true)
		}
		prev = t
	})
}

// deriveArchaic finds the KJV's -eth/-est/-th verb forms and the modern word
// each stands for, from the corpus alone: a KJV word that never occurs in
// the modern (WEB) wording and that becomes a WEB word when the ending is
// taken off ("loveth" → "love", "setteth" → "set", "crieth" → "cry"). When
// several bases fit, the most frequent WEB word wins, so "hateth" is "hate"
// and not "hat".
func deriveArchaic(kjv, modern map[string]int) map[string]string {
	out := map[string]string{}
	for w := range kjv {
		if modern[w] > 0 || len(w) < 5 {
			continue
		}
		if kjvFunctionWords[w] {
			continue
		}
		var stem string
		switch {
		case strings.HasSuffix(w, "eth"), strings.HasSuffix(w, "est"):
			stem = w[:len(w)-3]
		case strings.HasSuffix(w, "edst"):
			stem = w[:len(w)-4] + "ed"
			if modern[stem] > 0 {
				out[w] = stem
			}
			continue
		case strings.HasSuffix(w, "st"), strings.HasSuffix(w, "th"):
			// "-st" of the second person ("didst") and "-th" of the third
			// ("saith" → "say").
			stem = w[:len(w)-2]
		default:
			continue
		}
		var cands []string
		if strings.HasSuffix(stem, "i") {
			cands = append(cands, stem[:len(stem)-1]+"y", stem[:len(stem)-1]+"ies")
		}
		cands = append(cands, stem, stem+"e", stem+"s", stem+"es")
		if n := len(stem); n >= 2 && stem[n-1] == stem[n-2] {
			cands = append(cands, stem[:n-1])
		}
		best, bestN := "", 0
		for _, c := range cands {
			if n := modern[c]; n > bestN && len(c) >= 2 {
				best, bestN = c, n
			}
		}
		if best != "" {
			out[w] = best
		}
	}
	return out
}

// questionFrame are terms that frame a question without naming its topic
// ("what does the Bible say about", "verses for", "what happened at",
// "tell me about", "biblically speaking"):
// they would only dilute its evidence and coverage. A stop list of the
// question's frame, not a bridge.
var questionFrame = map[string]bool{
	"bibl": true, "scriptur": true, "vers": true, "say": true, "okay": true,
	"ok": true, "feel": true, "deal": true, "someth": true, "thing": true,
	"not": true, "happen": true, "tell": true, "biblic": true,
}

// bibleNames are the names of the text selah serves, which frame a
// question as "the Bible" does ("what does the King James Version say
// about love"). Read as names, "King James" reached the apostle James
// ("Who translated the King James Version?" cited Luke 8:51).
var bibleNames = regexp.MustCompile(`(?i)\b(?:the\s+)?(?:king\s+james(?:['’]s?)?(?:\s+(?:version|bible|translation))?|authori[sz]ed\s+version|kjv)\b`)

// asBible writes the names of the translation in q as "Bible".
func asBible(q string) string {
	// Every search and answer passes here: most queries name none, and
	// three substring tests are cheaper than the regexp.
	l := strings.ToLower(q)
	if !strings.Contains(l, "james") && !strings.Contains(l, "kjv") && !strings.Contains(l, "authori") {
		return q
	}
	return bibleNames.ReplaceAllStringFunc(q, func(m string) string {
		if strings.HasPrefix(strings.ToLower(m), "the") {
			return "the Bible"
		}
		return "Bible"
	})
}
