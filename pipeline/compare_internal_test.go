package pipeline

import "testing"

// TestComparison: the forms a question comparing two things takes, and
// questions that only look like one.
func TestComparison(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		question string
		x, y     string // "" when it is no comparison
	}{
		{"What is the difference between grace and mercy?", "grace", "mercy"},
		{"whats the difference between the soul and the spirit in the bible", "the soul", "the spirit"},
		{"Is there a difference between sin and iniquity?", "sin", "iniquity"},
		{"Difference between justification and sanctification", "justification", "sanctification"},
		{"Pharisees vs. Sadducees", "pharisees", "sadducees"},
		{"grace versus works", "grace", "works"},
		{"How is faith different from hope?", "faith", "hope"},
		{"How does the law differ from grace?", "the law", "grace"},
		{"Is Sheol the same as hell?", "sheol", "hell"},
		{"Are a prophet and a seer the same thing?", "a prophet", "a seer"},
		{"What separates a psalm from a proverb", "a psalm", "a proverb"},
		{"compare Peter with Judas", "peter", "judas"},
		{"Moses compared to Elijah — which is it?", "moses", "elijah"},
		{"Jacob vs Esau: who got the blessing", "jacob", "esau"},
		{"the passover vs the feast of unleavened bread (the same feast?)", "the passover", "the feast of unleavened bread"},
		{"hades vs gehenna what is the difference", "hades", "gehenna"},
		{"Herod the Great vs Herod Antipas - same person?", "herod the great", "herod antipas"},
		// Not comparing two things.
		{"Who was Ruth?", "", ""},
		{"Is it wrong to be angry?", "", ""},
		{"What is the difference?", "", ""},
		{"Are angels real?", "", ""},
		{"How is Jesus the Son of God?", "", ""},
		{"Is grace the same as grace?", "", ""},
	} {
		sides, ok := comparison(c.question)
		if ok != (c.x != "") || ok && (sides[0] != c.x || sides[1] != c.y) {
			t.Errorf("comparison(%q) = %q %v, want %q %q", c.question, sides, ok, c.x, c.y)
		}
	}
}
