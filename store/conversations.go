package store

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/api"
)

// Conversation is a chat conversation of one visitor, with its turns in
// order. Visitors are named by the token of their cookie; the database
// holds its SHA-256 (visitorKey), so a leaked table hands out no
// conversations.
type Conversation struct {
	ID        string
	CreatedAt time.Time
	UpdatedAt time.Time
	Turns     []ChatTurn
}

// ConversationSummary is one line of a visitor's list of conversations.
type ConversationSummary struct {
	ID        string
	Title     string // the first question
	Turns     int
	UpdatedAt time.Time
}

// ChatTurn is one turn: the visitor's message and the grounded reply.
type ChatTurn struct {
	ID        string
	Seq       int
	Question  string
	Answer    string
	Summary   string
	Refs      []AnswerRef
	Topics    []AnswerTopic
	Words     []api.WordEntry
	Generator string
	CreatedAt time.Time
}

// MaxChatTurns is how many turns a conversation may hold. Past it the
// visitor starts a new one: the pages stay short, and the context a
// follow-up looks back at is bounded anyway.
const MaxChatTurns = 50

// ErrConversationFull is returned by AddChatTurn when the conversation
// already has MaxChatTurns turns.
var ErrConversationFull = errors.New("store: conversation is full")

// NewConversationID returns a fresh conversation id (128 random bits).
func NewConversationID() string { return "chat_" + rand.Text() }

// NewChatTurnID returns a fresh turn id (128 random bits).
func NewChatTurnID() string { return "msg_" + rand.Text() }

func visitorKey(visitor string) []byte { return sessionID(visitor) }

// AddChatTurn appends a turn to the visitor's conversation, or to a new one
// when conversationID is empty, and returns the conversation's id and the
// stored turn. A conversation of another visitor, or none, is selah.ErrNotFound;
// a full one ErrConversationFull. The conversation row is locked while the
// turn is numbered, so concurrent messages get consecutive numbers.
func (s *Store) AddChatTurn(ctx context.Context, visitor, conversationID string, t ChatTurn) (string, ChatTurn, error) {
	refs, err := json.Marshal(nonNil(t.Refs))
	if err != nil {
		return "", t, fmt.Errorf("store: add chat turn: %w", err)
	}
	topics, err := json.Marshal(nonNil(t.Topics))
	if err != nil {
		return "", t, fmt.Errorf("store: add chat turn: %w", err)
	}
	words, err := json.Marshal(nonNil(t.Words))
	if err != nil {
		return "", t, fmt.Errorf("store: add chat turn: %w", err)
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if conversationID == "" {
			conversationID = NewConversationID()
			if _, err := tx.Exec(ctx, `INSERT INTO chat_conversations (id, visitor) VALUES ($1, $2)`,
				conversationID, visitorKey(visitor)); err != nil {
				return err
			}
		} else {
			tag, err := tx.Exec(ctx, `
				UPDATE chat_conversations SET updated_at = now()
				WHERE id = $1 AND visitor = $2`, conversationID, visitorKey(visitor))
			if err != nil {
				return err
			}
			if tag.RowsAffected() == 0 {
				return selah.ErrNotFound
			}
		}
		if err := tx.QueryRow(ctx, `SELECT count(*) + 1 FROM chat_turns WHERE conversation_id = $1`,
			conversationID).Scan(&t.Seq); err != nil {
			return err
		}
		if t.Seq > MaxChatTurns {
			return ErrConversationFull
		}
		t.ID = NewChatTurnID()
		return tx.QueryRow(ctx, `
			INSERT INTO chat_turns (id, conversation_id, seq, question, answer, summary, refs, topics, words, generator)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
			RETURNING created_at`,
			t.ID, conversationID, t.Seq, t.Question, t.Answer, t.Summary, refs, topics, words, t.Generator).Scan(&t.CreatedAt)
	})
	if errors.Is(err, selah.ErrNotFound) || errors.Is(err, ErrConversationFull) {
		return "", t, err
	}
	if err != nil {
		return "", t, fmt.Errorf("store: add chat turn: %w", err)
	}
	return conversationID, t, nil
}

// ConversationOf returns the visitor's conversation with its turns, or
// selah.ErrNotFound when there is none with that id or it is another visitor's:
// the two are not told apart.
func (s *Store) ConversationOf(ctx context.Context, visitor, id string) (Conversation, error) {
	c := Conversation{ID: id}
	err := s.pool.QueryRow(ctx, `
		SELECT created_at, updated_at FROM chat_conversations WHERE id = $1 AND visitor = $2`,
		id, visitorKey(visitor)).Scan(&c.CreatedAt, &c.UpdatedAt)
	if err != nil {
		return c, notFound("conversation", err)
	}
	rows, err := s.pool.Query(ctx, `
		SELECT id, seq, question, answer, summary, refs, topics, words, generator, created_at
		FROM chat_turns WHERE conversation_id = $1 ORDER BY seq`, id)
	if err != nil {
		return c, fmt.Errorf("store: conversation turns: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		t, err := scanChatTurn(rows)
		if err != nil {
			return c, err
		}
		c.Turns = append(c.Turns, t)
	}
	if err := rows.Err(); err != nil {
		return c, fmt.Errorf("store: conversation turns: %w", err)
	}
	return c, nil
}

func scanChatTurn(row pgx.Row) (ChatTurn, error) {
	var t ChatTurn
	var refs, topics, words []byte
	if err := row.Scan(&t.ID, &t.Seq, &t.Question, &t.Answer, &t.Summary, &refs, &topics, &words, &t.Generator, &t.CreatedAt); err != nil {
		return t, fmt.Errorf("store: chat turn: %w", err)
	}
	if err := json.Unmarshal(refs, &t.Refs); err != nil {
		return t, fmt.Errorf("store: chat turn %s refs: %w", t.ID, err)
	}
	if err := json.Unmarshal(topics, &t.Topics); err != nil {
		return t, fmt.Errorf("store: chat turn %s topics: %w", t.ID, err)
	}
	if err := json.Unmarshal(words, &t.Words); err != nil {
		return t, fmt.Errorf("store: chat turn %s words: %w", t.ID, err)
	}
	return t, nil
}

// ChatTurnOf returns one turn of the visitor's conversations, or
// selah.ErrNotFound (also for another visitor's turn).
func (s *Store) ChatTurnOf(ctx context.Context, visitor, turnID string) (ChatTurn, error) {
	t, err := scanChatTurn(s.pool.QueryRow(ctx, `
		SELECT t.id, t.seq, t.question, t.answer, t.summary, t.refs, t.topics, t.words, t.generator, t.created_at
		FROM chat_turns t JOIN chat_conversations c ON c.id = t.conversation_id
		WHERE t.id = $1 AND c.visitor = $2`, turnID, visitorKey(visitor)))
	if err != nil {
		return t, notFound("chat turn", err)
	}
	return t, nil
}

// ConversationsOf lists the visitor's conversations, most recent first, at
// most limit of them.
func (s *Store) ConversationsOf(ctx context.Context, visitor string, limit int) ([]ConversationSummary, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT c.id, c.updated_at, count(t.id),
		       coalesce((SELECT question FROM chat_turns WHERE conversation_id = c.id ORDER BY seq LIMIT 1), '')
		FROM chat_conversations c LEFT JOIN chat_turns t ON t.conversation_id = c.id
		WHERE c.visitor = $1
		GROUP BY c.id
		ORDER BY c.updated_at DESC, c.id
		LIMIT $2`, visitorKey(visitor), limit)
	if err != nil {
		return nil, fmt.Errorf("store: conversations: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ConversationSummary, error) {
		var c ConversationSummary
		err := r.Scan(&c.ID, &c.UpdatedAt, &c.Turns, &c.Title)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: conversations: %w", err)
	}
	return out, nil
}

// DeleteConversation deletes the visitor's conversation and its turns;
// selah.ErrNotFound when there is none of the visitor's with that id.
func (s *Store) DeleteConversation(ctx context.Context, visitor, id string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM chat_conversations WHERE id = $1 AND visitor = $2`, id, visitorKey(visitor))
	if err != nil {
		return fmt.Errorf("store: delete conversation: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return selah.ErrNotFound
	}
	return nil
}
