package pipeline

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/pgvector/pgvector-go"

	"github.com/selahdev/selah/corpus"
)

// LocalName is the name of the local embedder.
const LocalName = "local"

// localDesign names the local model's design: the analyzer, the weighting
// and the stored format. Bump it when their code changes so BuildIndex
// rebuilds existing indexes; changes to the tables they use are caught by
// localVersion's fingerprint.
const localDesign = "bm25-v2"

// localVersion is localDesign with a fingerprint of everything that shapes
// document vectors: parameters and word tables (not the query-side
// synonyms, which need no rebuild). A model of another version is refused,
// so a worker never embeds queries differently from the stored verses.
var localVersion = func() string {
	h := sha256.New()
	// fmt prints maps sorted by key, so this is stable.
	fmt.Fprint(h, bm25K1, bm25B, minBigramDF, maxDocTerms, archaic, stopExtra, negations)
	return localDesign + "-" + hex.EncodeToString(h.Sum(nil))[:12]
}()

// LocalVersion names the local embedder's design and word tables; a
// database whose index has another version is rebuilt by selah ingest.
func LocalVersion() string { return localVersion }

// BM25 parameters, the usual ones; k1 ∈ [0.9, 2], b ∈ [0, 0.75] measured
// within a point of each other on the eval set.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// maxDocTerms caps a document vector's non-zero elements: pgvector's HNSW
// index on sparsevec takes at most 1,000. No verse comes near it.
const maxDocTerms = 1000

// bigramWeight scales a bigram's idf in query vectors: a bigram match is
// evidence of the wording, on top of its two words' own.
const bigramWeight = 0.5

// minBigramDF is how many verses a bigram needs to join the vocabulary.
const minBigramDF = 2

// Document is one verse as the index sees it: the KJV text and the WEB
// wording mapped onto it, which bridges modern queries to the KJV.
type Document struct {
	ID      corpus.VerseID
	Text    string
	WebText string
}

// Content is the text embedded for the verse: KJV then WEB.
func (d Document) Content() string {
	if d.WebText == "" {
		return d.Text
	}
	return d.Text + " " + d.WebText
}

// localModel is what BuildLocal learns from the corpus and the database
// stores: the vocabulary with its idf, the average document length, and the
// archaic word forms found in the KJV.
type localModel struct {
	Version string            `json:"version"`
	K1      float64           `json:"k1"`
	B       float64           `json:"b"`
	Docs    int               `json:"docs"`
	AvgDL   float64           `json:"avgdl"`
	Terms   []string          `json:"terms"` // sorted; a term's position is its dimension
	IDF     []float64         `json:"idf"`
	Modern  map[string]string `json:"modern"`
}

// Local is the default embedder: BM25 as a sparse vector space. A document
// vector holds each term's BM25 saturation weight
// tf·(k1+1)/(tf+k1·(1−b+b·dl/avgdl)) and a query vector each term's idf, so
// their inner product is the document's BM25 score for the query, and
// pgvector's inner-product search over sparsevec is BM25 ranking. Terms are
// Snowball stems of the KJV and WEB wording with archaic forms made modern,
// and queries are widened with a small table of modern synonyms.
//
// It is built from the corpus alone, deterministically, and needs no network.
type Local struct {
	model    localModel
	index    map[string]int32
	an       analyzer
	checksum string
}

// BuildLocal learns the local model from the corpus.
func BuildLocal(ctx context.Context, docs []Document) (*Local, error) {
	if len(docs) == 0 {
		return nil, fmt.Errorf("pipeline: build local embedder: no documents")
	}
	// Word counts of each wording, to find the KJV's archaic verb forms.
	kjvWords, webWords := map[string]int{}, map[string]int{}
	for _, d := range docs {
		words(d.Text, func(w string) { kjvWords[normWord(w)]++ })
		words(d.WebText, func(w string) { webWords[normWord(w)]++ })
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m := localModel{Version: localVersion, K1: bm25K1, B: bm25B, Docs: len(docs),
		Modern: deriveArchaic(kjvWords, webWords)}
	an := analyzer{modern: m.Modern}
	df := map[string]int{}
	total := 0
	for _, d := range docs {
		seen := map[string]bool{}
		an.features(d.Content(), func(t string, bigram bool) {
			if !bigram {
				total++
			}
			if !seen[t] {
				seen[t] = true
				df[t]++
			}
		})
	}
	m.AvgDL = float64(total) / float64(len(docs))
	m.Terms = make([]string, 0, len(df))
	for t, n := range df {
		// A bigram in one verse only is a name or an accident of wording;
		// it would bloat the model for no gain.
		if n >= minBigramDF || !strings.Contains(t, " ") {
			m.Terms = append(m.Terms, t)
		}
	}
	slices.Sort(m.Terms)
	m.IDF = make([]float64, len(m.Terms))
	n := float64(len(docs))
	for i, t := range m.Terms {
		f := float64(df[t])
		// Rounded so the stored model is the same on every platform.
		m.IDF[i] = round6(math.Log(1 + (n-f+0.5)/(f+0.5)))
	}
	m.AvgDL = round6(m.AvgDL)
	return newLocal(m)
}

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

func newLocal(m localModel) (*Local, error) {
	if m.Version != localVersion {
		return nil, fmt.Errorf("pipeline: local model is %q, this build needs %q (run selah ingest)", m.Version, localVersion)
	}
	if len(m.Terms) != len(m.IDF) || len(m.Terms) == 0 || m.AvgDL <= 0 {
		return nil, fmt.Errorf("pipeline: local model is malformed")
	}
	l := &Local{model: m, index: make(map[string]int32, len(m.Terms)), an: analyzer{modern: m.Modern}}
	for i, t := range m.Terms {
		l.index[t] = int32(i)
	}
	b, err := l.MarshalBinary()
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	l.checksum = hex.EncodeToString(sum[:])
	return l, nil
}

// LoadLocal restores a local embedder from MarshalBinary's output.
func LoadLocal(data []byte) (*Local, error) {
	var m localModel
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("pipeline: load local model: %w", err)
	}
	return newLocal(m)
}

// MarshalBinary encodes the model (JSON, stable across runs).
func (l *Local) MarshalBinary() ([]byte, error) {
	b, err := json.Marshal(l.model)
	if err != nil {
		return nil, fmt.Errorf("pipeline: encode local model: %w", err)
	}
	return b, nil
}

// Name is "local".
func (l *Local) Name() string { return LocalName }

// Dims is the size of the vocabulary.
func (l *Local) Dims() int { return len(l.model.Terms) }

// Checksum identifies the model: equal checksums, equal vectors.
func (l *Local) Checksum() string { return l.checksum }

// EmbedQuery returns the query's idf vector, widened with synonyms. A query
// with no known term is the zero vector, which matches nothing.
func (l *Local) EmbedQuery(_ context.Context, q string) (Vector, error) {
	q = rewritePhrases(stripFrame(q))
	w := map[int32]float32{}
	add := func(t string, scale float64) {
		if i, ok := l.index[t]; ok {
			if v := float32(l.model.IDF[i] * scale); v > w[i] {
				w[i] = v
			}
		}
	}
	l.expand(q, add)
	typed := map[int32]float32{}
	l.an.features(q, func(t string, bigram bool) {
		if i, ok := l.index[t]; ok {
			v := float32(l.model.IDF[i])
			if bigram {
				v *= float32(bigramWeight)
			}
			typed[i] += v
		}
	})
	for i, v := range typed {
		w[i] = max(w[i], v)
	}
	sv := pgvector.NewSparseVectorFromMap(w, int32(l.Dims()))
	return Vector{Sparse: &sv}, nil
}

// EmbedDocuments returns each text's BM25 term-weight vector.
func (l *Local) EmbedDocuments(_ context.Context, texts []string) ([]Vector, error) {
	out := make([]Vector, len(texts))
	for k, text := range texts {
		tf := map[int32]float64{}
		dl := 0
		l.an.features(text, func(t string, bigram bool) {
			if !bigram {
				dl++
			}
			if i, ok := l.index[t]; ok {
				tf[i]++
			}
		})
		norm := l.model.K1 * (1 - l.model.B + l.model.B*float64(dl)/l.model.AvgDL)
		type tw struct {
			i int32
			w float32
		}
		ws := make([]tw, 0, len(tf))
		for i, f := range tf {
			ws = append(ws, tw{i, float32(f * (l.model.K1 + 1) / (f + norm))})
		}
		if len(ws) > maxDocTerms {
			slices.SortFunc(ws, func(a, b tw) int { return cmp.Or(cmp.Compare(b.w, a.w), cmp.Compare(a.i, b.i)) })
			ws = ws[:maxDocTerms]
		}
		m := make(map[int32]float32, len(ws))
		for _, x := range ws {
			m[x.i] = x.w
		}
		sv := pgvector.NewSparseVectorFromMap(m, int32(l.Dims()))
		out[k] = Vector{Sparse: &sv}
	}
	return out, nil
}
