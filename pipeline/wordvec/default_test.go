package wordvec

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"testing"
)

// TestDefault loads the committed vectors file: its checksum is the one
// the code names, and its header and vocabulary are what `selah train`
// wrote.
func TestDefault(t *testing.T) {
	t.Parallel()
	sum := sha256.Sum256(vectorsFile)
	if got := hex.EncodeToString(sum[:]); got != DefaultSHA256 {
		t.Fatalf("vectors.bin hashes to %s, DefaultSHA256 is %s: commit the file and the constant together", got, DefaultSHA256)
	}
	v, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if v.Dims() != 200 || v.Len() < 20000 || v.Total() < 3_000_000 {
		t.Fatalf("%d dims, %d words, %d corpus tokens", v.Dims(), v.Len(), v.Total())
	}
	for _, w := range []string{"believeth", "believes", "charity", "grief", "anxious", "shepherd"} {
		if i := v.Lookup(w); i < 0 || v.Count(i) < 5 {
			t.Errorf("%q missing or rarer than the training's min count", w)
		}
	}
	if again, _ := Default(); again != v {
		t.Error("Default parsed the file twice")
	}
}

func cosine(v *Vectors, a, b string) float64 {
	x, y := v.Vector(v.Lookup(a)), v.Vector(v.Lookup(b))
	var d, nx, ny float64
	for i := range x {
		d += float64(x[i]) * float64(y[i])
		nx += float64(x[i]) * float64(x[i])
		ny += float64(y[i]) * float64(y[i])
	}
	return d / math.Sqrt(nx*ny)
}

// TestDefaultBridges: the vectors join the KJV's archaic words to the
// modern ones (learned from the aligned lines) and modern words to their
// synonyms (learned from WordNet's glosses), closer than to an unrelated
// word.
func TestDefaultBridges(t *testing.T) {
	t.Parallel()
	v, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][3]string{
		{"believeth", "believes", "camel"},
		{"everlasting", "eternal", "shoe"},
		{"grief", "sorrow", "chariot"},
		{"worry", "anxious", "cubit"},
	} {
		near, far := cosine(v, c[0], c[1]), cosine(v, c[0], c[2])
		if near <= far+0.1 {
			t.Errorf("cos(%s, %s) = %.3f, not well above cos(%s, %s) = %.3f", c[0], c[1], near, c[0], c[2], far)
		}
	}
}
