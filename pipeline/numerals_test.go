package pipeline

import "testing"

func TestSpellNumerals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in    string
		want  string
		stray int
	}{
		{"the 10 commandments", "the ten commandments", 0},
		{"40 days in the wilderness", "forty days in the wilderness", 0},
		{"how did Jesus feed the 5000", "how did Jesus feed the five thousand", 0},
		{"feed the 5,000", "feed the five thousand", 0},
		{"the 144000", "the a hundred forty four thousand", 0},
		{"the 100 sheep", "the a hundred sheep", 0},
		{"23 and 7", "twenty three and seven", 0},
		{"what happened on the 3rd day", "what happened on the third day", 0},
		{"the 12th hour, the 40th year, the 1st day", "the twelfth hour, the fortieth year, the first day", 0},
		// References are not numbers.
		{"What does John 3:16 mean?", "What does John 3:16 mean?", 0},
		{"1 Corinthians 13 love is patient", "1 Corinthians 13 love is patient", 0},
		{"Psalm 23", "Psalm 23", 0},
		// Neither spelled nor a word never seen: a share, an age.
		{"tithe 10% of my income", "tithe 10% of my income", 0},
		{"our 25-year-old son", "our 25-year-old son", 0},
		{"a 50 year old woman", "a 50 year old woman", 0},
		// Numbers no verse writes: words never seen.
		{"Who won the Super Bowl in 2020?", "Who won the Super Bowl in 2020?", 1},
		{"solve 3x + 7 = 22", "solve 3x + seven = twenty two", 1},
		{"derivative of sin(x)^2", "derivative of sin(x)^2", 1},
		{"16:8 fasting", "16:8 fasting", 2},
		{"1234567", "1234567", 1},
	}
	for _, tt := range tests {
		if got := spellNumerals(tt.in); got != tt.want {
			t.Errorf("spellNumerals(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := strayNumerals(spellNumerals(tt.in)); got != tt.stray {
			t.Errorf("strayNumerals(%q) = %d, want %d", tt.in, got, tt.stray)
		}
	}
}

func FuzzSpellNumerals(f *testing.F) {
	for _, s := range []string{"the 10 commandments", "John 3:16", "5,000,000", "1st", "9,99", "3x^2", "0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := spellNumerals(s)
		if spellNumerals(out) != out {
			t.Errorf("spellNumerals is not idempotent on %q: %q", s, out)
		}
		_ = strayNumerals(out)
	})
}
