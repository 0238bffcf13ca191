package pipeline

import (
	"cmp"
	"container/heap"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/pipeline/wordvec"
)

// The lexical source: BM25F over an in-memory inverted index of every
// verse, built at start from the verses in PostgreSQL (31k verses: about a
// second). Each verse is a document of fields, each weighed and
// length-normalised on its own and summed into one pseudo term frequency
// (Robertson and Zaragoza's BM25F):
//
//	tf'(t, d) = Σ_f w_f · tf_f(t, d) / (1 − b + b · len_f(d) / avglen_f)
//	score(d)  = Σ_t q_t · idf(t) · tf'·(k1+1) / (tf' + k1)
//
// The fields are the KJV text and the WEB (World English Bible) wording of
// the same verse: the WEB field is the bridge between a reader's modern
// words and the KJV's ("brothers" finds the verses that say "brethren"),
// and measured the largest single gain for paraphrases (issue 12).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Field weights of BM25F. KJV and WEB weigh the same (measured in issue
// 12's prototype). The third field holds the Strong's glosses of the
// Hebrew and Greek words tagged in the verse (ingest derives them from the
// KJV module's tags and Strong's dictionaries): the sense of the original
// behind the KJV's word ("charity" is G26, "love, i.e. affection or
// benevolence"). Glosses are long and general, so they weigh little.
const (
	kjvFieldWeight   = 1.0
	webFieldWeight   = 1.0
	glossFieldWeight = 0.15
)

// bigramWeight weighs a query's word pairs ("god love" for "God so
// loved") against its words: a pair in a verse is evidence of the wording,
// so a quotation ranks the verse it quotes above verses that merely share
// its words. Pairs are indexed as terms of their own in each field (a
// sequential-dependence model in BM25F's frame).
const bigramWeight = 0.5

// LexDoc is one verse as the lexical index reads it.
type LexDoc struct {
	ID      corpus.VerseID
	Text    string // KJV
	WebText string // WEB wording mapped onto the verse
	Glosses string // Strong's glosses of the verse's tagged words
}

// LexicalOptions shape an index.
type LexicalOptions struct {
	// NoWeb leaves the WEB field out: the WEB→KJV evaluation queries with
	// WEB text and must not find it in the index.
	NoWeb bool
	// NoGlosses leaves the Strong's gloss field out (to measure it).
	NoGlosses bool
}

type posting struct {
	doc int32
	tf  float32 // tf' of BM25F, the field-weighted normalised frequency
}

// Lexical is the BM25F index. It is read-only once built and safe for
// concurrent use.
type Lexical struct {
	ids      []corpus.VerseID
	docIndex map[corpus.VerseID]int32
	terms    map[string]int32
	postings [][]posting
	idf      []float64
	maxIDF   float64
	// docTerms is each verse's set of terms (KJV and WEB), sorted, for the
	// coverage of a query's words.
	docTerms [][]int32
	// worded is set for the terms of the verses' wording (KJV or WEB), not
	// only of the Strong's glosses, by term id.
	worded  []bool
	an      analyzer
	scratch sync.Pool
}

// termIDF is a term's idf; a term no verse holds has the rarest's.
func (l *Lexical) termIDF(t string) float64 {
	if id, ok := l.terms[t]; ok {
		return l.idf[id]
	}
	return l.maxIDF
}

// BuildLexical indexes docs. The KJV's archaic verb forms are folded onto
// their modern words as learned from the two wordings (deriveArchaic), so
// "loveth" and "loves" are one term.
func BuildLexical(docs []LexDoc, opt LexicalOptions) *Lexical {
	kjvWords, webWords := map[string]int{}, map[string]int{}
	for _, d := range docs {
		wordvec.Each(d.Text, func(w string) { kjvWords[w]++ })
		wordvec.Each(d.WebText, func(w string) { webWords[w]++ })
	}
	l := &Lexical{
		ids:      make([]corpus.VerseID, len(docs)),
		docIndex: make(map[corpus.VerseID]int32, len(docs)),
		terms:    map[string]int32{},
		docTerms: make([][]int32, len(docs)),
		an:       analyzer{modern: deriveArchaic(kjvWords, webWords), stems: map[string]string{}},
	}
	type field struct {
		weight float64
		text   func(LexDoc) string
		pairs  bool // index word pairs
	}
	fields := []field{{kjvFieldWeight, func(d LexDoc) string { return d.Text }, true}}
	if !opt.NoWeb {
		fields = append(fields, field{webFieldWeight, func(d LexDoc) string { return d.WebText }, true})
	}
	if !opt.NoGlosses {
		// Glosses are definitions joined together, not wording to quote:
		// no pairs (they would also be most of the vocabulary).
		fields = append(fields, field{glossFieldWeight, func(d LexDoc) string { return d.Glosses }, false})
	}
	memo := map[string][]string{}
	// First pass: each field's terms and lengths.
	tfs := make([][]map[int32]float64, len(fields))
	lens := make([][]float64, len(fields))
	avg := make([]float64, len(fields))
	for f, fd := range fields {
		tfs[f] = make([]map[int32]float64, len(docs))
		lens[f] = make([]float64, len(docs))
		for i, d := range docs {
			m := map[int32]float64{}
			n := 0
			add := func(t string, bigram bool) {
				id, ok := l.terms[t]
				if !ok {
					id = int32(len(l.terms))
					l.terms[t] = id
				}
				m[id]++
				if !bigram {
					n++
				}
			}
			if fd.pairs {
				l.an.features(fd.text(d), add)
			} else {
				// Without pairs, text is the sum of its parts: glosses
				// repeat from verse to verse, so each is analysed once.
				for _, part := range strings.Split(fd.text(d), "; ") {
					ts, ok := memo[part]
					if !ok {
						l.an.terms(part, func(t string) { ts = append(ts, t) })
						memo[part] = ts
					}
					for _, t := range ts {
						add(t, false)
					}
				}
			}
			tfs[f][i], lens[f][i] = m, float64(n)
			avg[f] += float64(n)
		}
		avg[f] = max(avg[f]/float64(len(docs)), 1)
	}
	l.worded = make([]bool, len(l.terms))
	for f, fd := range fields {
		if !fd.pairs {
			continue
		}
		for _, m := range tfs[f] {
			for t := range m {
				l.worded[t] = true
			}
		}
	}
	l.postings = make([][]posting, len(l.terms))
	for i, d := range docs {
		l.ids[i] = d.ID
		l.docIndex[d.ID] = int32(i)
		acc := map[int32]float64{}
		for f, fd := range fields {
			norm := 1 - bm25B + bm25B*lens[f][i]/avg[f]
			for t, n := range tfs[f][i] {
				acc[t] += fd.weight * n / norm
			}
		}
		ts := make([]int32, 0, len(acc))
		for t, v := range acc {
			ts = append(ts, t)
			l.postings[t] = append(l.postings[t], posting{doc: int32(i), tf: float32(v)})
		}
		slices.Sort(ts)
		l.docTerms[i] = ts
	}
	n := float64(len(docs))
	l.idf = make([]float64, len(l.postings))
	for t, ps := range l.postings {
		df := float64(len(ps))
		l.idf[t] = math.Log(1 + (n-df+0.5)/(df+0.5))
		l.maxIDF = max(l.maxIDF, l.idf[t])
	}
	l.scratch.New = func() any { s := make([]float32, len(docs)); return &s }
	// From here on the analyzer serves concurrent queries: its stem cache
	// was for the build alone.
	l.an.stems = nil
	return l
}

// Docs is the number of verses indexed.
func (l *Lexical) Docs() int { return len(l.ids) }

// qterm is one term of a query with its weight: 1 for a word the reader
// typed, less for one an expansion brought.
type qterm struct {
	id     int32
	weight float64
	bigram bool
}

// lexHit is a verse and its BM25F score.
type lexHit struct {
	doc   int32
	score float64
}

// query analyses text into the index's terms (each once, weight 1) and
// word pairs (bigramWeight), and counts the words the corpus has never
// seen.
//
// A name the verses never write counts as never seen even when a Strong's
// gloss holds the word: "Who wrote Hamlet?" asks about a name, and that
// "hamlet" glosses the Hebrew for a village does not put it in Scripture.
// A term known (nil: none) to another source is not counted.
func (l *Lexical) query(text string, known func(term string) bool) (qs []qterm, unknown int) {
	seen := map[string]bool{}
	names := l.nameTerms(text)
	l.an.features(text, func(t string, bigram bool) {
		if seen[t] || (!bigram && questionFrame[t]) {
			return
		}
		seen[t] = true
		id, ok := l.terms[t]
		if ok && !bigram && names[t] && !l.worded[id] {
			ok = false
		}
		switch {
		case ok && bigram:
			qs = append(qs, qterm{id: id, weight: bigramWeight, bigram: true})
		case ok:
			qs = append(qs, qterm{id: id, weight: 1})
		case !bigram && (known == nil || !known(t)):
			unknown++
		}
	})
	// The tokenizer drops digits: a number no verse could write ("in
	// 2020") is a word never seen all the same (numerals.go).
	return qs, unknown + strayNumerals(text)
}

// nameTerms are the terms of the words text writes as names: with a
// capital where no sentence starts.
func (l *Lexical) nameTerms(text string) map[string]bool {
	var out map[string]bool
	start := true
	for _, f := range strings.Fields(text) {
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) })
		if r, _ := utf8.DecodeRuneInString(w); !start && unicode.IsUpper(r) {
			l.an.terms(w, func(t string) {
				if out == nil {
					out = map[string]bool{}
				}
				out[t] = true
			})
		}
		start = strings.ContainsAny(f, ".?!:")
	}
	return out
}

// search ranks the verses for qs, best first, at most limit.
func (l *Lexical) search(qs []qterm, limit int) []lexHit {
	if len(qs) == 0 || limit <= 0 {
		return nil
	}
	sp := l.scratch.Get().(*[]float32)
	scores := *sp
	var touched []int32
	for _, q := range qs {
		w := float32(q.weight * l.idf[q.id])
		for _, p := range l.postings[q.id] {
			if scores[p.doc] == 0 {
				touched = append(touched, p.doc)
			}
			scores[p.doc] += w * p.tf * (bm25K1 + 1) / (p.tf + bm25K1)
		}
	}
	// The best limit by a min-heap: a common word touches most verses, and
	// sorting them all would cost more than scoring them.
	h := make(lexHeap, 0, limit)
	for _, d := range touched {
		x := lexHit{doc: d, score: float64(scores[d])}
		scores[d] = 0
		switch {
		case len(h) < limit:
			heap.Push(&h, x)
		case better(x, h[0]):
			h[0] = x
			heap.Fix(&h, 0)
		}
	}
	l.scratch.Put(sp)
	hits := []lexHit(h)
	slices.SortFunc(hits, func(a, b lexHit) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	return hits
}

// better orders hits: higher score first, then canonical order.
func better(a, b lexHit) bool {
	return a.score > b.score || (a.score == b.score && a.doc < b.doc)
}

// lexHeap is a min-heap of hits, the worst at the top.
type lexHeap []lexHit

func (h lexHeap) Len() int           { return len(h) }
func (h lexHeap) Less(i, j int) bool { return better(h[j], h[i]) }
func (h lexHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *lexHeap) Push(x any)        { *h = append(*h, x.(lexHit)) }
func (h *lexHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// selfScore is the score of a verse of average length holding each of
// qs's words once in one field: a scale for scores across queries.
func (l *Lexical) selfScore(qs []qterm) float64 {
	var s float64
	for _, q := range qs {
		if !q.bigram {
			s += q.weight * l.idf[q.id]
		}
	}
	return s
}

// words1 counts qs's typed words (not pairs, not expansions).
func words1(qs []qterm) int {
	n := 0
	for _, q := range qs {
		if !q.bigram && q.weight >= 1 {
			n++
		}
	}
	return n
}

// coverage is the share of qs's terms (weight 1: the words typed) that
// verse doc holds in any field.
func (l *Lexical) coverage(qs []qterm, doc int32) float64 {
	n, got := 0, 0
	for _, q := range qs {
		if q.weight < 1 || q.bigram {
			continue
		}
		n++
		if _, ok := slices.BinarySearch(l.docTerms[doc], q.id); ok {
			got++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(got) / float64(n)
}

// idfCoverage is coverage weighted by idf: the share of the query's
// information the verse holds. A word the corpus has never seen (unknown
// of them) weighs as much as the rarest word it has.
func (l *Lexical) idfCoverage(qs []qterm, unknown int, doc int32) float64 {
	return l.idfCoverageAny(qs, unknown, []int32{doc})
}

// idfCoverageAny is idfCoverage of docs together: a word counts as held
// when any of them holds it.
func (l *Lexical) idfCoverageAny(qs []qterm, unknown int, docs []int32) float64 {
	total := float64(unknown) * l.maxIDF
	var got float64
	for _, q := range qs {
		if q.weight < 1 || q.bigram {
			continue
		}
		total += l.idf[q.id]
		if slices.ContainsFunc(docs, func(d int32) bool {
			_, ok := slices.BinarySearch(l.docTerms[d], q.id)
			return ok
		}) {
			got += l.idf[q.id]
		}
	}
	if total == 0 {
		return 0
	}
	return got / total
}

// scoreDoc is doc's BM25F score for qs (postings are in document order).
func (l *Lexical) scoreDoc(qs []qterm, doc int32) float64 {
	var s float64
	for _, q := range qs {
		ps := l.postings[q.id]
		i, ok := slices.BinarySearchFunc(ps, doc, func(p posting, d int32) int { return cmp.Compare(p.doc, d) })
		if ok {
			tf := float64(ps[i].tf)
			s += q.weight * l.idf[q.id] * tf * (bm25K1 + 1) / (tf + bm25K1)
		}
	}
	return s
}
