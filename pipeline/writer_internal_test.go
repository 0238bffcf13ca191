package pipeline

import (
	"testing"
)

// TestWriterQuestion: the forms a question about who wrote a book takes,
// and questions that only look like one.
func TestWriterQuestion(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		question string
		book     string // "" when it is no writer question
		chapter  int
	}{
		{"Who wrote Romans?", "Romans", 0},
		{"who wrote the book of revelation", "Revelation", 0},
		{"Who is the author of the letter to the Hebrews?", "Hebrews", 0},
		{"who's the writer of the gospel of mark", "Mark", 0},
		{"Who penned the epistle of James?", "James", 0},
		{"What apostle wrote Galatians?", "Galatians", 0},
		{"Did Paul write Hebrews?", "Hebrews", 0},
		{"Was Moses the author of Genesis?", "Genesis", 0},
		{"Who wrote 1 Cor?", "1 Corinthians", 0},
		{"Who wrote Psalm 23?", "Psalms", 23},
		{"who wrote proverbs 31", "Proverbs", 31},
		{"Who was Ecclesiastes written by?", "Ecclesiastes", 0},
		// Not a book, or not asking who wrote one.
		{"Who wrote the Bible?", "", 0},
		{"Who wrote the Ten Commandments?", "", 0},
		{"What did Paul write about love?", "", 0},
		{"Who did Paul write to?", "", 0},
		{"Who wrote Psalm 151?", "", 0},
		{"Who was Romans?", "", 0},
	} {
		ask, ok := writerQuestion(c.question)
		if ok != (c.book != "") || ok && (ask.book.Name != c.book || ask.chapter != c.chapter) {
			t.Errorf("writerQuestion(%q) = %s %d %v, want %q %d", c.question, ask.book.Name, ask.chapter, ok, c.book, c.chapter)
		}
	}
}
