// Command selah is the one binary of the service: the web and worker
// processes, and the admin tools (migrate, ingest, accounts, keys, mcp,
// bench, eval).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/selahdev/selah"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newRootCmd().ExecuteContext(ctx); err != nil {
		// Application errors carry a message meant for people.
		var ae *selah.Error
		if errors.As(err, &ae) {
			fmt.Fprintln(os.Stderr, "selah:", ae.Message)
		} else {
			fmt.Fprintln(os.Stderr, "selah:", err)
		}
		os.Exit(1)
	}
}
