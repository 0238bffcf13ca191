package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/selahdev/selah/web"
)

// TestConfigRefused: a configuration that makes no sense is refused by
// New, naming the field.
func TestConfigRefused(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		cfg   web.Config
		field string
	}{
		{"negative body limit", web.Config{BodyLimit: -1}, "BodyLimit"},
		{"negative request timeout", web.Config{RequestTimeout: -time.Second}, "RequestTimeout"},
		{"negative search timeout", web.Config{SearchTimeout: -time.Second}, "SearchTimeout"},
		{"negative ask timeout", web.Config{AskTimeout: -time.Second}, "AskTimeout"},
		{"negative site asks", web.Config{SiteAsksPerDay: -1}, "SiteAsksPerDay"},
		{"negative chat messages", web.Config{ChatMessagesPerDay: -1}, "ChatMessagesPerDay"},
		{"negative chat messages per address", web.Config{ChatMessagesPerAddressPerDay: -1}, "ChatMessagesPerAddressPerDay"},
		{"negative reports", web.Config{ReportsPerHour: -1}, "ReportsPerHour"},
		{"relative public URL", web.Config{PublicURL: "selah.example"}, "PublicURL"},
		{"public URL of another scheme", web.Config{PublicURL: "ftp://selah.example"}, "PublicURL"},
		{"public URL without host", web.Config{PublicURL: "https://"}, "PublicURL"},
		{"proxy that is no address", web.Config{TrustedProxies: []string{"10.0.0.1", "proxy.internal"}}, "TrustedProxies"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, err := web.New(tt.cfg, web.Deps{})
			if err == nil || !strings.Contains(err.Error(), tt.field) {
				t.Fatalf("New(%+v) = %v, %v; want an error naming %s", tt.cfg, srv, err, tt.field)
			}
		})
	}
}

// TestConfigDefaults: the zero configuration is usable and gets its
// defaults in one place; values that are set are kept.
func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	c := web.Config{}.WithDefaults()
	if c.BodyLimit != 64<<10 || c.RequestTimeout != 30*time.Second || c.SearchTimeout != 10*time.Second ||
		c.AskTimeout != 25*time.Second || c.SiteAsksPerDay != web.DefaultSiteAsksPerDay ||
		c.ChatMessagesPerDay != web.DefaultChatMessagesPerDay ||
		c.ChatMessagesPerAddressPerDay != web.DefaultChatMessagesPerAddressPerDay ||
		c.ReportsPerHour != web.DefaultReportsPerHour {
		t.Fatalf("defaults %+v", c)
	}
	if c := (web.Config{AskTimeout: time.Second, ReportsPerHour: 3}).WithDefaults(); c.AskTimeout != time.Second || c.ReportsPerHour != 3 {
		t.Fatalf("set values replaced: %+v", c)
	}
	for _, cfg := range []web.Config{
		{},
		{PublicURL: "https://selah.example/", TrustedProxies: []string{"10.0.0.1", "192.168.0.0/16", "::1"}},
	} {
		if _, err := web.New(cfg, web.Deps{}); err != nil {
			t.Errorf("New(%+v) refused: %v", cfg, err)
		}
	}
}
