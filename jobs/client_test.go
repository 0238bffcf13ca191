package jobs

import (
	"strings"
	"testing"
	"time"
)

func TestConfigValidate(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"defaults", Config{}, true},
		{"fast watch", Config{WatchEvery: 10 * time.Millisecond, LostAfter: 50 * time.Millisecond}, true},
		{"watch too fast", Config{WatchEvery: time.Millisecond}, false},
		{"watch too slow", Config{WatchEvery: 2 * time.Minute}, false},
		{"negative grace", Config{LostAfter: -time.Second}, false},
		{"grace too long", Config{LostAfter: time.Hour}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.cfg.WithDefaults().validate()
			if (err == nil) != c.ok {
				t.Fatalf("validate = %v, want ok %v", err, c.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "Every") && !strings.Contains(err.Error(), "LostAfter") {
				t.Fatalf("error %q does not name the field", err)
			}
		})
	}
}
