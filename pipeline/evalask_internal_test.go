package pipeline

import "testing"

// TestNamesAny: a speaker counts as named only in the answer's own words,
// not in the verses it quotes, whatever the case.
func TestNamesAny(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text  string
		names []string
		want  bool
	}{
		{"Cain said these words, in Genesis 4:9.", []string{"Cain"}, true},
		{`Genesis 4:9 reads: "And the LORD said unto Cain, Where is Abel thy brother?" (Genesis 4:9).`, []string{"Cain"}, false},
		{"The LORD spoke them (Genesis 1:3).", []string{"God", "the LORD"}, true},
		{"Pontius Pilate asked it (John 18:38).", []string{"Pilate"}, true},
		{"Pilates are not in it.", []string{"Pilate"}, false},
		{"Cainan begat Mahalaleel (Genesis 5:12).", []string{"Cain"}, false},
	}
	for _, tt := range tests {
		if got := namesAny(tt.text, tt.names); got != tt.want {
			t.Errorf("namesAny(%q, %q) = %v, want %v", tt.text, tt.names, got, tt.want)
		}
	}
}
