package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// Report is a visitor's report of an answer ("Report this answer"). It is
// private: administrators read reports, the API never does. It keeps the
// question and answer as shown, and nothing about who sent it.
type Report struct {
	ID        int64
	Kind      string // ReportAnswer or ReportChat
	SubjectID string // the answer's or the chat turn's id
	Question  string
	Answer    string
	Reason    string // one of ReportReasons
	Details   string // free text, at most MaxReportDetails characters
	CreatedAt time.Time
}

// What a report is about.
const (
	ReportAnswer = "answer" // a public answer page
	ReportChat   = "chat"   // a reply in a chat conversation
)

// ReportReasons are the reasons a report may give, in the order the form
// offers them.
var ReportReasons = []string{"inaccurate", "unhelpful", "offensive", "other"}

// MaxReportDetails bounds a report's free text, in characters.
const MaxReportDetails = 1000

// SaveReport stores a report and returns it with its id and time. The
// caller validates reason and details; the table's checks refuse anything
// else.
func (s *Store) SaveReport(ctx context.Context, r Report) (Report, error) {
	if !slices.Contains(ReportReasons, r.Reason) || (r.Kind != ReportAnswer && r.Kind != ReportChat) {
		return r, fmt.Errorf("store: save report: kind %q reason %q", r.Kind, r.Reason)
	}
	err := s.pool.QueryRow(ctx, `
		INSERT INTO reports (kind, subject_id, question, answer, reason, details)
		VALUES ($1, $2, $3, $4, $5, $6)
		RETURNING id, created_at`,
		r.Kind, r.SubjectID, r.Question, r.Answer, r.Reason, r.Details).Scan(&r.ID, &r.CreatedAt)
	if err != nil {
		return r, fmt.Errorf("store: save report: %w", err)
	}
	return r, nil
}

// ListReports returns the most recent reports, newest first, at most limit.
func (s *Store) ListReports(ctx context.Context, limit int) ([]Report, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT id, kind, subject_id, question, answer, reason, details, created_at
		FROM reports ORDER BY created_at DESC, id DESC LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("store: list reports: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Report, error) {
		var x Report
		err := r.Scan(&x.ID, &x.Kind, &x.SubjectID, &x.Question, &x.Answer, &x.Reason, &x.Details, &x.CreatedAt)
		return x, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: list reports: %w", err)
	}
	return out, nil
}
