package pipeline

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/selahdev/selah/corpus/topics"
	"github.com/selahdev/selah/pipeline/wordvec"
)

// Learned bridges from a question's words to Nave's themes. A pastoral
// question often says what it is about in a word no Nave's title holds
// ("I feel anxious all the time": CARE; "How can I be saved?": SALVATION),
// and then the router names no theme and the question is declined or
// answered from verses that share a word. The trained word vectors
// (package wordvec: `selah train` learns them from the KJV, the WEB,
// Strong's, Nave's and WordNet's glosses) put such a word near the title
// of the theme it means, and nothing else here says which: the bridge is
// the vectors' nearest theme title to each of the question's words.
//
// Nearness is CSLS (cross-domain similarity local scaling, Conneau et al.
// 2018, "Word translation without parallel data"): twice the cosine of the
// word to the title less the title's mean cosine to its csls nearest
// words of the vocabulary. Plain cosine makes a few titles whose vectors
// sit in a dense region (CURIOSITY, ENTHUSIASM, DESPONDENCY) the nearest
// title of most words; CSLS takes that density off.
//
// The themes are the topics of corpus/topics' key passages whose title is
// one word the vectors know (703 of 837): each has teaching a question can
// be answered from. A bridged theme is weighed only when the router names
// no theme the question could be answered from (Answerer.weighThemes), and
// the theme gate decides as for any other: measured on the ask tuning sets,
// letting bridged themes compete with the router's cost answers wherever
// the question's own words named the right theme (DEVELOPERS.md).
type themeBridge struct {
	vecs *wordvec.Vectors
	once sync.Once
	// titles, their unit vectors and their CSLS density, built once per
	// process (LoadRetriever starts it beside the other sources; near
	// waits for it): a dot product of each title with every frequent word
	// of the vocabulary, about 2 s.
	titles  []string
	unit    [][]float32
	density []float32
}

// csls is the neighbourhood CSLS's density averages over (the paper's
// 10), among the words the corpus has at least cslsMinCount times: a word
// seen a handful of times has a vector its few contexts pulled anywhere,
// and rare words close to a title by chance made it look dense. Measured
// on the ask tuning sets against the whole vocabulary (the vectors'
// minimum count, 5): "What is the price of bitcoin today?" was answered
// from REDEMPTION ("bought with a price"), DEVELOPERS.md.
const (
	csls         = 10
	cslsMinCount = 20
)

func newThemeBridge(vecs *wordvec.Vectors) *themeBridge {
	return &themeBridge{vecs: vecs}
}

func (b *themeBridge) build() {
	// The words the density is measured among, as unit vectors: only the
	// frequent ones, not the whole vocabulary.
	type word struct {
		i    int
		unit []float32
	}
	var frequent []word
	for i := range b.vecs.Len() {
		if b.vecs.Count(i) >= cslsMinCount {
			frequent = append(frequent, word{i, unitVector(b.vecs.Vector(i))})
		}
	}
	for _, title := range slices.Sorted(maps.Keys(topics.Keys())) {
		i := b.vecs.Lookup(strings.ToLower(title))
		if i < 0 {
			continue
		}
		u := unitVector(b.vecs.Vector(i))
		// The title's csls nearest words, itself excluded.
		best := make([]float32, 0, csls+1)
		for _, w := range frequent {
			if w.i == i {
				continue
			}
			d := dot(u, w.unit)
			if len(best) == csls && d <= best[csls-1] {
				continue
			}
			k, _ := slices.BinarySearchFunc(best, d, func(x, y float32) int { return cmp.Compare(y, x) })
			best = slices.Insert(best, k, d)
			if len(best) > csls {
				best = best[:csls]
			}
		}
		var sum float32
		for _, d := range best {
			sum += d
		}
		b.titles = append(b.titles, title)
		b.unit = append(b.unit, u)
		b.density = append(b.density, sum/float32(max(len(best), 1)))
	}
}

// bridged is a theme the bridge finds for a question, with its best CSLS
// score over the question's words.
type bridged struct {
	title string
	score float64
}

// near returns the nearest theme of each of question's content words that
// the vectors know, each theme once at its best score, best first.
func (b *themeBridge) near(question string) []bridged {
	b.once.Do(b.build)
	best := map[string]float64{}
	wordvec.Each(question, func(w string) {
		if isStop(w) || questionFrame[w] {
			return
		}
		i := b.vecs.Lookup(w)
		if i < 0 {
			return
		}
		q := unitVector(b.vecs.Vector(i))
		at, score := -1, float32(math.Inf(-1))
		for k, u := range b.unit {
			if s := 2*dot(q, u) - b.density[k]; s > score {
				at, score = k, s
			}
		}
		if at >= 0 {
			t := b.titles[at]
			if s, seen := best[t]; !seen || float64(score) > s {
				best[t] = float64(score)
			}
		}
	})
	out := make([]bridged, 0, len(best))
	for t, s := range best {
		out = append(out, bridged{title: t, score: s})
	}
	slices.SortFunc(out, func(x, y bridged) int {
		return cmp.Or(cmp.Compare(y.score, x.score), strings.Compare(x.title, y.title))
	})
	return out
}

// unitVector returns x scaled to unit length (zero stays zero).
func unitVector(x []float32) []float32 {
	out := slices.Clone(x)
	normalize(out)
	return out
}
