package worker_test

import (
	"strings"
	"testing"
	"time"

	"github.com/selahdev/selah/jobs"
	"github.com/selahdev/selah/store/storetest"
	"github.com/selahdev/selah/worker"
)

// TestConfigRefused: a configuration asynq would silently replace with its
// own defaults is refused, naming the field.
func TestConfigRefused(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		cfg   worker.Config
		field string
	}{
		{"negative concurrency", worker.Config{Concurrency: -1}, "Concurrency"},
		{"negative poll interval", worker.Config{PollInterval: -time.Millisecond}, "PollInterval"},
		{"negative shutdown timeout", worker.Config{ShutdownTimeout: -time.Second}, "ShutdownTimeout"},
		{"empty queue name", worker.Config{Queues: []string{jobs.QueueAsk, ""}}, "Queues"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w, err := worker.New(tt.cfg, nil, nil)
			if err == nil || !strings.Contains(err.Error(), tt.field) {
				t.Fatalf("New(%+v) = %v, %v; want an error naming %s", tt.cfg, w, err, tt.field)
			}
		})
	}
}

// TestConfigDefaults: the zero configuration is usable and gets its
// defaults in one place.
func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	c := worker.Config{}.WithDefaults()
	if c.PollInterval != 2*time.Millisecond || c.ShutdownTimeout != 25*time.Second ||
		len(c.Queues) != 2 || c.Queues[0] != jobs.QueueSearch || c.Queues[1] != jobs.QueueAsk {
		t.Fatalf("defaults %+v", c)
	}
	_, rc := storetest.NewRedis(t)
	if _, err := worker.New(worker.Config{}, rc, nil); err != nil {
		t.Fatalf("zero config refused: %v", err)
	}
}
