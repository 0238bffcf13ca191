package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store"
)

// newAccountsPlansCmd lists the plans' limits and lets an administrator
// change them. Web processes read an account's plan with its key (cached
// 500 ms), so a change applies within a second.
func newAccountsPlansCmd(cfg *config) *cobra.Command {
	var set string
	cmd := &cobra.Command{
		Use:   "plans [--set PLAN --requests-per-minute N --concurrent N --asks-per-day N --asks-per-month N --max-keys N]",
		Short: "List the plans' limits, or change one plan's",
		Long: `plans prints every plan's limits. With --set it first changes the named
plan: the limits given are replaced, the others kept. Requests per minute and
concurrent requests must be positive; Asks and keys may be zero.`,
		Args: cobra.NoArgs,
		RunE: withAdminStore(cfg, func(ctx context.Context, st *store.Store, cmd *cobra.Command, _ []string) error {
			plans, err := st.Plans(ctx)
			if err != nil {
				return err
			}
			if set != "" {
				i := -1
				for j, p := range plans {
					if p.Name == set {
						i = j
					}
				}
				if i < 0 {
					return selah.Errorf(selah.EINVALID, "no plan %q (free, developer, builder, pro, internal)", set)
				}
				f := cmd.Flags()
				p := &plans[i]
				for flag, dst := range map[string]*int{"requests-per-minute": &p.RequestsPerMinute, "concurrent": &p.ConcurrentRequests,
					"asks-per-day": &p.AsksPerDay, "asks-per-month": &p.AsksPerMonth, "max-keys": &p.MaxActiveKeys} {
					if f.Changed(flag) {
						*dst, _ = f.GetInt(flag)
					}
				}
				if err := st.UpdatePlanLimits(ctx, *p); err != nil {
					return err
				}
			}
			return printPlans(cmd.OutOrStdout(), plans)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&set, "set", "", "the plan to change")
	// Read with GetInt when Changed: a limit not given is kept.
	f.Int("requests-per-minute", 0, "with --set: requests per minute")
	f.Int("concurrent", 0, "with --set: concurrent requests")
	f.Int("asks-per-day", 0, "with --set: Asks per UTC day")
	f.Int("asks-per-month", 0, "with --set: Asks per UTC month")
	f.Int("max-keys", 0, "with --set: active keys per account")
	return cmd
}

func printPlans(w io.Writer, plans []store.Plan) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "plan\trequests/min\tconcurrent\tasks/day\tasks/month\tactive keys\t")
	for _, p := range plans {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t\n", p.Name, p.RequestsPerMinute, p.ConcurrentRequests, p.AsksPerDay, p.AsksPerMonth, p.MaxActiveKeys)
	}
	return tw.Flush()
}
