package pipeline

import "testing"

func TestExistenceSubject(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q, want string
		ok      bool
	}{
		{"Does the Bible mention leprosy?", "leprosy", true},
		{"does scripture ever talk about mercy killing", "mercy killing", true},
		{"Does the Bible say anything about gambling or lotteries?", "gambling or lotteries", true},
		{"does the KJV speak of the millennium", "the millennium", true},
		{"Does the Bible say we should obey rulers?", "we should obey rulers", true},
		{"Does God's word forbid eating blood?", "eating blood", true},
		{"where does it say to honor your parents", "honor your parents", true},
		{"Where in the Bible does it talk about singing?", "singing", true},
		{"where in the bible is Nineveh mentioned", "Nineveh", true},
		{"Where is purgatory in the Bible?", "purgatory", true},
		{"Is purgatory in the Bible?", "purgatory", true},
		{"is the sabbath actually in the bible", "the sabbath", true},
		{"Are demons mentioned in scripture?", "demons", true},
		{"is infant baptism biblical", "infant baptism", true},
		{"Were there lions in the Bible?", "lions", true},
		{"Is there a verse about patience?", "patience", true},
		{"is there any bible verse on hospitality", "hospitality", true},
		{"Is there a passage in the Bible about adoption?", "adoption", true},
		{"is there a verse that says money is the root of evil", "money is the root of evil", true},
		{"is there a verse where it says god helps those who help themselves", "god helps those who help themselves", true},
		{"Is there any mention of cats in the Bible?", "cats", true},

		{"What does the Bible say about money?", "", false},
		{"Is laziness a sin?", "", false},
		{"is anger a sin at all", "", false},
		{"Is there a God?", "", false},
		{"is there hope for me", "", false},
		{"Is it in the Bible?", "", false},
		{"Did Jesus ever say anything about hell?", "", false},
		{"Who was Timothy in the Bible?", "", false},
		{"Is Jesus God?", "", false},
		{"is there a verse about it", "", false},
	} {
		got, ok := existenceSubject(c.q)
		if got != c.want || ok != c.ok {
			t.Errorf("existenceSubject(%q) = %q, %v; want %q, %v", c.q, got, ok, c.want, c.ok)
		}
	}
}
