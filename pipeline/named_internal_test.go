package pipeline

import "testing"

func TestNamedWork(t *testing.T) {
	t.Parallel()
	tests := []struct{ q, work string }{
		{"Summarize the Sermon on the Mount", "the sermon on the mount"},
		{"explain the golden rule", "the golden rule"},
		{"eli5 the story of zaccheus", "zaccheus"},
		{"whats the lesson of the woman at the well", "the woman at the well"},
		{"can you explain the magnificat for me", "the magnificat"},
		{"what's the story behind the fall of man?", "the fall of man"},
		{"David and Goliath in a nutshell", "david and goliath"},
		{"tell me the story of the burning bush", "the burning bush"},
		{"Can you break down the Olivet discourse in simple terms?", "the olivet discourse"},
		{"what does the apostles creed teach", "the apostles creed"},
		{"Explain the cleansing of the temple - why did Jesus flip the tables?", "the cleansing of the temple"},
		{"what is the meaning of the suffering servant passage", "the suffering servant passage"},
	}
	for _, tt := range tests {
		if w, ok := namedWork(tt.q); !ok || w != tt.work {
			t.Errorf("namedWork(%q) = %q ok %v, want %q", tt.q, w, ok, tt.work)
		}
	}
	for _, q := range []string{
		"what does the bible say about anger",
		"tell me about grace",
		"what does agape mean",
		"summarize it",
		"how do i forgive my father",
		"who was zacchaeus",
		"what did jesus teach",
	} {
		if w, ok := namedWork(q); ok {
			t.Errorf("namedWork(%q) = %q, want none", q, w)
		}
	}
}
