package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
)

func TestConversationLifecycle(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	const alice, bob = "visitor-token-alice", "visitor-token-bob"
	ruth := store.AnswerRef{Reference: "Ruth 4:13", First: corpus.NewVerseID(8, 4, 13), Last: corpus.NewVerseID(8, 4, 13)}

	id, first, err := st.AddChatTurn(ctx, alice, "", store.ChatTurn{Question: "Who was Ruth?", Answer: "A Moabitess.",
		Summary: "Ruth.", Generator: "extractive"})
	if err != nil {
		t.Fatal(err)
	}
	if first.Seq != 1 || first.ID == "" || first.CreatedAt.IsZero() {
		t.Fatalf("first turn %+v", first)
	}
	if _, _, err := st.AddChatTurn(ctx, bob, id, store.ChatTurn{Question: "Mine now?", Generator: "none"}); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("another visitor adding a turn: %v, want selah.ErrNotFound", err)
	}
	id2, second, err := st.AddChatTurn(ctx, alice, id, store.ChatTurn{Question: "Whom did she marry?", Answer: "Boaz.",
		Summary: "Boaz.", Refs: []store.AnswerRef{ruth}, Topics: []store.AnswerTopic{{Slug: "marriage", Title: "Marriage"}}, Generator: "extractive"})
	if err != nil || id2 != id || second.Seq != 2 {
		t.Fatalf("second turn: %q %+v %v", id2, second, err)
	}

	c, err := st.ConversationOf(ctx, alice, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Turns) != 2 || c.Turns[0].Question != "Who was Ruth?" || c.Turns[1].Refs[0] != ruth ||
		c.Turns[1].Topics[0].Slug != "marriage" || c.Turns[0].Refs == nil {
		t.Fatalf("conversation %+v", c)
	}
	if _, err := st.ConversationOf(ctx, bob, id); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("another visitor reading: %v", err)
	}
	if got, err := st.ChatTurnOf(ctx, alice, second.ID); err != nil || got.Answer != "Boaz." {
		t.Fatalf("ChatTurnOf = %+v, %v", got, err)
	}
	if _, err := st.ChatTurnOf(ctx, bob, second.ID); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("another visitor's turn: %v", err)
	}
	list, err := st.ConversationsOf(ctx, alice, 10)
	if err != nil || len(list) != 1 || list[0].Title != "Who was Ruth?" || list[0].Turns != 2 {
		t.Fatalf("ConversationsOf = %+v, %v", list, err)
	}
	if list, err := st.ConversationsOf(ctx, bob, 10); err != nil || len(list) != 0 {
		t.Fatalf("bob's list = %+v, %v", list, err)
	}

	// The visitor token itself is not stored.
	var n int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM chat_conversations WHERE visitor = convert_to($1, 'UTF8')`, alice).Scan(&n); err != nil || n != 0 {
		t.Fatalf("visitor token stored as is: %d %v", n, err)
	}

	if err := st.DeleteConversation(ctx, bob, id); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("another visitor deleting: %v", err)
	}
	if err := st.DeleteConversation(ctx, alice, id); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ConversationOf(ctx, alice, id); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM chat_turns`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("turns left after delete: %d %v", n, err)
	}
}

// Concurrent messages to one conversation get consecutive numbers, and the
// conversation takes no more than MaxChatTurns.
func TestConversationTurnsAreNumberedAndBounded(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	id, _, err := st.AddChatTurn(ctx, "v", "", store.ChatTurn{Question: "q0", Generator: "none"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	full := 0
	for i := range store.MaxChatTurns + 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := st.AddChatTurn(ctx, "v", id, store.ChatTurn{Question: fmt.Sprint("q", i+1), Generator: "none"})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case errors.Is(err, store.ErrConversationFull):
				full++
			case err != nil:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	c, err := st.ConversationOf(ctx, "v", id)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Turns) != store.MaxChatTurns || full != 6 {
		t.Fatalf("%d turns, %d refused", len(c.Turns), full)
	}
	for i, turn := range c.Turns {
		if turn.Seq != i+1 {
			t.Fatalf("turn %d has number %d", i, turn.Seq)
		}
	}
}

func TestReports(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	a, err := st.SaveReport(ctx, store.Report{Kind: store.ReportAnswer, SubjectID: "ans_X", Question: "Q1", Answer: "A1", Reason: "inaccurate", Details: "wrong verse"})
	if err != nil || a.ID == 0 || a.CreatedAt.IsZero() {
		t.Fatalf("SaveReport = %+v, %v", a, err)
	}
	b, err := st.SaveReport(ctx, store.Report{Kind: store.ReportChat, SubjectID: "msg_Y", Question: "Q2", Answer: "A2", Reason: "other"})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []store.Report{
		{Kind: store.ReportAnswer, SubjectID: "x", Reason: "spam"},
		{Kind: "api", SubjectID: "x", Reason: "other"},
	} {
		if _, err := st.SaveReport(ctx, bad); err == nil {
			t.Errorf("SaveReport(%+v) succeeded", bad)
		}
	}
	long := make([]rune, store.MaxReportDetails+1)
	for i := range long {
		long[i] = 'é'
	}
	if _, err := st.SaveReport(ctx, store.Report{Kind: store.ReportAnswer, SubjectID: "x", Reason: "other", Details: string(long)}); err == nil {
		t.Error("details over the limit were stored")
	}
	list, err := st.ListReports(ctx, 10)
	if err != nil || len(list) != 2 || list[0].ID != b.ID || list[1].Details != "wrong verse" {
		t.Fatalf("ListReports = %+v, %v", list, err)
	}
}
