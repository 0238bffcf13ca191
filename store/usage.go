package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// RecordAsk records one accepted Ask call of the account, admitted at at,
// under its quota reservation. Recording the same reservation again changes
// nothing, so a retried commit never counts twice.
func (s *Store) RecordAsk(ctx context.Context, reservationID string, accountID int64, at time.Time) error {
	at = at.UTC()
	_, err := s.pool.Exec(ctx, `
		INSERT INTO ask_usage (reservation_id, account_id, at, day)
		VALUES ($1, $2, $3, $4)
		ON CONFLICT (reservation_id) DO NOTHING`,
		reservationID, accountID, at, utcDay(at))
	if err != nil {
		return fmt.Errorf("store: record ask of account %d: %w", accountID, err)
	}
	return nil
}

// AskCounts returns how many Ask calls of the account were accepted on the
// UTC day containing day and in that day's UTC month.
func (s *Store) AskCounts(ctx context.Context, accountID int64, day time.Time) (daily, monthly int, err error) {
	d := utcDay(day)
	month := time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, time.UTC)
	err = s.pool.QueryRow(ctx, `
		SELECT count(*) FILTER (WHERE day = $2), count(*)
		FROM ask_usage
		WHERE account_id = $1 AND day >= $3 AND day < $4`,
		accountID, d, month, month.AddDate(0, 1, 0)).Scan(&daily, &monthly)
	if err != nil {
		return 0, 0, fmt.Errorf("store: ask counts of account %d: %w", accountID, err)
	}
	return daily, monthly, nil
}

// RecordedAsks returns which of the quota reservations have an Ask
// recorded: the quota engine settles reservations whose lease ran out by
// it (an Ask whose Redis commit failed is recorded here all the same).
func (s *Store) RecordedAsks(ctx context.Context, reservationIDs []string) ([]string, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT reservation_id FROM ask_usage WHERE reservation_id = ANY($1)`, reservationIDs)
	if err != nil {
		return nil, fmt.Errorf("store: recorded asks: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("store: recorded asks: %w", err)
	}
	return ids, nil
}

// utcDay is the midnight UTC starting t's UTC day.
func utcDay(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}
