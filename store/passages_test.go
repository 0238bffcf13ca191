package store_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
)

// lockVerses holds an exclusive lock on the verses table until the test
// ends: any query of verse text from then on waits for it.
func lockVerses(t *testing.T, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	tx, err := st.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tx.Rollback(ctx) })
	if _, err := tx.Exec(ctx, `LOCK TABLE verses, corpus_modules IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
}

// TestPassagesFromMemory: once loaded, the text and its edition are read
// without a query (the verses table is locked, and a query would wait
// until the test's deadline), and they are what the database holds, for
// ranges, capped ranges, ids in any order and ids that do not exist.
func TestPassagesFromMemory(t *testing.T) {
	t.Parallel()
	st := storetest.NewCorpusStore(t)
	ctx := context.Background()
	id := corpus.NewVerseID
	ranges := [][2]corpus.VerseID{
		{id(43, 3, 16), id(43, 3, 16)}, {id(19, 119, 1), id(19, 119, 176)}, {id(1, 1, 31), id(1, 2, 3)},
		{id(19, 3, 1), id(19, 3, 8)}, {id(66, 22, 20), id(66, 22, 99)}, {id(43, 22, 1), id(43, 22, 5)},
	}
	ids := []corpus.VerseID{id(66, 22, 21), id(1, 1, 1), id(43, 3, 17), id(43, 3, 99), id(19, 23, 1)}

	type answers struct {
		ranges, capped [][]corpus.Verse
		byID           []corpus.Verse
		edition        store.Edition
	}
	read := func(ctx context.Context) answers {
		t.Helper()
		var a answers
		for _, r := range ranges {
			vs, err := st.VerseRange(ctx, r[0], r[1])
			if err != nil {
				t.Fatal(err)
			}
			capped, err := st.VerseRangeN(ctx, r[0], r[1], 3)
			if err != nil {
				t.Fatal(err)
			}
			a.ranges, a.capped = append(a.ranges, vs), append(a.capped, capped)
		}
		var err error
		if a.byID, err = st.VersesByID(ctx, ids); err != nil {
			t.Fatal(err)
		}
		if a.edition, err = st.TextEdition(ctx); err != nil {
			t.Fatal(err)
		}
		return a
	}
	fromDB := read(ctx)
	if len(fromDB.ranges[1]) != 176 || fromDB.ranges[3][0].Title == "" || len(fromDB.byID) != 4 || fromDB.edition.Checksum == "" {
		t.Fatalf("the database's answers are not the corpus: %d verses of Psalm 119, title of Psalm 3 %q, %d by id, edition %+v",
			len(fromDB.ranges[1]), fromDB.ranges[3][0].Title, len(fromDB.byID), fromDB.edition)
	}

	loaded, err := st.LoadPassages(ctx)
	if err != nil || !loaded {
		t.Fatalf("LoadPassages: %v %v", loaded, err)
	}
	if again, err := st.LoadPassages(ctx); err != nil || again {
		t.Fatalf("LoadPassages with the checksum unchanged: loaded again %v, %v", again, err)
	}
	lockVerses(t, st)
	qctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	fromMemory := read(qctx)
	if qctx.Err() != nil {
		t.Fatal("reading text waited on the locked verses table")
	}
	for i := range ranges {
		// The database answers an empty range with an empty slice, memory
		// with nil: both are "no verses".
		if len(fromDB.ranges[i])+len(fromMemory.ranges[i]) > 0 && !reflect.DeepEqual(fromDB.ranges[i], fromMemory.ranges[i]) {
			t.Errorf("VerseRange %v: memory and database differ", ranges[i])
		}
		if len(fromDB.capped[i])+len(fromMemory.capped[i]) > 0 && !reflect.DeepEqual(fromDB.capped[i], fromMemory.capped[i]) {
			t.Errorf("VerseRangeN %v: memory and database differ", ranges[i])
		}
	}
	if !reflect.DeepEqual(fromDB.byID, fromMemory.byID) || fromDB.edition != fromMemory.edition {
		t.Errorf("VersesByID or TextEdition: memory and database differ")
	}
}

// TestPassagesFollowReingest: a re-ingest (new text, new checksum) is
// picked up by WatchPassages; until then the process serves the edition
// it has, with that edition's checksum.
func TestPassagesFollowReingest(t *testing.T) {
	t.Parallel()
	st := storetest.NewCorpusStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	john316 := corpus.NewVerseID(43, 3, 16)
	if _, err := st.LoadPassages(ctx); err != nil {
		t.Fatal(err)
	}
	old, _ := st.VersesByID(ctx, []corpus.VerseID{john316})
	oldEd, _ := st.TextEdition(ctx)

	// What ReplaceCorpus would commit, in one transaction.
	tx, err := st.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx.Exec(ctx, `UPDATE verses SET text = 'For God so loved the world (new edition).' WHERE id = $1`, int32(john316))
	tx.Exec(ctx, `UPDATE corpus_modules SET checksum = 'new-edition', version = '99' WHERE role = 'text'`)
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	vs, _ := st.VersesByID(ctx, []corpus.VerseID{john316})
	if ed, _ := st.TextEdition(ctx); vs[0].Text != old[0].Text || ed != oldEd {
		t.Fatalf("before the check: %q under %+v, want the edition in memory", vs[0].Text, ed)
	}

	watch, stop := context.WithCancel(ctx)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		st.WatchPassages(watch, func(err error) { t.Error(err) })
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ed, err := st.TextEdition(ctx)
		if err != nil {
			t.Fatal(err)
		}
		vs, err := st.VersesByID(ctx, []corpus.VerseID{john316})
		if err != nil {
			t.Fatal(err)
		}
		if ed.Checksum == "new-edition" {
			if vs[0].Text == old[0].Text {
				// The edition is read before the text: once it is new,
				// the text must be.
				t.Fatal("the old text served after the new checksum")
			}
			stop()
			<-stopped
			// The watch has reloaded, or is about to; either way the
			// copy in memory is now the new edition, and no query reads it.
			if _, err := st.LoadPassages(ctx); err != nil {
				t.Fatal(err)
			}
			lockVerses(t, st)
			qctx, cancel := context.WithTimeout(ctx, 20*time.Second)
			defer cancel()
			if vs, err := st.VersesByID(qctx, []corpus.VerseID{john316}); err != nil || vs[0].Text != "For God so loved the world (new edition)." {
				t.Fatalf("after the reload: %v %v", vs, err)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the re-ingest was not picked up: %+v %q", ed, vs[0].Text)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
