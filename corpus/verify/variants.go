package verify

import "strings"

// Old spellings are learned, not listed: the World English Bible is a
// modern-spelling translation of the same verses, so a KJV word that the
// WEB hardly uses and whose verses, in the WEB, hold a word spelled almost
// the same ("shew" beside "show", "labour" beside "labor", "saviour" beside
// "savior") is an old spelling of that word. The rules below only decide
// what counts as "almost the same"; every pair comes from the two texts.
//
// Grammar is not spelling: the verb endings -eth, -est, -th, -st and the
// second-person -t of "shalt" and "wilt", and the pronouns of address, are
// never learned as variants, so a quote that modernizes them is at best a
// partial match.

// Thresholds of the learning, set from what a spelling variant is (a
// change of one or two letters that keeps the start of the word), not
// from the evaluation set.
const (
	minVariantVerses = 3    // the old spelling is in at least this many KJV verses
	maxModernShare   = 0.1  // ... and the WEB uses it in at most this share as many
	minPairShare     = 0.25 // the modern spelling stands in this share of its verses
	minVariantLen    = 4
	maxVariantEdits  = 2
)

// grammatical endings and pronouns that are never read as spellings.
var (
	grammarEndings = []string{"eth", "est", "th", "st", "lt"}
	pronouns       = map[string]bool{"thee": true, "thou": true, "thy": true, "thine": true, "ye": true, "thyself": true}
)

func learnVariants(texts []Text) map[string]string {
	kjvDF, webDF := map[string]int{}, map[string]int{}
	kjvWords := make([][]string, len(texts))
	webWords := make([][]string, len(texts))
	for i, t := range texts {
		kjvWords[i] = uniq(words(t.KJV))
		webWords[i] = uniq(words(t.WEB))
		for _, w := range kjvWords[i] {
			kjvDF[w]++
		}
		for _, w := range webWords[i] {
			webDF[w]++
		}
	}
	archaic := func(k string) bool {
		if len(k) < minVariantLen || pronouns[k] || kjvDF[k] < minVariantVerses {
			return false
		}
		for _, e := range grammarEndings {
			if strings.HasSuffix(k, e) {
				return false
			}
		}
		return float64(webDF[k]) <= maxModernShare*float64(kjvDF[k])
	}
	co := map[string]map[string]int{}
	for i := range texts {
		for _, k := range kjvWords[i] {
			if !archaic(k) {
				continue
			}
			for _, w := range webWords[i] {
				if w == k || len(w) < minVariantLen || w[:2] != k[:2] || webDF[w] < minVariantVerses {
					continue
				}
				if editDistance(k, w) > maxVariantEdits {
					continue
				}
				if co[k] == nil {
					co[k] = map[string]int{}
				}
				co[k][w]++
			}
		}
	}
	out := map[string]string{}
	for k, ws := range co {
		best, n := "", 0
		for w, c := range ws {
			if c > n || (c == n && w < best) {
				best, n = w, c
			}
		}
		if n >= minVariantVerses && float64(n) >= minPairShare*float64(kjvDF[k]) {
			out[k] = best
		}
	}
	return out
}

func uniq(ws []string) []string {
	seen := make(map[string]bool, len(ws))
	out := ws[:0:0]
	for _, w := range ws {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// editDistance is the Levenshtein distance of two words (bytes: the KJV and
// WEB are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
