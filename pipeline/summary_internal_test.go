package pipeline

import "testing"

func TestSummaryQuestion(t *testing.T) {
	t.Parallel()
	tests := []struct{ q, book string }{
		{"What is the book of Ruth about?", "Ruth"},
		{"whats jude about", "Jude"},
		{"What is the Song of Solomon about, and why is it in the Bible?", "Song of Solomon"},
		{"summarize the book of romans", "Romans"},
		{"Can you give me a short summary of Numbers?", "Numbers"},
		{"tl;dr of obadiah", "Obadiah"},
		{"2 kings overview pls", "2 Kings"},
		{"1 thess summary", "1 Thessalonians"},
		{"main theme of galatians", "Galatians"},
		{"What's the message of the letter to the Hebrews?", "Hebrews"},
		{"what is paul's main point in colossians", "Colossians"},
		{"Explain Lamentations in a few sentences.", "Lamentations"},
		{"what happens in the book of judges", "Judges"},
		{"micah - what is the point of this book", "Micah"},
		{"I am reading Haggai. What is it about?", "Haggai"},
		{"What is the gospel of Mark about in the bible", "Mark"},
	}
	for _, tt := range tests {
		b, ok := summaryQuestion(tt.q)
		if !ok || b.Name != tt.book {
			t.Errorf("summaryQuestion(%q) = %q ok %v, want %q", tt.q, b.Name, ok, tt.book)
		}
	}
	for _, q := range []string{
		"what is love about",
		"what is the bible about",
		"what is the book of enoch about",
		"summarize the wisdom of solomon",
		"what is the gospel of philip about",
		"what happens in egypt",
		"what is the story of david",
		"explain grace",
		"What is it about?",
		"what does romans say about grace",
		"who wrote romans",
		"romans - who wrote it",
	} {
		if b, ok := summaryQuestion(q); ok {
			t.Errorf("summaryQuestion(%q) = %q, want no book", q, b.Name)
		}
	}
}
