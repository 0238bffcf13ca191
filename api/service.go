package api

import "time"

// HealthResponse is the body of GET /health (200, or 503 with the same
// shape when a dependency is down).
type HealthResponse struct {
	Status    string           `json:"status"` // "ok" or "degraded"
	Version   string           `json:"version"`
	Time      time.Time        `json:"time"` // whole seconds, UTC
	Checks    map[string]Check `json:"checks"`
	Corpus    *CorpusFacts     `json:"corpus"`
	RequestID string           `json:"requestId"`
}

// Check is the state of one dependency.
type Check struct {
	Status    string  `json:"status"` // "ok" or "down"
	LatencyMS float64 `json:"latencyMs"`
	Error     string  `json:"error,omitempty"`
}

// CorpusFacts describes the text the service serves.
type CorpusFacts struct {
	Translation string `json:"translation"`
	Module      string `json:"module"`
	Version     string `json:"version"`
	Books       int    `json:"books"`
	Verses      int    `json:"verses"`
}

// UsageResponse is the body of GET /usage.
type UsageResponse struct {
	Plan               string     `json:"plan"`
	RequestsPerMinute  LimitUsage `json:"requestsPerMinute"`
	ConcurrentRequests LimitUsage `json:"concurrentRequests"`
	AsksToday          LimitUsage `json:"asksToday"`
	AsksThisMonth      LimitUsage `json:"asksThisMonth"`
	RequestID          string     `json:"requestId"`
}

// LimitUsage is one limit of the plan and where the account stands. Limit
// and Remaining are null when the plan does not have the limit.
type LimitUsage struct {
	Limit     *int `json:"limit"`
	Remaining *int `json:"remaining"`
	// InUse is, for concurrent requests, how many are in progress.
	InUse *int `json:"inUse,omitempty"`
	// ResetAt is when the limit is whole again: the full burst of the
	// per-minute limit, the next UTC day or month of a quota. ResetSeconds
	// is the same, in whole seconds from now, rounded up.
	ResetAt      *time.Time `json:"resetAt,omitempty"`
	ResetSeconds *int       `json:"resetSeconds,omitempty"`
}
