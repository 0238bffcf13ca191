package pipeline_test

import (
	"slices"
	"testing"

	"github.com/selahdev/selah/corpus"
)

// TestRespell: a name people misspell reaches the person, and no word that
// is English or the corpus's own is respelt.
func TestRespell(t *testing.T) {
	t.Parallel()
	b := setup(t)
	tests := []struct{ q, want string }{
		{"who was jezabel", "who was Jezebel"},
		{"bathseba and king david", "Bath-sheba and king david"}, // as the KJV writes her
		{"king nebuchadnezer of babylon", "king Nebuchadnezzar of babylon"},
		{"mephiboseth jonathan's son", "Mephibosheth jonathan's son"},
		// Ezekiel and Ezekias (Hezekiah in Matthew) are one edit away and
		// two KJV verses each; the WEB keeps only Ezekiel.
		{"the prophet ezekial", "the prophet Ezekiel"},
		{"Who was Jezebel?", "Who was Jezebel?"},
		// Not names, or nothing near: kept as typed.
		{"what is the capital of France", "what is the capital of France"},
		{"recommend a good laptop for programming", "recommend a good laptop for programming"},
		{"asdf qwerty zxcv", "asdf qwerty zxcv"},
		{"which stocks should I buy", "which stocks should I buy"},
		{"Iran", "Iran"}, // shorter than a misspelling is told from another name
		// The translation's names frame a question as "the Bible" does; the
		// apostle keeps his.
		{"what does the King James Version say about love", "what does the Bible say about love"},
		{"how many words are in the kjv", "how many words are in the Bible"},
		{"Who translated the King James Bible?", "Who translated the Bible?"},
		{"where can I buy a king james bible", "where can I buy a Bible"},
		{"James the son of Zebedee", "James the son of Zebedee"},
		// Contractions typed without their apostrophe.
		{"i cant stop crying and i dont know why", "i can't stop crying and i don't know why"},
		{"Im tired, it wasnt my fault and theres no one", "I'm tired, it wasn't my fault and there's no one"},
		{"youre right, ive been shouldnt", "you're right, i've been shouldn't"},
		// Words of the corpus or the dictionary stay: "as he was wont".
		{"as he was wont its well were ill", "as he was wont its well were ill"},
		{"we shed tears", "we shed tears"},
	}
	for _, tt := range tests {
		if got := b.r.Respell(tt.q); got != tt.want {
			t.Errorf("Respell(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
	// Search respells: the misspelt queen's verses come back.
	res, err := b.r.Search(b.ctx, "who was jezabel", 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(res); !slices.Contains(got, corpus.NewVerseID(11, 16, 31)) {
		t.Errorf("who was jezabel: %v, want 1 Kings 16:31 (Ahab took to wife Jezebel)", got)
	}
}
