package api

// TopicListResponse is the body of GET /topics.
type TopicListResponse struct {
	Topics    []TopicSummary `json:"topics"`
	Count     int            `json:"count"`
	RequestID string         `json:"requestId"`
}

// TopicSummary is one hub in GET /topics.
type TopicSummary struct {
	Slug       string `json:"slug"`
	Title      string `json:"title"`
	Summary    string `json:"summary"`
	VerseCount int    `json:"verseCount"`
	URL        string `json:"url"`
}

// TopicDetailResponse is the body of GET /topics/{slug}.
type TopicDetailResponse struct {
	Slug       string         `json:"slug"`
	Title      string         `json:"title"`
	Summary    string         `json:"summary"`
	VerseCount int            `json:"verseCount"`
	Passages   []CitedPassage `json:"passages"`
	Related    []TopicLink    `json:"related"`
	RequestID  string         `json:"requestId"`
}
