// Package train reproduces selah's word vectors from the Debian data: it
// assembles a training corpus from named sources, runs the fastText
// skipgram trainer (Debian's fasttext package) over it, and writes the
// int8 vectors file package wordvec loads. `selah train` drives it.
package train

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"io"
	"math/rand/v2"
	"regexp"
	"strings"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/sword"
	"github.com/selahdev/selah/corpus/wordnet"
	"github.com/selahdev/selah/pipeline/wordvec"
)

// Sources says where the corpus comes from.
type Sources struct {
	SwordDir   string // SWORD library with the KJV, WEB, Nave and Strong's modules
	WordNetDir string // WordNet 3.0 database (Debian's wordnet-base)
}

// Module names in the SWORD library.
const (
	kjvModule  = "engKJV2006eb"
	webModule  = "engWEB2015eb"
	naveModule = "Nave"
)

// glossWords is how many words of a Strong's gloss an aligned line carries
// per lemma: the head of a gloss is its meaning ("to love", "a destroying
// angel"); the rest is qualification that would swamp the verse's words.
const glossWords = 4

// shuffleSeed fixes the order of the corpus lines. fastText reads lines in
// order with a decaying learning rate; mixing the sources keeps the last
// one read from dominating, and a fixed seed keeps the corpus identical
// from run to run.
const shuffleSeed = 20261123

// CorpusSHA256 is the SHA-256 of the corpus Assemble writes from the
// Debian bookworm packages deploy/setup.sh installs: the corpus the
// committed vectors file was trained on. A module update changes it, and
// then the committed vectors are no longer what `selah train` gives.
const CorpusSHA256 = "5dadf4dac8f934ee49fe7019a9d3e9801a28156b501b6e129f9b1d4f781f11c8"

// CorpusReport says what Assemble wrote.
type CorpusReport struct {
	Lines  map[string]int // lines per source
	Tokens uint64
	SHA256 string // of the corpus text, to tell two runs apart
	// Counts is each token's count in the corpus: p(w) for SIF weights.
	Counts map[string]uint32
}

// Assemble writes the training corpus to w: one line per text unit,
// lower-cased tokens (wordvec.Tokens) separated by spaces, lines shuffled
// with a fixed seed. The sources, each named where it is read:
//
//   - kjv: every KJV verse (with psalm titles);
//   - web: every WEB verse;
//   - aligned: per KJV verse, for each Strong's lemma tagged in it, the
//     KJV's word, the WEB's word for the same lemma and the head of the
//     lemma's Strong's gloss, interleaved ("believeth believes to have
//     faith ..."): the bridge between archaic and modern words, learned
//     from the modules' own tags;
//   - strongs: each Strong's entry's gloss and KJV renderings;
//   - nave: each Nave's topic's title and text (references dropped);
//   - wordnet: each WordNet synset's words and gloss.
//
// The output is the same bytes for the same modules.
func Assemble(ctx context.Context, src Sources, w io.Writer) (CorpusReport, error) {
	rep := CorpusReport{Lines: map[string]int{}, Counts: map[string]uint32{}}
	var lines []string
	add := func(source, text string) {
		toks := wordvec.Tokens(text)
		if len(toks) == 0 {
			return
		}
		lines = append(lines, strings.Join(toks, " "))
		rep.Lines[source]++
	}

	strongs, err := sword.OpenStrongs(src.SwordDir)
	if err != nil {
		return rep, fmt.Errorf("train: %w", err)
	}

	// The WEB first, by KJV verse id, so the KJV pass can align.
	webWords := map[corpus.VerseID][]sword.Word{}
	web, err := sword.Open(src.SwordDir, webModule)
	if err != nil {
		return rep, fmt.Errorf("train: %w", err)
	}
	err = web.Each(func(book string, ch, v int, raw string) error {
		if _, ok := sword.KJVVerseID(book, ch, v); !ok {
			return nil // the deuterocanon is not selah's corpus
		}
		id, _ := sword.KJVVerseID(book, ch, v)
		p := sword.PlainText(raw)
		add("web", p.Title+" "+p.Text)
		webWords[id] = append(webWords[id], sword.Words(raw)...)
		return nil
	})
	if err != nil {
		return rep, fmt.Errorf("train: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return rep, err
	}

	kjv, err := sword.Open(src.SwordDir, kjvModule)
	if err != nil {
		return rep, fmt.Errorf("train: %w", err)
	}
	err = kjv.Each(func(book string, ch, v int, raw string) error {
		b, ok := corpus.BookByOSIS(book)
		if !ok {
			return fmt.Errorf("train: KJV book %q unknown", book)
		}
		p := sword.PlainText(raw)
		add("kjv", p.Title+" "+p.Text)
		var al strings.Builder
		for _, a := range sword.Align(sword.Words(raw), webWords[corpus.NewVerseID(b.Number, ch, v)]) {
			al.WriteString(a.KJV)
			al.WriteByte(' ')
			al.WriteString(a.WEB)
			if e, err := strongs.Lookup(a.Strongs); err == nil {
				toks := wordvec.Tokens(e.Gloss)
				if len(toks) > glossWords {
					toks = toks[:glossWords]
				}
				al.WriteByte(' ')
				al.WriteString(strings.Join(toks, " "))
			}
			al.WriteString(" . ")
		}
		add("aligned", al.String())
		return nil
	})
	if err != nil {
		return rep, fmt.Errorf("train: %w", err)
	}

	strongs.Each(func(e sword.StrongsEntry) error {
		add("strongs", e.Gloss+" . "+strings.Join(e.Renderings, " , "))
		return nil
	})

	nave, err := sword.OpenLexicon(src.SwordDir, naveModule)
	if err != nil {
		return rep, fmt.Errorf("train: %w", err)
	}
	seen := map[string]bool{}
	err = nave.Each(func(key, raw string) error {
		if seen[key] {
			return nil // a key the index holds twice: Each visits it twice
		}
		seen[key] = true
		add("nave", key+" . "+naveText(raw))
		return nil
	})
	if err != nil {
		return rep, fmt.Errorf("train: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return rep, err
	}

	wn, err := wordnet.Open(src.WordNetDir)
	if err != nil {
		return rep, fmt.Errorf("train: %w", err)
	}
	wn.EachSynset(func(s *wordnet.Synset) error {
		add("wordnet", strings.Join(s.Words, " , ")+" . "+s.Gloss)
		return nil
	})

	r := rand.New(rand.NewPCG(shuffleSeed, shuffleSeed))
	r.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })

	h := sha256.New()
	bw := bufio.NewWriterSize(io.MultiWriter(w, h), 1<<20)
	for _, l := range lines {
		bw.WriteString(l)
		bw.WriteByte('\n')
		for _, t := range strings.Fields(l) {
			rep.Counts[t]++
			rep.Tokens++
		}
	}
	if err := bw.Flush(); err != nil {
		return rep, fmt.Errorf("train: write corpus: %w", err)
	}
	rep.SHA256 = hex.EncodeToString(h.Sum(nil))
	return rep, nil
}

var (
	verseRef = regexp.MustCompile(`(?s)<ref\b[^>]*\bosisRef\b[^>]*>.*?</ref>`)
	tag      = regexp.MustCompile(`<[^>]*>`)
)

// naveText is a Nave's entry's words: its headings, descriptions and "See"
// links, without the verse references (their text is book abbreviations
// and numbers).
func naveText(raw string) string {
	s := verseRef.ReplaceAllString(raw, " ")
	s = tag.ReplaceAllString(s, " ")
	return html.UnescapeString(s)
}
