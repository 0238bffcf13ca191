package pipeline

import (
	"testing"

	"github.com/selahdev/selah/corpus"
)

// TestParticular: a verse naming someone the KJV writes as a name, or
// telling that something came to pass, is particular; a capital opening
// direct speech is reported speech (particular) unless the KJV marks the
// words as Jesus', which teach.
func TestParticular(t *testing.T) {
	t.Parallel()
	names := map[string]bool{"saul": true, "israel": true}
	isName := func(w string) bool { return names[w] }
	for _, tt := range []struct {
		text   string
		christ bool
		want   bool
	}{
		{"And Saul said unto Samuel his servant, Come, let us return.", false, true},
		{"And they asked them, saying, Is this your son, who ye say was born blind?", false, true},
		{"Marvel not that I said unto thee, Ye must be born again.", true, false},
		{"Hear, O Israel: The LORD our God is one LORD:", true, true},
		{"And it came to pass in those days.", false, true},
		{"Casting all your care upon him; for he careth for you.", false, false},
		{"For God so loved the world, that he gave his only begotten Son.", true, false},
	} {
		v := corpus.Verse{Text: tt.text, WordsOfChrist: tt.christ}
		if got := particular(v, isName); got != tt.want {
			t.Errorf("particular(%q, christ %v) = %v, want %v", tt.text, tt.christ, got, tt.want)
		}
	}
}
