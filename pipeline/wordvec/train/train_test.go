package train

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// src are the Debian data deploy/setup.sh installs.
var src = Sources{SwordDir: "/usr/share/sword", WordNetDir: "/usr/share/wordnet"}

// TestAssembleDeterministic assembles the corpus from the real modules:
// the same bytes as the corpus the committed vectors were trained on
// (CorpusSHA256, so the same on every run and machine with these
// packages), every source present in full, and the KJV-WEB alignment of
// John 3:16 among the aligned lines.
func TestAssembleDeterministic(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	rep, err := Assemble(context.Background(), src, &buf)
	if err != nil {
		t.Fatalf("Assemble (run deploy/setup.sh): %v", err)
	}
	sum := sha256.Sum256(buf.Bytes())
	if got := hex.EncodeToString(sum[:]); got != rep.SHA256 || got != CorpusSHA256 {
		t.Fatalf("corpus sha256 %s (reported %s), want CorpusSHA256 %s", got, rep.SHA256, CorpusSHA256)
	}
	for source, min := range map[string]int{
		"kjv": 31102, "web": 31000, "aligned": 31000, "strongs": 14000, "nave": 5000, "wordnet": 117659,
	} {
		if n := rep.Lines[source]; n < min {
			t.Errorf("%d %s lines, want at least %d", n, source, min)
		}
	}
	var tokens uint64
	for _, c := range rep.Counts {
		tokens += uint64(c)
	}
	if tokens != rep.Tokens || rep.Tokens < 3_000_000 {
		t.Errorf("counts sum to %d, report says %d tokens", tokens, rep.Tokens)
	}
	text := buf.String()
	if strings.ToLower(text) != text {
		t.Error("the corpus is not lower-cased")
	}
	// John 3:16's aligned line: the KJV's word, the WEB's, Strong's gloss.
	for _, want := range []string{
		" believeth believes to have faith ", " everlasting eternal perpetual ", "loved loved to love in ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no aligned line holds %q", want)
		}
	}
	// A WordNet line: the synset's words and its gloss.
	if !strings.Contains(text, "\ngrief heartache heartbreak brokenheartedness intense sorrow caused by loss") {
		t.Error("no WordNet line for grief")
	}
}

// TestReadVec reads fastText's text format, skipping its end-of-line
// token and refusing a malformed file.
func TestReadVec(t *testing.T) {
	t.Parallel()
	vec := "3 2\n</s> 0.1 0.2\nlove 0.5 -0.25\ncharity 1e-1 2\n"
	es, err := ReadVec(strings.NewReader(vec), 2, map[string]uint32{"love": 7})
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 || es[0].Word != "love" || es[0].Count != 7 || es[0].Vec[1] != -0.25 || es[1].Count != 0 || es[1].Vec[0] != 0.1 {
		t.Errorf("ReadVec = %+v", es)
	}
	for _, bad := range []string{"", "3 5\nlove 1 2\n", "1 2\nlove 1\n", "1 2\nlove x 1\n"} {
		if _, err := ReadVec(strings.NewReader(bad), 2, nil); err == nil {
			t.Errorf("ReadVec(%q) succeeded", bad)
		}
	}
}
