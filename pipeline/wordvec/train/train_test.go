package train

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
)

// src are the Debian data deploy/setup.sh installs.
var src = Sources{SwordDir: "/usr/share/sword", WordNetDir: "/usr/share/wordnet"}

// TestAssembleDeterministic assembles the corpus twice from the real
// modules: the same bytes both times, every source present in full, and
// the KJV-WEB alignment of John 3:16 among the aligned lines.
func TestAssembleDeterministic(t *testing.T) {
	t.Parallel()
	var bufs [2]bytes.Buffer
	var reps [2]CorpusReport
	var errs [2]error
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() { reps[i], errs[i] = Assemble(context.Background(), src, &bufs[i]) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("Assemble (run deploy/setup.sh): %v", err)
		}
	}
	if !bytes.Equal(bufs[0].Bytes(), bufs[1].Bytes()) || reps[0].SHA256 != reps[1].SHA256 {
		t.Fatalf("two runs differ: %s vs %s", reps[0].SHA256, reps[1].SHA256)
	}
	rep := reps[0]
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
	text := bufs[0].String()
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
