package api

// VerifyResponse is the body of POST /verify.
type VerifyResponse struct {
	Quote string `json:"quote"`
	// Match is exact, normalized, partial or none (see corpus/verify).
	Match string `json:"match"`
	// Reference, Text and URL are where the quote is found; null for none.
	Reference *string `json:"reference"`
	Text      *string `json:"text"`
	URL       *string `json:"url"`
	// ClaimedReference is the reference sent, canonical; ClaimedHolds
	// whether the quote is found there. Both null when none was sent.
	ClaimedReference *string `json:"claimedReference"`
	ClaimedHolds     *bool   `json:"claimedHolds"`
	Similarity       float64 `json:"similarity"`
	RequestID        string  `json:"requestId"`
}

// ReferencesResponse is the body of POST /references.
type ReferencesResponse struct {
	References []FoundReference   `json:"references"`
	Invalid    []InvalidReference `json:"invalid"`
	RequestID  string             `json:"requestId"`
}

// FoundReference is a reference found in the text. Start and End are
// offsets in UTF-16 code units, End exclusive: what JavaScript's
// String.prototype.slice and the DOM's Range take.
type FoundReference struct {
	Text      string `json:"text"`
	Start     int    `json:"start"`
	End       int    `json:"end"`
	Reference string `json:"reference"`
	URL       string `json:"url"`
}

// InvalidReference is a mention that names a book but no KJV passage.
type InvalidReference struct {
	Text    string `json:"text"`
	Start   int    `json:"start"`
	End     int    `json:"end"`
	Code    string `json:"code"`
	Message string `json:"message"`
}
