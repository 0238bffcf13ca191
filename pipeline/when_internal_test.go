package pipeline

import "testing"

// TestWhenQuestion: the frames of a when-question, and questions that
// only look like one.
func TestWhenQuestion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		q    string
		want whenAsk
	}{
		{"When was Jesus born?", whenAsk{Event: "jesus born"}},
		{"when did the exile happen", whenAsk{Event: "the exile"}},
		{"What hour did Jesus die on the cross?", whenAsk{Event: "hour jesus die on the cross", Unit: "hour"}},
		{"in what year of his reign did Josiah keep the passover", whenAsk{Event: "year of his reign josiah keep the passover", Unit: "year"}},
		{"At what age did Moses flee to Midian?", whenAsk{Event: "moses flee to midian", Age: true}},
		{"how old was Abram when he left Haran", whenAsk{Event: "abram when he left haran", Age: true}},
		{"how long did the famine in egypt last", whenAsk{Event: "the famine in egypt", Long: true}},
		{"On what day of the week did the disciples break bread at Troas?", whenAsk{Event: "day the disciples break bread at troas", Unit: "day"}},
		{"I always wondered. When did Paul go to Rome in the bible?", whenAsk{Event: "paul go to rome"}},
	}
	for _, tt := range tests {
		ask, ok := whenQuestion(tt.q)
		if !ok || ask.Event != tt.want.Event || ask.Unit != tt.want.Unit || ask.Age != tt.want.Age || ask.Long != tt.want.Long {
			t.Errorf("whenQuestion(%q) = %+v ok %v, want %+v", tt.q, ask, ok, tt.want)
		}
	}
	for _, q := range []string{
		"when",
		"who was Melchizedek?",
		"what does the bible say about time",
		// The present and the future ask about a teaching.
		"when is the sabbath",
		"when will jesus come back",
		"what should I do when I feel afraid",
		// An age without an event is a count (asksQuantity).
		"how old was Methuselah",
		// One word is no event to search for the time of.
		"when did it happen",
	} {
		if ask, ok := whenQuestion(q); ok {
			t.Errorf("whenQuestion(%q) = %+v, want no when-question", q, ask)
		}
	}
}
