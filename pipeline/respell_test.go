package pipeline_test

import (
	"slices"
	"testing"
	"time"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store/storetest"
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
		// Common words misspelt are respelt as the corpus's word that
		// sounds the same, or has two letters swapped.
		{"im greiving, is there any comfert", "i'm grieving, is there any comfort"},
		{"forgivness and beleive, my anxeity", "forgiveness and believe, my anxiety"},
		{"what do christains believe", "what do christians believe"},
		// The commoner word before the rarer name: not "Baptist".
		{"is baptisim nessesary", "is baptism necessary"},
		// Books' names, which no verse writes, and Nave's titles.
		{"who was melkizedek in genisis", "who was Melchizedek in Genesis"},
		{"is the trinaty real", "is the trinity real"},
		// No word of the Bible's near: the commoner English word that
		// sounds the same ("hopeless", not "hapless").
		{"feeling hopless and depresed", "feeling hopeless and depressed"},
		// A modern word near a word of the Bible's is another word: it
		// does not sound the same ("texting" TKST, "testing" TSTN).
		{"is texting while driving a sin", "is texting while driving a sin"},
		{"is vaping ok", "is vaping ok"},
		{"bitcoin iphone gamer selfie", "bitcoin iphone gamer selfie"},
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

// TestAnswerMisspelt: a question typed with misspellings is answered as
// the question it means. A misspelt book still names its passage; a
// book's name counts as no word the Bible never uses, so the person
// asked about in it is not declined; a misspelt common word is no
// longer a subject the Bible does not address.
func TestAnswerMisspelt(t *testing.T) {
	t.Parallel()
	b := setup(t)
	tests := []struct {
		q    string
		want []string
	}{
		{"what does phillipians 4:13 mean", []string{"Philippians 4:13"}},
		{"who was melkizedek in genisis and hebrews", []string{"Genesis 14:18-20", "Hebrews 7:1-3"}},
		{"what does jesus say about worrying about tomorow", []string{"Matthew 6:34"}},
		{"verses about gentelness and kindnes", []string{"Galatians 5:22-23", "Colossians 3:12"}},
	}
	for _, tt := range tests {
		ans := b.ask(t, tt.q)
		checkGrounded(t, b.st, ans, 3)
		if !citesAny(ans, storetest.Verses(t, tt.want...)) {
			t.Errorf("%q cites %v, want a verse of %s", tt.q, refs(ans), tt.want)
		}
	}
}

// BenchmarkRespell measures a word's first respelling (the memo left
// out), over misspellings of names, books and common words and over
// modern words the corpus never saw, and reports the latency
// percentiles: the cost a question pays once per word no verse holds.
func BenchmarkRespell(b *testing.B) {
	bb := setup(b)
	words := []string{"jezabel", "nebuchadnezer", "genisis", "phillipians", "forgivness", "beleive", "comfert",
		"christains", "hopless", "depresed", "texting", "vaping", "bitcoin", "instagram", "procrastinaiting"}
	var lat []time.Duration
	for i := 0; b.Loop(); i++ {
		t0 := time.Now()
		pipeline.NearestSpelling(bb.r, words[i%len(words)])
		lat = append(lat, time.Since(t0))
	}
	reportLatency(b, lat)
}
