// Package wordvec holds selah's trained word vectors: the versioned,
// checksummed file `selah train` writes (fastText skipgram vectors, int8
// quantized, with each word's corpus count), and the tokenization both the
// training corpus and the queries go through.
//
// The vectors are learned from named data sources only (the KJV, the WEB,
// Strong's dictionaries, Nave's Topical Bible, WordNet's glosses, and the
// KJV-WEB word alignment the modules' Strong's tags give; see package
// train): they are the bridge between a reader's modern words and the
// KJV's, and nobody wrote a word of it.
package wordvec

import (
	"strings"
	"unicode"
)

// Tokens returns the words of text as the vectors know them: lower-case
// runs of letters, possessives stripped ("brother's" is "brother"),
// contractions with n't as "not", and a hyphenated word as its parts and
// the parts joined ("tender-hearted" gives "tender", "hearted",
// "tenderhearted": the KJV writes the joined form). Digits and
// punctuation separate words and are not words.
//
// This is the tokenization of package pipeline's analyzer without its
// stemming, stop words or archaic folding: the vectors learn "loveth" and
// "loves" from the data, and frequent words are weighted down by their
// corpus frequency instead of being dropped.
func Tokens(text string) []string {
	var out []string
	Each(text, func(w string) { out = append(out, w) })
	return out
}

// Each calls fn with each token of text, in order, as Tokens returns them.
func Each(text string, fn func(w string)) {
	var b strings.Builder
	var parts []string
	flushWord := func() {
		if b.Len() > 0 {
			if w := normWord(b.String()); w != "" {
				parts = append(parts, w)
			}
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
			b.WriteRune(unicode.ToLower(r))
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

// normWord strips possessives and contractions.
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
