package web

import (
	"fmt"
	"net/netip"
	"net/url"
	"time"
)

// Config holds the web server's settings. Zero values are usable: New
// replaces them with the defaults of WithDefaults.
type Config struct {
	// Version is reported by /health.
	Version string
	// PublicURL is the base URL of the website, used for canonical answer
	// links (e.g. https://selah.example). Empty means derive from requests.
	PublicURL string
	// BodyLimit caps request bodies in bytes (default 64 KiB).
	BodyLimit int
	// RequestTimeout bounds the work of one API request (default 30s).
	RequestTimeout time.Duration
	// ReadTimeout bounds the reading of one request, headers and body: a
	// client that has not sent it all by then gets 408 request_timeout
	// (default 15s).
	ReadTimeout time.Duration
	// SiteAsksPerDay is the website's anonymous Ask quota per client
	// address and UTC day (default DefaultSiteAsksPerDay).
	SiteAsksPerDay int
	// ChatMessagesPerDay and ChatMessagesPerAddressPerDay are the chat's
	// quotas per visitor and per client address and UTC day; ReportsPerHour
	// throttles "Report this answer" per client address (defaults
	// DefaultChatMessagesPerDay, DefaultChatMessagesPerAddressPerDay,
	// DefaultReportsPerHour; see chat.go and reports.go).
	ChatMessagesPerDay, ChatMessagesPerAddressPerDay, ReportsPerHour int
	// TrustedProxies are the addresses or CIDRs of the reverse proxies in
	// front of the server. Only a request whose peer is one of them has
	// its X-Forwarded-For (client address), X-Forwarded-Host and
	// X-Forwarded-Proto believed; empty trusts no one, and the client
	// address is the socket peer.
	TrustedProxies []string
	// SearchTimeout and AskTimeout are the deadlines of search and ask
	// jobs, after which the caller gets 504 timeout (defaults 10s, 25s).
	SearchTimeout, AskTimeout time.Duration
}

// WithDefaults returns the configuration with every zero value replaced by
// its default (the one place the defaults live).
func (c Config) WithDefaults() Config {
	for _, d := range []struct {
		v   *int
		def int
	}{
		{&c.BodyLimit, 64 << 10},
		{&c.SiteAsksPerDay, DefaultSiteAsksPerDay},
		{&c.ChatMessagesPerDay, DefaultChatMessagesPerDay},
		{&c.ChatMessagesPerAddressPerDay, DefaultChatMessagesPerAddressPerDay},
		{&c.ReportsPerHour, DefaultReportsPerHour},
	} {
		if *d.v == 0 {
			*d.v = d.def
		}
	}
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{
		{&c.RequestTimeout, 30 * time.Second},
		{&c.ReadTimeout, 15 * time.Second},
		{&c.SearchTimeout, 10 * time.Second},
		{&c.AskTimeout, 25 * time.Second},
	} {
		if *d.v == 0 {
			*d.v = d.def
		}
	}
	return c
}

// validate checks a configuration after WithDefaults, naming the field at
// fault. A negative limit or timeout would otherwise refuse every request
// (or, for BodyLimit, be replaced by Fiber's own default without a word),
// a trusted proxy that is not an address would trust no one, and a public
// URL without scheme and host would make every canonical link relative.
func (c Config) validate() error {
	for _, n := range []struct {
		name string
		v    int
	}{
		{"BodyLimit", c.BodyLimit},
		{"SiteAsksPerDay", c.SiteAsksPerDay},
		{"ChatMessagesPerDay", c.ChatMessagesPerDay},
		{"ChatMessagesPerAddressPerDay", c.ChatMessagesPerAddressPerDay},
		{"ReportsPerHour", c.ReportsPerHour},
	} {
		if n.v < 0 {
			return fmt.Errorf("web: %s must not be negative: %d", n.name, n.v)
		}
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"RequestTimeout", c.RequestTimeout},
		{"ReadTimeout", c.ReadTimeout},
		{"SearchTimeout", c.SearchTimeout},
		{"AskTimeout", c.AskTimeout},
	} {
		if d.v < 0 {
			return fmt.Errorf("web: %s must be positive: %s", d.name, d.v)
		}
	}
	if c.PublicURL != "" {
		u, err := url.Parse(c.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("web: PublicURL must be an absolute http:// or https:// URL: %q", c.PublicURL)
		}
	}
	for _, p := range c.TrustedProxies {
		if _, err := netip.ParsePrefix(p); err != nil {
			if _, err := netip.ParseAddr(p); err != nil {
				return fmt.Errorf("web: TrustedProxies: %q is neither an IP address nor a CIDR", p)
			}
		}
	}
	return nil
}
