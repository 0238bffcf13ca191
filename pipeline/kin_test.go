package pipeline_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/selahdev/selah/pipeline"
)

// The family questions below are my own, written for the forty-sixth
// round; none is a question of kindev.jsonl or kinhold.jsonl.

// TestKinQuestion: the frames a family question is put in, the relation
// they ask and whom of.
func TestKinQuestion(t *testing.T) {
	t.Parallel()
	b := setup(t)
	tests := []struct {
		q       string
		rel     string
		person  []string
		other   []string
		unknown bool
	}{
		{"Who was King Saul's father?", "parent/m", []string{"saul"}, nil, false},
		{"who was the mother of king hezekiah", "parent/f", []string{"hezekiah"}, nil, false},
		{"whose daughter was Rebekah", "parent", []string{"rebekah"}, nil, false},
		{"who did boaz marry", "spouse", []string{"boaz"}, nil, false},
		{"who was Abigail married to", "spouse", []string{"abigail"}, nil, false},
		{"what were the names of aaron's sons", "child/m", []string{"aaron"}, nil, false},
		{"nabal wife name", "spouse/f", []string{"nabal"}, nil, false},
		{"how was mordecai related to esther", "", []string{"mordecai"}, []string{"esther"}, false},
		{"did samson have a wife", "spouse/f", []string{"samson"}, nil, false},
		{"Who was Hercules' mother?", "parent/f", nil, nil, true},
		{"Who was Saul Bellow's father?", "parent/m", []string{"saul"}, nil, true},
	}
	for _, tt := range tests {
		rel, person, other, unknown, ok := pipeline.KinQuestion(b.r, tt.q)
		if !ok || rel != tt.rel || !slices.Equal(person, tt.person) || !slices.Equal(other, tt.other) || unknown != tt.unknown {
			t.Errorf("KinQuestion(%q) = %q %v %v unknown %v ok %v, want %q %v %v unknown %v", tt.q, rel, person, other, unknown, ok,
				tt.rel, tt.person, tt.other, tt.unknown)
		}
	}
	for _, q := range []string{
		"what happened to david's son absalom",
		"what does the bible say about fathers",
		"How should a husband treat his wife?",
		"Who was Melchizedek?",
	} {
		if rel, person, _, _, ok := pipeline.KinQuestion(b.r, q); ok {
			t.Errorf("KinQuestion(%q) = %q %v, want no family question", q, rel, person)
		}
	}
}

// TestKinFacts: the relations Nave's states, read whatever way it writes
// them.
func TestKinFacts(t *testing.T) {
	t.Parallel()
	b := setup(t)
	facts := pipeline.KinFacts(b.r.Router.(*pipeline.NaveRouter))
	for _, want := range []string{
		"Jesse was the father of David",            // JESSE: "Father of David"
		"Bath-sheba was the mother of Solomon",     // BATH-SHEBA: "Solomon's mother"
		"Solomon was a son of Bath-sheba",          // SOLOMON: "Son of David by Bath-sheba"
		"Laban was the uncle of Jacob",             // JACOB: "Sojourns in Haran with his uncle, Laban"
		"Joab was a son of David's sister",         // JOAB: "Son of David's sister"
		"Zebedee was the father of James and John", // ZEBEDEE: "Father of James and John"
		"Rebekah was the wife of Isaac",            // REBEKAH: "Becomes Isaac's wife"
		"Hannah was the mother of Samuel",          // HANNAH: "(The mother of Samuel)"
	} {
		if !slices.Contains(facts, want) {
			t.Errorf("no fact %q", want)
		}
	}
	for _, bad := range []string{
		"Instability was the wife of Lot", // a theme's instance
		"Jesus was a son of David",        // a title, under NAMES, APPELLATIONS, AND TITLES OF
		"Joab was a son of David",         // the possessive read
	} {
		if slices.Contains(facts, bad) {
			t.Errorf("fact %q, want none", bad)
		}
	}
}

// TestAnswerKin: a family question is answered by the relation, cited
// to a verse stating it; a person's relative through a third; someone
// the Bible does not name is declined.
func TestAnswerKin(t *testing.T) {
	t.Parallel()
	b := setup(t)
	checkFirstSays(t, b, "Who was King Saul's father?", "1 Samuel", "Kish was the father of Saul")
	checkFirstSays(t, b, "who was the mother of king solomon", "1 Kings 1:11", "Bath-sheba was the mother of Solomon")
	ans := checkFirstSays(t, b, "how is lot related to abraham", "Genesis 11:2", "Haran was the father of Lot")
	if want := "Haran was a brother of Abraham"; !strings.Contains(ans.Text, want) {
		t.Errorf("answers %q, want it to say %q", ans.Text, want)
	}
	if ans.Summary != "Haran was the father of Lot (Genesis 11:27; Genesis 11:31)." {
		t.Errorf("summary %q, want the first relation", ans.Summary)
	}
	// A plural question names the relatives, not the person asked about
	// (ABIGAIL's "marriage to David" makes no wife of David of David).
	ans = b.ask(t, "who were the wives of king david")
	if !strings.Contains(ans.Text, "were wives of David") || strings.Contains(ans.Text, "and David were") {
		t.Errorf("answers %q, want the wives of David named", ans.Text)
	}
	for _, q := range []string{"Who was Hercules' mother?", "who was Saul Bellow's father"} {
		if ans := b.ask(t, q); !ans.NoPassage {
			t.Errorf("%q cites %v, want no passage", q, refs(ans))
		}
	}
}
