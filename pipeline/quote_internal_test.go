package pipeline

import "testing"

// TestQuotationQuestion: the frames of a question about a quotation, and
// questions that only look like one.
func TestQuotationQuestion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		q, words string
	}{
		{"who said am I my brother's keeper", "am i my brother's keeper"},
		{"Who said, Sirs, what must I do to be saved?", "sirs, what must i do to be saved"},
		{"which prophet said how long halt ye between two opinions", "how long halt ye between two opinions"},
		{`who spoke the words "thou art the man"`, "thou art the man"},
		{"I heard it at a funeral. Who said the LORD gave and the LORD hath taken away?", "the lord gave and the lord hath taken away"},
		{"what verse says pride goeth before destruction", "pride goeth before destruction"},
		{"Which book of the Bible says there is no new thing under the sun?", "there is no new thing under the sun"},
		{"where in the bible does it say iron sharpeneth iron", "iron sharpeneth iron"},
		{"where is the verse about love that says love is patient", "love is patient"},
		{"is there a verse that says a soft answer turneth away wrath", "a soft answer turneth away wrath"},
		{`Who said "Here am I; send me" in the Bible?`, "here am i; send me"},
	}
	for _, tt := range tests {
		words, ok := quotationQuestion(tt.q)
		if !ok || words != tt.words {
			t.Errorf("quotationQuestion(%q) = %q ok %v, want %q", tt.q, words, ok, tt.words)
		}
	}
	for _, q := range []string{
		"where can I find strength when I am weak",
		"who wrote the book of romans",
		"what does the bible say about anger",
		"who said it",
		"does the bible mention unicorns",
		"Who was Melchizedek?",
	} {
		if words, ok := quotationQuestion(q); ok {
			t.Errorf("quotationQuestion(%q) = %q, want no quotation", q, words)
		}
	}
}
