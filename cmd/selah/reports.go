package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/selahdev/selah/store"
)

func newReportsCmd(cfg *config) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "reports",
		Short: "Read the private reports of answers (\"Report this answer\")",
	}
	cmd.AddCommand(newReportsListCmd(cfg))
	return cmd
}

func newReportsListCmd(cfg *config) *cobra.Command {
	var (
		limit  int
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "list [--limit 50] [--json]",
		Short: "List the most recent reports, newest first",
		Args:  cobra.NoArgs,
		RunE: withAdminStore(cfg, func(ctx context.Context, st *store.Store, cmd *cobra.Command, _ []string) error {
			if limit < 1 {
				return fmt.Errorf("--limit must be at least 1")
			}
			rs, err := st.ListReports(ctx, limit)
			if err != nil {
				return err
			}
			return printReports(cmd.OutOrStdout(), rs, asJSON)
		}),
	}
	cmd.Flags().IntVar(&limit, "limit", 50, "how many reports to list")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	return cmd
}

type reportJSON struct {
	ID        int64     `json:"id"`
	Kind      string    `json:"kind"`
	SubjectID string    `json:"subjectId"`
	Reason    string    `json:"reason"`
	Details   string    `json:"details"`
	Question  string    `json:"question"`
	Answer    string    `json:"answer"`
	CreatedAt time.Time `json:"createdAt"`
}

func printReports(w io.Writer, rs []store.Report, asJSON bool) error {
	if asJSON {
		out := make([]reportJSON, 0, len(rs))
		for _, r := range rs {
			out = append(out, reportJSON{ID: r.ID, Kind: r.Kind, SubjectID: r.SubjectID, Reason: r.Reason, Details: r.Details,
				Question: r.Question, Answer: r.Answer, CreatedAt: r.CreatedAt.UTC()})
		}
		return writeJSON(w, out)
	}
	if len(rs) == 0 {
		fmt.Fprintln(w, "no reports")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tRECEIVED\tKIND\tSUBJECT\tREASON\tQUESTION\tDETAILS")
	for _, r := range rs {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.CreatedAt.UTC().Format(time.RFC3339), r.Kind, r.SubjectID,
			r.Reason, oneLine(r.Question, 60), oneLine(r.Details, 80))
	}
	return tw.Flush()
}

// oneLine fits free text into a table cell: one line, at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
