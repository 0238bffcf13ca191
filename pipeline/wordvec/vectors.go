package wordvec

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
)

// Format of a vectors file, version 1, all integers little-endian:
//
//	magic   [8]byte "SELAHWV\x00"
//	version uint32  1
//	dims    uint32
//	vocab   uint32  number of words
//	total   uint64  tokens in the training corpus (the denominator of p(w))
//	then per word, sorted by word:
//	  len    uint8, word [len]byte (UTF-8)
//	  count  uint32   the word's count in the training corpus
//	  scale  float32  the vector is scale * int8 components
//	  vec    [dims]int8
//
// int8 with a per-vector scale keeps a 200-dimension vector in 204 bytes
// at a cosine of 0.9999 to the float original.
const (
	magic   = "SELAHWV\x00"
	Version = 1
)

// maxDims and maxVocab bound what a file may claim, so a damaged header is
// an error rather than a huge allocation.
const (
	maxDims  = 1024
	maxVocab = 2_000_000
)

// Vectors is a loaded vectors file. It is read-only and safe for
// concurrent use.
type Vectors struct {
	dims   int
	total  uint64
	words  []string
	index  map[string]int32
	counts []uint32
	scales []float32
	data   []int8 // len(words) * dims
}

// Dims is the vectors' dimension.
func (v *Vectors) Dims() int { return v.dims }

// Len is the number of words.
func (v *Vectors) Len() int { return len(v.words) }

// Total is the number of tokens in the training corpus.
func (v *Vectors) Total() uint64 { return v.total }

// Words returns the vocabulary, sorted.
func (v *Vectors) Words() []string { return slices.Clone(v.words) }

// Lookup returns the index of word, or -1 when the vectors do not know it.
func (v *Vectors) Lookup(word string) int {
	if i, ok := v.index[word]; ok {
		return int(i)
	}
	return -1
}

// Count is word i's count in the training corpus.
func (v *Vectors) Count(i int) uint32 { return v.counts[i] }

// Prob is word i's relative frequency in the training corpus, p(w).
func (v *Vectors) Prob(i int) float64 {
	if v.total == 0 {
		return 0
	}
	return float64(v.counts[i]) / float64(v.total)
}

// AddTo adds weight times word i's vector to dst (len Dims).
func (v *Vectors) AddTo(dst []float32, i int, weight float32) {
	w := weight * v.scales[i]
	row := v.data[i*v.dims : (i+1)*v.dims]
	for j, x := range row {
		dst[j] += w * float32(x)
	}
}

// Vector returns a copy of word i's vector.
func (v *Vectors) Vector(i int) []float32 {
	out := make([]float32, v.dims)
	v.AddTo(out, i, 1)
	return out
}

// Entry is one word for Encode: its float vector and corpus count.
type Entry struct {
	Word  string
	Count uint32
	Vec   []float32
}

// Encode writes a vectors file of entries (any order; written sorted by
// word) to w, quantizing each vector to int8 with its own scale. It
// returns the file's SHA-256 in hex.
func Encode(w io.Writer, dims int, total uint64, entries []Entry) (string, error) {
	if dims <= 0 || dims > maxDims {
		return "", fmt.Errorf("wordvec: encode: %d dims", dims)
	}
	es := slices.Clone(entries)
	slices.SortFunc(es, func(a, b Entry) int { return bytesCompare(a.Word, b.Word) })
	var buf bytes.Buffer
	buf.WriteString(magic)
	le := binary.LittleEndian
	buf.Write(le.AppendUint32(nil, Version))
	buf.Write(le.AppendUint32(nil, uint32(dims)))
	buf.Write(le.AppendUint32(nil, uint32(len(es))))
	buf.Write(le.AppendUint64(nil, total))
	for i, e := range es {
		if e.Word == "" || len(e.Word) > 255 {
			return "", fmt.Errorf("wordvec: encode: word %q is empty or longer than 255 bytes", e.Word)
		}
		if i > 0 && es[i-1].Word == e.Word {
			return "", fmt.Errorf("wordvec: encode: %q twice", e.Word)
		}
		if len(e.Vec) != dims {
			return "", fmt.Errorf("wordvec: encode: %q has %d dims, want %d", e.Word, len(e.Vec), dims)
		}
		buf.WriteByte(byte(len(e.Word)))
		buf.WriteString(e.Word)
		buf.Write(le.AppendUint32(nil, e.Count))
		var maxAbs float64
		for _, x := range e.Vec {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return "", fmt.Errorf("wordvec: encode: %q has a non-finite component", e.Word)
			}
			maxAbs = math.Max(maxAbs, math.Abs(float64(x)))
		}
		scale := float32(maxAbs / 127)
		buf.Write(le.AppendUint32(nil, math.Float32bits(scale)))
		for _, x := range e.Vec {
			q := int8(0)
			if scale > 0 {
				q = int8(math.Round(float64(x / scale)))
			}
			buf.WriteByte(byte(q))
		}
	}
	sum := sha256.Sum256(buf.Bytes())
	if _, err := w.Write(buf.Bytes()); err != nil {
		return "", fmt.Errorf("wordvec: encode: %w", err)
	}
	return hex.EncodeToString(sum[:]), nil
}

func bytesCompare(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// ErrChecksum is returned by Load when a file's SHA-256 is not the one the
// code expects: the file was changed without updating the constant (run
// `selah train` and commit both) or damaged.
var ErrChecksum = errors.New("wordvec: vectors file checksum mismatch")

// Load parses a vectors file whose SHA-256 must be wantSHA256 (hex); an
// empty wantSHA256 skips the check (for files `selah train` just wrote).
func Load(b []byte, wantSHA256 string) (*Vectors, error) {
	if wantSHA256 != "" {
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != wantSHA256 {
			return nil, fmt.Errorf("%w: sha256 %s, want %s", ErrChecksum, got, wantSHA256)
		}
	}
	le := binary.LittleEndian
	if len(b) < 28 || string(b[:8]) != magic {
		return nil, errors.New("wordvec: not a vectors file")
	}
	if ver := le.Uint32(b[8:]); ver != Version {
		return nil, fmt.Errorf("wordvec: vectors file version %d, this build reads %d", ver, Version)
	}
	dims, n := le.Uint32(b[12:]), le.Uint32(b[16:])
	if dims == 0 || dims > maxDims || n > maxVocab {
		return nil, fmt.Errorf("wordvec: vectors file claims %d dims and %d words", dims, n)
	}
	v := &Vectors{dims: int(dims), total: le.Uint64(b[20:]),
		words: make([]string, 0, n), index: make(map[string]int32, n),
		counts: make([]uint32, 0, n), scales: make([]float32, 0, n), data: make([]int8, 0, int(n)*int(dims))}
	p := b[28:]
	for i := range n {
		if len(p) < 1 || len(p) < 1+int(p[0])+8+int(dims) {
			return nil, fmt.Errorf("wordvec: vectors file truncated at word %d of %d", i, n)
		}
		l := int(p[0])
		word := string(p[1 : 1+l])
		p = p[1+l:]
		if word == "" {
			return nil, fmt.Errorf("wordvec: word %d is empty", i)
		}
		if _, dup := v.index[word]; dup {
			return nil, fmt.Errorf("wordvec: %q twice", word)
		}
		v.index[word] = int32(len(v.words))
		v.words = append(v.words, word)
		v.counts = append(v.counts, le.Uint32(p))
		scale := math.Float32frombits(le.Uint32(p[4:]))
		if math.IsNaN(float64(scale)) || math.IsInf(float64(scale), 0) || scale < 0 {
			return nil, fmt.Errorf("wordvec: %q has scale %v", word, scale)
		}
		v.scales = append(v.scales, scale)
		for _, x := range p[8 : 8+dims] {
			v.data = append(v.data, int8(x))
		}
		p = p[8+dims:]
	}
	if len(p) != 0 {
		return nil, fmt.Errorf("wordvec: %d bytes after the last word", len(p))
	}
	return v, nil
}
