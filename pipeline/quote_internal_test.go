package pipeline

import "testing"

// TestQuotationQuestion: the frames of a question about a quotation, and
// questions that only look like one.
func TestQuotationQuestion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		q     string
		words string
		who   bool
	}{
		{"who said am I my brother's keeper", "am i my brother's keeper", true},
		{"Who said, Sirs, what must I do to be saved?", "sirs, what must i do to be saved", true},
		{"which prophet said how long halt ye between two opinions", "how long halt ye between two opinions", true},
		{`who spoke the words "thou art the man"`, "thou art the man", true},
		{"I heard it at a funeral. Who said the LORD gave and the LORD hath taken away?", "the lord gave and the lord hath taken away", true},
		{"what verse says pride goeth before destruction", "pride goeth before destruction", false},
		{"Which book of the Bible says there is no new thing under the sun?", "there is no new thing under the sun", false},
		{"where in the bible does it say iron sharpeneth iron", "iron sharpeneth iron", false},
		{"where is the verse about love that says love is patient", "love is patient", false},
		{"is there a verse that says a soft answer turneth away wrath", "a soft answer turneth away wrath", false},
		{`Who said "Here am I; send me" in the Bible?`, "here am i; send me", true},
	}
	for _, tt := range tests {
		ask, ok := quotationQuestion(tt.q)
		if !ok || ask.words != tt.words || ask.who != tt.who {
			t.Errorf("quotationQuestion(%q) = %q who %v ok %v, want %q who %v", tt.q, ask.words, ask.who, ok, tt.words, tt.who)
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
		if ask, ok := quotationQuestion(q); ok {
			t.Errorf("quotationQuestion(%q) = %q, want no quotation", q, ask.words)
		}
	}
}
