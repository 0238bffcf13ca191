package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/pipeline/wordvec"
	"github.com/selahdev/selah/store"
)

// DefaultSIFA is SIF's smoothing constant a in a/(a+p(w)). Arora, Liang
// and Ma ("A simple but tough-to-beat baseline for sentence embeddings",
// 2017) find 1e-3 to 1e-4 best; 1e-3 is their default. Measured here, SIF
// alone, hit@10 on the 76 paraphrases of the old eval sets (search.jsonl
// and holdout.jsonl) and on the WEB→KJV set: a=1e-4 0.684, 0.966; 3e-4
// 0.750, 0.984; 1e-3 0.829, 0.988; 3e-3 0.842, 0.983; 1e-2 0.868, 0.979.
// Above 1e-3 the paraphrases move by one or two cases and WEB→KJV drops,
// so the published default stays.
const DefaultSIFA = 1e-3

// SIFName names the SIF index as a retrieval source (Retriever.DenseName).
const SIFName = "sif"

// SIFOptions configure a SIFIndex.
type SIFOptions struct {
	// A is SIF's a (0: DefaultSIFA).
	A float64
	// NoWEB builds verse vectors from the KJV words alone. The WEB→KJV
	// evaluation uses it, so that a WEB verse as the query does not meet
	// its own words in the index.
	NoWEB bool
}

// SIFIndex is the dense verse source: every verse as the SIF-weighted
// average of the trained word vectors of its KJV and WEB words, with the
// corpus's first principal component removed (smooth inverse frequency),
// searched by cosine over all verses. It is built in memory at worker
// start (31k verses x 100 dims, 12 MB) and safe for concurrent use.
//
// It implements VerseSource: a query is embedded the same way and the
// verses are ranked by cosine, brute force (31k x 100 multiply-adds, about
// a millisecond).
type SIFIndex struct {
	vecs *wordvec.Vectors
	a    float64
	dims int
	pc   []float32 // unit first principal component of the verse vectors
	ids  []corpus.VerseID
	rows map[corpus.VerseID]int32 // verse -> its row in mat
	mat  []float32                // len(ids) x dims, unit rows (zero rows for verses without known words)

	verses []store.IndexText
	opt    SIFOptions
	noWeb  struct {
		once sync.Once
		x    *SIFIndex
		err  error
	}
}

// NewSIFIndex builds the index over verses with the given word vectors.
func NewSIFIndex(vecs *wordvec.Vectors, verses []store.IndexText, opt SIFOptions) (*SIFIndex, error) {
	if vecs == nil || vecs.Len() == 0 {
		return nil, fmt.Errorf("pipeline: SIF index: no word vectors")
	}
	if len(verses) == 0 {
		return nil, fmt.Errorf("pipeline: SIF index: no verses: run selah ingest")
	}
	x := &SIFIndex{vecs: vecs, a: opt.A, dims: vecs.Dims(), verses: verses, opt: opt}
	if x.a <= 0 {
		x.a = DefaultSIFA
	}
	x.ids = make([]corpus.VerseID, len(verses))
	x.rows = make(map[corpus.VerseID]int32, len(verses))
	x.mat = make([]float32, len(verses)*x.dims)
	for i, v := range verses {
		x.ids[i] = v.ID
		x.rows[v.ID] = int32(i)
		text := v.Text
		if !opt.NoWEB {
			text += " " + v.WebText
		}
		x.average(x.mat[i*x.dims:(i+1)*x.dims], text)
	}
	x.pc = firstComponent(x.mat, x.dims)
	for i := range x.ids {
		row := x.mat[i*x.dims : (i+1)*x.dims]
		x.removePC(row)
		normalize(row)
	}
	return x, nil
}

// LoadSIFIndex builds the index over the verses in the database.
func LoadSIFIndex(ctx context.Context, st *store.Store, vecs *wordvec.Vectors, opt SIFOptions) (*SIFIndex, error) {
	texts, err := st.IndexTexts(ctx)
	if err != nil {
		return nil, err
	}
	return NewSIFIndex(vecs, texts, opt)
}

// WithoutWeb returns the index built from the KJV words alone (itself if
// it is), built on first use and kept: the evaluation on WEB wording as
// queries must not find the WEB words in the verses.
func (x *SIFIndex) WithoutWeb() (VerseSource, error) {
	if x.opt.NoWEB {
		return x, nil
	}
	x.noWeb.once.Do(func() {
		opt := x.opt
		opt.NoWEB = true
		x.noWeb.x, x.noWeb.err = NewSIFIndex(x.vecs, x.verses, opt)
	})
	if x.noWeb.err != nil {
		return nil, x.noWeb.err
	}
	return x.noWeb.x, nil
}

// Len is the number of verses indexed.
func (x *SIFIndex) Len() int { return len(x.ids) }

// average writes into dst the SIF-weighted mean of the vectors of text's
// words, a/(a+p(w)) each; words without a vector are skipped. It reports
// how many words counted.
func (x *SIFIndex) average(dst []float32, text string) int {
	n := 0
	wordvec.Each(text, func(w string) {
		i := x.vecs.Lookup(w)
		if i < 0 {
			return
		}
		x.vecs.AddTo(dst, i, float32(x.a/(x.a+x.vecs.Prob(i))))
		n++
	})
	if n > 0 {
		inv := 1 / float32(n)
		for j := range dst {
			dst[j] *= inv
		}
	}
	return n
}

func (x *SIFIndex) removePC(v []float32) {
	var d float32
	for j, c := range x.pc {
		d += c * v[j]
	}
	for j, c := range x.pc {
		v[j] -= d * c
	}
}

// Embed returns the query's unit vector, or nil when none of its words
// has a vector.
func (x *SIFIndex) Embed(query string) []float32 {
	q := make([]float32, x.dims)
	if x.average(q, query) == 0 {
		return nil
	}
	x.removePC(q)
	if !normalize(q) {
		return nil
	}
	return q
}

// Search returns the verses most similar to query, best first, at most
// limit, with their cosine similarity as the score. A query none of whose
// words the vectors know finds nothing.
func (x *SIFIndex) Search(ctx context.Context, query string, limit int) ([]Scored, error) {
	if limit <= 0 {
		return nil, nil
	}
	q := x.Embed(query)
	if q == nil {
		return nil, nil
	}
	return x.nearest(q, limit, nil), nil
}

// Similarity returns the cosine of query's vector to each of ids' verses,
// in order: 0 for a verse not indexed or without known words, and for
// every verse when none of query's words has a vector.
func (x *SIFIndex) Similarity(query string, ids []corpus.VerseID) []float64 {
	out := make([]float64, len(ids))
	q := x.Embed(query)
	if q == nil {
		return out
	}
	d := x.dims
	for i, id := range ids {
		if row, ok := x.rows[id]; ok {
			out[i] = float64(dot(q[:d], x.mat[int(row)*d:(int(row)+1)*d:(int(row)+1)*d]))
		}
	}
	return out
}

// nearest ranks every verse by cosine to the unit vector q and keeps the
// best limit; skip, if set, leaves verse i out.
func (x *SIFIndex) nearest(q []float32, limit int, skip func(i int) bool) []Scored {
	// A bounded min-heap of the best so far: limit is small (tens), so a
	// full sort of 31k scores would be the slower part.
	top := make([]Scored, 0, limit+1)
	d := x.dims
	for i, id := range x.ids {
		if skip != nil && skip(i) {
			continue
		}
		s := dot(q[:d], x.mat[i*d:(i+1)*d:(i+1)*d])
		if s == 0 {
			continue // a verse without known words
		}
		if len(top) == limit && float64(s) <= top[0].Score {
			continue
		}
		top = heapPush(top, Scored{Verse: id, Score: float64(s)}, limit)
	}
	slices.SortFunc(top, func(a, b Scored) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Verse, b.Verse)
	})
	return top
}

// dot is the inner product of two equal-length vectors, four lanes at a
// time: the loop is the whole cost of a search.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// heapPush adds s to the min-heap h (by score, then verse id descending
// so equal scores keep the lower id), dropping the minimum beyond limit.
func heapPush(h []Scored, s Scored, limit int) []Scored {
	less := func(a, b Scored) bool {
		if a.Score != b.Score {
			return a.Score < b.Score
		}
		return a.Verse > b.Verse
	}
	h = append(h, s)
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !less(h[i], h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	if len(h) <= limit {
		return h
	}
	// Pop the minimum.
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && less(h[l], h[m]) {
			m = l
		}
		if r < len(h) && less(h[r], h[m]) {
			m = r
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return h
}

// firstComponent returns the unit first right singular vector of the
// rows of mat (uncentred, as SIF removes it), by power iteration on the
// dims x dims matrix MᵀM from a fixed start, so the index is the same on
// every build.
func firstComponent(mat []float32, dims int) []float32 {
	cov := make([]float64, dims*dims)
	for r := 0; r+dims <= len(mat); r += dims {
		row := mat[r : r+dims]
		for i, a := range row {
			if a == 0 {
				continue
			}
			ci := cov[i*dims : (i+1)*dims]
			for j, b := range row {
				ci[j] += float64(a) * float64(b)
			}
		}
	}
	v := make([]float64, dims)
	for i := range v {
		v[i] = 1 / math.Sqrt(float64(dims))
	}
	next := make([]float64, dims)
	for range 200 {
		var norm float64
		for i := range next {
			var s float64
			for j, c := range cov[i*dims : (i+1)*dims] {
				s += c * v[j]
			}
			next[i] = s
			norm += s * s
		}
		norm = math.Sqrt(norm)
		if norm == 0 {
			break
		}
		var delta float64
		for i := range v {
			n := next[i] / norm
			delta += math.Abs(n - v[i])
			v[i] = n
		}
		if delta < 1e-12 {
			break
		}
	}
	out := make([]float32, dims)
	for i, c := range v {
		out[i] = float32(c)
	}
	return out
}

// normalize scales v to unit length; false when v is zero.
func normalize(v []float32) bool {
	var s float64
	for _, c := range v {
		s += float64(c) * float64(c)
	}
	if s == 0 {
		for i := range v {
			v[i] = 0
		}
		return false
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
	return true
}
