package wordvec

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestTokens(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][]string{
		"For God so loved the world,": {"for", "god", "so", "loved", "the", "world"},
		"My brother's keeper; don't!": {"my", "brother", "keeper", "not"},
		"be tender-hearted":           {"be", "tender", "hearted", "tenderhearted"},
		"Psalm 23:1 — THE LORD’s":     {"psalm", "the", "lord"},
		"  ":                          nil,
		"Ζωή and naïve":               {"ζωή", "and", "naïve"},
		"'quoted' words":              {"quoted", "words"},
	} {
		if got := Tokens(in); !slices.Equal(got, want) {
			t.Errorf("Tokens(%q) = %q, want %q", in, got, want)
		}
	}
}

func encode(t *testing.T, entries []Entry) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	sum, err := Encode(&buf, 3, 1000, entries)
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), sum
}

// TestEncodeLoad: a file round-trips within int8 precision, sorted by
// word, with its counts, and its checksum is what Encode reported.
func TestEncodeLoad(t *testing.T) {
	t.Parallel()
	b, sum := encode(t, []Entry{
		{Word: "love", Count: 300, Vec: []float32{0.5, -1, 0.25}},
		{Word: "charity", Count: 29, Vec: []float32{0.4, -0.9, 0.3}},
		{Word: "zero", Count: 1, Vec: []float32{0, 0, 0}},
	})
	h := sha256.Sum256(b)
	if hex.EncodeToString(h[:]) != sum {
		t.Fatalf("Encode reported %s, file hashes to %x", sum, h)
	}
	v, err := Load(b, sum)
	if err != nil {
		t.Fatal(err)
	}
	if v.Dims() != 3 || v.Len() != 3 || v.Total() != 1000 || !slices.Equal(v.Words(), []string{"charity", "love", "zero"}) {
		t.Fatalf("loaded %d dims, %d words %q, total %d", v.Dims(), v.Len(), v.Words(), v.Total())
	}
	i := v.Lookup("love")
	if i < 0 || v.Count(i) != 300 || math.Abs(v.Prob(i)-0.3) > 1e-12 {
		t.Fatalf("love: index %d count %d p %v", i, v.Count(i), v.Prob(i))
	}
	for j, want := range []float32{0.5, -1, 0.25} {
		if got := v.Vector(i)[j]; math.Abs(float64(got-want)) > 1.0/127 {
			t.Errorf("love[%d] = %v, want %v", j, got, want)
		}
	}
	if z := v.Vector(v.Lookup("zero")); !slices.Equal(z, []float32{0, 0, 0}) {
		t.Errorf("zero vector = %v", z)
	}
	if v.Lookup("hate") != -1 {
		t.Error("unknown word found")
	}
	// Order of input does not change the file.
	b2, sum2 := encode(t, []Entry{
		{Word: "zero", Count: 1, Vec: []float32{0, 0, 0}},
		{Word: "love", Count: 300, Vec: []float32{0.5, -1, 0.25}},
		{Word: "charity", Count: 29, Vec: []float32{0.4, -0.9, 0.3}},
	})
	if sum2 != sum || !bytes.Equal(b, b2) {
		t.Error("the same entries in another order give another file")
	}
}

// TestLoadRefuses: a changed, truncated, padded or foreign file is an
// error, never a panic.
func TestLoadRefuses(t *testing.T) {
	t.Parallel()
	b, sum := encode(t, []Entry{{Word: "love", Count: 3, Vec: []float32{1, 2, 3}}})
	changed := slices.Clone(b)
	changed[len(changed)-1]++
	if _, err := Load(changed, sum); !errors.Is(err, ErrChecksum) {
		t.Errorf("changed file: %v", err)
	}
	for name, bad := range map[string][]byte{
		"truncated": b[:len(b)-1], "padded": append(slices.Clone(b), 0), "empty": nil,
		"foreign": []byte(strings.Repeat("x", 64)), "header only": b[:28],
	} {
		if _, err := Load(bad, ""); err == nil && name != "header only" {
			t.Errorf("%s file loaded", name)
		} else if name == "header only" && err == nil {
			t.Errorf("header claiming 1 word without it loaded")
		}
	}
	newer := slices.Clone(b)
	newer[8] = 2
	if _, err := Load(newer, ""); err == nil || !strings.Contains(err.Error(), "version 2") {
		t.Errorf("version 2 file: %v", err)
	}
	var buf bytes.Buffer
	for _, es := range [][]Entry{
		{{Word: "", Vec: []float32{1, 2, 3}}},
		{{Word: "a", Vec: []float32{1, 2}}},
		{{Word: "a", Vec: []float32{1, 2, 3}}, {Word: "a", Vec: []float32{1, 2, 3}}},
		{{Word: "a", Vec: []float32{float32(math.NaN()), 2, 3}}},
	} {
		if _, err := Encode(&buf, 3, 1, es); err == nil {
			t.Errorf("Encode(%+v) succeeded", es)
		}
	}
}
