package pipeline

import (
	"slices"
	"strings"
	"testing"
)

func TestPhraseIndex(t *testing.T) {
	t.Parallel()
	kjv := []string{
		"I can do all things through Christ which strengtheneth me.",
		"And it came to pass, that he went.",
		"And it came to pass in those days.",
		"He that loveth not knoweth not God; for God is love.",
		"And it came to pass.",
		"And it came to pass again.",
		"And it came to pass once more.",
		"And it came to pass at last.",
	}
	web := []string{"I can do all things through Christ, who strengthens me.", "", "", "", "", "", "", ""}
	tests := []struct {
		name  string
		noWeb bool
		q     string
		want  []int32
	}{
		{"stop words only", false, "I can do all things", []int32{0}},
		{"case and punctuation", false, "GOD IS LOVE!", []int32{3}},
		{"the WEB wording", false, "Christ who strengthens", []int32{0}},
		{"the WEB left out", true, "Christ who strengthens", nil},
		{"too short", false, "God is", nil},
		{"words out of order", false, "love is God", nil},
		{"common turn of phrase", false, "and it came to pass", nil},
		{"not across verses", false, "strengthens me and it", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := buildPhraseIndex(kjv, web, tt.noWeb)
			if got := p.match(tt.q); !slices.Equal(got, tt.want) {
				t.Errorf("match(%q) = %v, want %v", tt.q, got, tt.want)
			}
		})
	}
}

// TestPhraseRuns: a rare run of a question's words finds its verses where
// the lexical index sees only one word ("born again": "again" is a stop
// word), but not a run of stop words, a common turn of phrase, or a run
// shorter than phraseMinWords.
func TestPhraseRuns(t *testing.T) {
	t.Parallel()
	kjv := []string{
		"Marvel not that I said unto thee, Ye must be born again.",
		"For unto you is born this day in the city of David a Saviour.",
		"And it came to pass, that he went.",
		"And it came to pass in those days.",
		"And it came to pass.",
		"And it came to pass again.",
		"And it came to pass once more.",
		"And it came to pass at last.",
	}
	p := buildPhraseIndex(kjv, make([]string, len(kjv)), false)
	for _, tt := range []struct {
		q    string
		want []int32
	}{
		{"What does it mean to be born again?", []int32{0}},
		// The longest run from each word: "born this day in the city".
		{"was Jesus born this day in the city of Rome", []int32{1}},
		{"why must it be so", nil},
		{"what does and it came to pass mean", nil},
		{"born again", nil},
	} {
		if got := p.runs(tt.q); !slices.Equal(got, tt.want) {
			t.Errorf("runs(%q) = %v, want %v", tt.q, got, tt.want)
		}
	}
}

// BenchmarkPhraseMatch measures one phrase search over a Bible-sized index
// (31,102 verses, KJV and WEB lines of 25 words each) for a phrase of
// words that every verse holds but none in that order: the worst case,
// every verse a candidate.
func BenchmarkPhraseMatch(b *testing.B) {
	words := strings.Fields("and the lord said unto moses behold i will send thee to pharaoh that thou mayest bring forth my people out of egypt for i am with thee")
	kjv := make([]string, 31102)
	for i := range kjv {
		var sb strings.Builder
		for j := range 25 {
			sb.WriteString(words[(i*7+j*3)%len(words)])
			sb.WriteByte(' ')
		}
		kjv[i] = sb.String()
	}
	p := buildPhraseIndex(kjv, kjv, false)
	for b.Loop() {
		p.match("the and lord thee unto")
	}
}
