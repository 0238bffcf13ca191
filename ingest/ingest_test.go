package ingest_test

import (
	"context"
	"slices"
	"testing"

	"github.com/selahdev/selah/ingest"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
)

// TestCorpusNaves ingests the real modules into an empty database: the
// report counts Nave's topics, entries, verse runs and see-links as stored,
// shows the references that gave no verses, and a second run with the
// same modules is skipped.
func TestCorpusNaves(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	rep, err := ingest.Corpus(ctx, st, ingest.Options{SwordDir: storetest.SwordDir})
	if err != nil {
		t.Fatal(err)
	}
	n := rep.Naves
	want := store.NaveCounts{Topics: 5320, Entries: 29379, VerseRuns: 78034, SeeLinks: 4368, SeeResolved: 3674}
	if n.NaveCounts != want {
		t.Errorf("reported %+v, want %+v", n.NaveCounts, want)
	}
	if stored, err := st.NaveCounts(ctx); err != nil || stored != want {
		t.Errorf("stored %+v (%v), want %+v", stored, err, want)
	}
	if n.Unreadable != 5 || n.Unlinked != 0 ||
		!slices.Contains(n.UnreadableExamples, "MIRACLES: Mark.18.42") || len(n.UnlinkedExamples) != 0 {
		t.Errorf("unreadable %d %q, unlinked %d %q", n.Unreadable, n.UnreadableExamples, n.Unlinked, n.UnlinkedExamples)
	}
	mods, err := st.Modules(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if m := mods[ingest.NaveModule]; m.Role != "topics" || m.Entries != want.Topics {
		t.Errorf("module record %+v", m)
	}
	again, err := ingest.Corpus(ctx, st, ingest.Options{SwordDir: storetest.SwordDir})
	if err != nil {
		t.Fatal(err)
	}
	if !again.Skipped || again.Naves.Topics != want.Topics {
		t.Errorf("second run %+v, want skipped with %d topics", again, want.Topics)
	}
}
