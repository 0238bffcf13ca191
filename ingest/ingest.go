// Package ingest loads the SWORD modules into the store: the KJV text, the
// WEB wording mapped onto KJV verses as a retrieval aid, Nave's Topical
// Bible whole (topics, sub-entries, verses, see-links), and what derives
// from them (the retrieval index). A re-run with unchanged modules is a
// no-op; a changed module replaces the corpus in one transaction.
package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/schollz/progressbar/v3"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/sword"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store"
)

// Module names in Debian's sword-text-kjv, sword-text-web and
// sword-dict-naves packages.
const (
	KJVModule  = "engKJV2006eb"
	WEBModule  = "engWEB2015eb"
	NaveModule = "Nave"
)

// Options configure a run.
type Options struct {
	SwordDir string    // SWORD library, e.g. /usr/share/sword
	Force    bool      // re-ingest even when checksums are unchanged
	Progress io.Writer // where to draw a progress bar; nil for none
	// Embedder is the embedder whose index Run builds after the verses
	// (the zero value is the local one).
	Embedder pipeline.EmbedderConfig
}

// Report says what a run did.
type Report struct {
	Index     pipeline.IndexReport
	Skipped   bool
	Verses    int
	WebVerses int // KJV verses that received WEB wording
	Books     int
	Chapters  int
	Duration  time.Duration
	Modules   []store.Module
	Naves     NaveReport
	// Strongs counts Strong's dictionary and the KJV words it tags, which
	// /ask answers word-meaning questions from.
	Strongs store.StrongsCounts
}

// NaveReport says what was read from Nave's Topical Bible and what could
// not be: references that name no KJV verse, and references Nave left as
// plain text, are counted and a few shown rather than dropped silently.
type NaveReport struct {
	store.NaveCounts
	Unreadable         int
	UnreadableExamples []string // "CORINTH: Col.8.16"
	Unlinked           int
	UnlinkedExamples   []string // "RUTH: with 1:6-18"
	// Read is the time spent reading the module into topics, Write the
	// time spent copying them into the tables.
	Read, Write time.Duration
}

// naveExamples is how many examples of each kind of problem a report shows.
const naveExamples = 5

// Corpus loads the KJV (and WEB) into st unless the stored checksums
// already match.
func Corpus(ctx context.Context, st *store.Store, opts Options) (Report, error) {
	start := time.Now()
	var rep Report
	kjv, err := sword.Open(opts.SwordDir, KJVModule)
	if err != nil {
		return rep, fmt.Errorf("ingest: open %s (is sword-text-kjv installed?): %w", KJVModule, err)
	}
	web, err := sword.Open(opts.SwordDir, WEBModule)
	if err != nil {
		return rep, fmt.Errorf("ingest: open %s (is sword-text-web installed?): %w", WEBModule, err)
	}
	kjvSum, err := kjv.Checksum()
	if err != nil {
		return rep, fmt.Errorf("ingest: %w", err)
	}
	strongs, err := sword.OpenStrongs(opts.SwordDir)
	if err != nil {
		return rep, fmt.Errorf("ingest: Strong's dictionaries (are sword-dict-strongs-greek and -hebrew installed?): %w", err)
	}
	webSum, err := web.Checksum()
	if err != nil {
		return rep, fmt.Errorf("ingest: %w", err)
	}
	nave, err := sword.OpenLexicon(opts.SwordDir, NaveModule)
	if err != nil {
		return rep, fmt.Errorf("ingest: open %s (is sword-dict-naves installed?): %w", NaveModule, err)
	}
	naveSum, err := nave.Checksum()
	if err != nil {
		return rep, fmt.Errorf("ingest: %w", err)
	}
	// The checksum also covers how we turn markup into rows, so a change
	// to that code re-ingests.
	kjvSum = sum(kjvSum, FormatVersion)
	webSum = sum(webSum, FormatVersion)
	naveSum = sum(naveSum, NaveFormatVersion)
	have, err := st.Modules(ctx)
	if err != nil {
		return rep, err
	}
	if !opts.Force && have[KJVModule].Checksum == kjvSum && have[WEBModule].Checksum == webSum &&
		have[NaveModule].Checksum == naveSum {
		rep.Skipped = true
		rep.Verses = have[KJVModule].Entries
		rep.Naves.Topics = have[NaveModule].Entries
		rep.Duration = time.Since(start)
		return rep, nil
	}

	var bar *progressbar.ProgressBar
	if opts.Progress != nil {
		bar = progressbar.NewOptions(corpus.VerseCount*2,
			progressbar.OptionSetWriter(opts.Progress),
			progressbar.OptionSetDescription("ingest"),
			progressbar.OptionShowCount(),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(50*time.Millisecond))
	}
	tick := func() {
		if bar != nil {
			bar.Add(1)
		}
	}

	rows := make([]store.VerseRow, 0, corpus.VerseCount)
	var tagged []corpus.TaggedWord
	index := make(map[corpus.VerseID]int, corpus.VerseCount)
	chapters := map[int]bool{}
	err = kjv.Each(func(book string, ch, v int, raw string) error {
		tick()
		b, ok := corpus.BookByOSIS(book)
		if !ok {
			return fmt.Errorf("ingest: %s has unknown book %q", KJVModule, book)
		}
		t := sword.PlainText(raw)
		if t.Text == "" {
			return fmt.Errorf("ingest: %s %s %d:%d is empty", KJVModule, book, ch, v)
		}
		t.Text = withoutUSFM(t.Text)
		id := corpus.NewVerseID(b.Number, ch, v)
		index[id] = len(rows)
		chapters[b.Number*1000+ch] = true
		words := sword.Words(raw)
		rows = append(rows, store.VerseRow{ID: id, Text: t.Text, Title: t.Title, Paragraph: t.Paragraph,
			Glosses: glosses(strongs, words), WordsOfChrist: strings.Contains(raw, `who="Jesus"`)})
		tagged = appendTagged(tagged, id, words)
		return nil
	})
	if err != nil {
		return rep, err
	}
	books := map[int]bool{}
	for id := range index {
		books[id.Book()] = true
	}
	// Refuse anything but the complete KJV versification: a partial or
	// re-versified module would silently break references.
	if len(rows) != corpus.VerseCount || len(books) != corpus.BookCount || len(chapters) != corpus.ChapterCount {
		return rep, fmt.Errorf("ingest: %s has %d books, %d chapters, %d verses; want %d, %d, %d",
			KJVModule, len(books), len(chapters), len(rows), corpus.BookCount, corpus.ChapterCount, corpus.VerseCount)
	}

	webVerses := map[corpus.VerseID]bool{}
	err = web.Each(func(book string, ch, v int, raw string) error {
		tick()
		id, ok := sword.KJVVerseID(book, ch, v)
		if !ok {
			return nil // deuterocanon, or a verse the KJV does not have
		}
		i, ok := index[id]
		if !ok {
			return nil
		}
		t := sword.PlainText(raw)
		if t.Text == "" {
			return nil
		}
		if rows[i].WebText != "" {
			rows[i].WebText += " " + t.Text
		} else {
			rows[i].WebText = t.Text
		}
		webVerses[id] = true
		return nil
	})
	if err != nil {
		return rep, err
	}
	if bar != nil {
		bar.Finish()
	}

	t0 := time.Now()
	topics, issues, err := nave.NaveTopics()
	rep.Naves.Read = time.Since(t0)
	if err != nil {
		return rep, fmt.Errorf("ingest: %w", err)
	}
	rep.Naves.Unreadable, rep.Naves.UnreadableExamples = len(issues.Unreadable), issues.Unreadable[:min(naveExamples, len(issues.Unreadable))]
	rep.Naves.Unlinked, rep.Naves.UnlinkedExamples = len(issues.Unlinked), issues.Unlinked[:min(naveExamples, len(issues.Unlinked))]
	if rep.Naves.Unreadable+rep.Naves.Unlinked > 0 {
		slog.WarnContext(ctx, "ingest: Nave's references that give no verses",
			"unreadable", rep.Naves.Unreadable, "unreadableExamples", rep.Naves.UnreadableExamples,
			"unlinked", rep.Naves.Unlinked, "unlinkedExamples", rep.Naves.UnlinkedExamples)
	}

	rep.Modules = []store.Module{
		{Name: KJVModule, Role: "text", Version: kjv.Version, Checksum: kjvSum, Entries: len(rows)},
		{Name: WEBModule, Role: "parallel", Version: web.Version, Checksum: webSum, Entries: len(webVerses)},
		{Name: NaveModule, Role: "topics", Version: nave.Version, Checksum: naveSum, Entries: len(topics)},
	}
	err = st.ReplaceCorpus(ctx, rows, rep.Modules, func(ctx context.Context, tx pgx.Tx) error {
		t0 := time.Now()
		rep.Naves.NaveCounts, err = store.CopyNaves(ctx, tx, topics)
		rep.Naves.Write = time.Since(t0)
		if err != nil {
			return err
		}
		var lemmas []corpus.Lemma
		strongs.Each(func(l corpus.Lemma) error {
			lemmas = append(lemmas, l)
			return nil
		})
		rep.Strongs, err = store.CopyStrongs(ctx, tx, lemmas, tagged)
		return err
	})
	if err != nil {
		return rep, err
	}
	rep.Verses, rep.WebVerses, rep.Books, rep.Chapters = len(rows), len(webVerses), len(books), len(chapters)
	rep.Duration = time.Since(start)
	return rep, nil
}

// FormatVersion names the current way markup becomes rows; bump it when
// PlainText, the mapping, the glosses or the Strong's tables change so
// existing databases re-ingest.
const FormatVersion = "rows-v9"

// withoutUSFM drops the USFM marker "\nd " that the KJV module writes
// as text in 27 verses ("by my name \nd JEHOVAH"), where it opens the
// divine name instead of <divineName>. It belongs in sword.PlainText;
// it is here because the word vectors' training corpus reads the KJV
// through PlainText too, and the committed vectors were trained on the
// text with the marker: it moves there when they are next retrained
// (DEVELOPERS.md, thirty-fourth round).
func withoutUSFM(text string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(text, `\nd `, "")), " ")
}

// appendTagged appends the tagged words of verse id to out, a row per
// word and number (a number a word's tag repeats, once).
func appendTagged(out []corpus.TaggedWord, id corpus.VerseID, words []sword.Word) []corpus.TaggedWord {
	for ord, w := range words {
		text := strings.Join(strings.Fields(w.Text), " ")
		if text == "" {
			continue
		}
		for i, n := range w.Strongs {
			if !slices.Contains(w.Strongs[:i], n) {
				out = append(out, corpus.TaggedWord{Verse: id, Ord: ord, Number: n, Text: text})
			}
		}
	}
	return out
}

// glosses joins the Strong's glosses of the words the KJV tags in a verse,
// each number once, in the verse's order. Numbers the dictionaries lack
// are left out (a handful of the KJV module's tags).
func glosses(s *sword.Strongs, words []sword.Word) string {
	var out []string
	seen := map[string]bool{}
	for _, w := range words {
		for _, n := range w.Strongs {
			if seen[n] {
				continue
			}
			seen[n] = true
			if e, err := s.Lookup(n); err == nil && e.Gloss != "" {
				out = append(out, e.Gloss)
			}
		}
	}
	return strings.Join(out, "; ")
}

// NaveFormatVersion names the current reading of Nave's markup into
// topics, entries and links (sword.ParseNave); bump it when that changes.
const NaveFormatVersion = "nave-v6"

func sum(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:])
}

// Version identifies everything ingest derives from the modules, for test
// templates: the row formats, and that no local index is stored (the
// lexical index is built in memory by each process).
func Version() string {
	return FormatVersion + "+" + NaveFormatVersion + "+lexical-in-memory"
}

// Run is the whole ingest: the corpus, then the embedder's index over it.
// Each step is skipped when what it would write is already there.
func Run(ctx context.Context, st *store.Store, opts Options) (Report, error) {
	rep, err := Corpus(ctx, st, opts)
	if err != nil {
		return rep, err
	}
	start := time.Now()
	rep.Index, err = pipeline.BuildIndex(ctx, st, opts.Embedder, opts.Force)
	if err != nil {
		return rep, fmt.Errorf("ingest: %w", err)
	}
	rep.Duration += time.Since(start)
	return rep, nil
}
