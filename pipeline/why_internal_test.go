package pipeline

import "testing"

// TestReasonQuestion: the frames of a why-question, and questions that
// only look like one.
func TestReasonQuestion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		q, event string
	}{
		{"Why did God destroy Sodom?", "god destroy sodom"},
		{"why didn't the people of nineveh perish", "the people of nineveh perish"},
		{"how come esau sold his birthright", "esau sold his birthright"},
		{"What was the reason the temple veil tore?", "the temple veil tore"},
		{"for what reason did Paul go to Rome", "paul go to rome"},
		{"why was Jerusalem destroyed according to the bible", "jerusalem destroyed"},
		{"I keep wondering about this. Why did Elisha curse the boys?", "elisha curse the boys"},
	}
	for _, tt := range tests {
		event, ok := reasonQuestion(tt.q)
		if !ok || event != tt.event {
			t.Errorf("reasonQuestion(%q) = %q ok %v, want %q", tt.q, event, ok, tt.event)
		}
	}
	for _, q := range []string{
		"who said am I my brother's keeper",
		"what does the bible say about anger",
		"Who was Melchizedek?",
		"why",
		"what is the reason",
		// The present tense asks about a teaching.
		"why do we pray",
		"Why is pride a sin?",
		"what is the reason for suffering",
		// One word is no event to search for the reason of.
		"what was the reason behind circumcision",
	} {
		if event, ok := reasonQuestion(q); ok {
			t.Errorf("reasonQuestion(%q) = %q, want no why-question", q, event)
		}
	}
}

// TestReasonStrength: how plainly a verse gives a reason, read in the
// KJV's and the WEB's wording.
func TestReasonStrength(t *testing.T) {
	t.Parallel()
	tests := []struct {
		clause string
		re     int // index in reasonStartsKJV, -1: none
	}{
		{"And Jonah went, because the LORD had spoken", 0},
		{"lest he put forth his hand", 1},
		{"that ye might believe", 1},
		{"and they went on; for the day was far spent", 2},
		{"Wherefore he called the name of that place Bethel", 2},
		{"And he went up to the mountain to pray", -1},
		{"and he prayed for them", -1},
	}
	for _, tt := range tests {
		got := -1
		for i, re := range reasonStartsKJV {
			if re.MatchString(tt.clause) {
				got = i
				break
			}
		}
		if got != tt.re {
			t.Errorf("%q: reason kind %d, want %d", tt.clause, got, tt.re)
		}
	}
}
