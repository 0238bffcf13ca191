package pipeline

import (
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"
)

// archaic maps KJV word forms that have no place in modern English to the
// modern word, so "thou hast" and "you have" become the same terms. Regular
// verb endings (-eth, -est) are not listed: BuildLocal derives them from the
// corpus itself (see deriveArchaic).
var archaic = map[string]string{
	"thee": "you", "thou": "you", "ye": "you", "thy": "your", "thine": "your",
	"thyself": "yourself", "hath": "has", "hast": "have", "doth": "does",
	"dost": "do", "art": "are", "wast": "was", "wert": "were", "shalt": "shall",
	"wilt": "will", "canst": "can", "couldest": "could", "didst": "did",
	"hadst": "had", "mayest": "may", "mightest": "might", "shouldest": "should",
	"wouldest": "would", "saith": "says", "spake": "spoke", "unto": "to",
	"whoso": "whoever", "whosoever": "whoever", "whatsoever": "whatever",
	"whithersoever": "wherever", "whither": "where", "thence": "there",
	"hither": "here", "yea": "yes", "nay": "no", "ere": "before",
	"shew": "show", "shewed": "showed", "shewn": "shown", "sheweth": "shows",
	"shewest": "show", "shewing": "showing", "morrow": "tomorrow",
	"alway": "always", "betwixt": "between", "wherefore": "why", "aught": "anything",
	"naught": "nothing", "nought": "nothing", "verily": "truly", "oft": "often",
	"brethren": "brothers", "kine": "cows", "twain": "two",
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
	return stopExtra[w] || english.IsStopWord(w)
}

// words splits text into lower-case words. Apostrophes inside a word are
// kept to be dealt with by normWord; hyphenated words yield their parts and
// the joined form, since the KJV writes "tenderhearted" where a reader types
// "tender-hearted".
func words(text string, fn func(w string)) {
	text = strings.ToLower(text)
	var b strings.Builder
	var parts []string
	flushWord := func() {
		if b.Len() > 0 {
			parts = append(parts, b.String())
			b.Reset()
		}
	}
	flush := func() {
		flushWord()
		for _, p := range parts {
			fn(p)
		}
		if len(parts) > 1 {
			fn(strings.Join(parts, ""))
		}
		parts = parts[:0]
	}
	for _, r := range text {
		switch {
		case unicode.IsLetter(r):
			b.WriteRune(r)
		case r == '\'' || r == '’' || r == '‘':
			if b.Len() > 0 {
				b.WriteByte('\'')
			}
		case r == '-' || r == '‐' || r == '‑':
			flushWord()
		default:
			flush()
		}
	}
	flush()
}

// normWord strips possessives and contractions: "brother's" is "brother",
// and "don't" is "not".
func normWord(w string) string {
	w = strings.Trim(w, "'")
	i := strings.IndexByte(w, '\'')
	if i < 0 {
		return w
	}
	if strings.HasSuffix(w, "n't") {
		return "not"
	}
	return w[:i]
}

// negations all become the term "not": stop words elsewhere, but "judge
// not" and "don't judge" are the same saying, and "fear not" is not "fear".
var negations = map[string]bool{"not": true, "no": true, "nor": true}

// analyzer turns text into index terms: words, with archaic forms made
// modern, stop words dropped, and Snowball-stemmed.
type analyzer struct {
	// modern maps corpus-derived archaic verb forms ("loveth") to their
	// modern word ("love"); it is part of the stored model.
	modern map[string]string
}

// terms calls fn with each index term of text, in order.
func (a *analyzer) terms(text string, fn func(term string)) {
	words(text, func(w string) {
		if w = normWord(w); w == "" {
			return
		}
		if m, ok := archaic[w]; ok {
			w = m
		} else if m, ok := a.modern[w]; ok {
			w = m
		}
		if negations[w] {
			fn("not")
			return
		}
		if len(w) < 2 || isStop(w) {
			return
		}
		fn(english.Stem(w, true))
	})
}

// features calls fn with each unigram term of text and, after each but
// the first, the bigram of it and the term before ("god love" for "God so
// loved"): bigrams carry word order, so a quotation ranks the verse it
// quotes above verses that merely share its words.
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

// deriveArchaic finds the KJV's -eth/-est verb forms and the modern word
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
		if _, ok := archaic[w]; ok {
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
		case strings.HasSuffix(w, "st"):
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
