package sword

import (
	"slices"
	"testing"
)

func TestSubtopics(t *testing.T) {
	raw := "<entryFree n=\"X\">\n<def>\n<lb/>X <ref osisRef=\"Gen.1.1\">Ge 1:1</ref>\n<lb/>→ General scriptures concerning <ref osisRef=\"Gen.1.2\">Ge 1:2</ref>\n" +
		"<lb/>→ See <ref target=\"Nave:Y\">Y</ref>\n<lb/>→ OF  GOD\n<list>\n<item>A <ref osisRef=\"Gen.1.3\">3</ref></item>\n</list>\n" +
		"<lb/>→ &#8220;IN HIS NAME.&#8221; <ref osisRef=\"Gen.1.4\">4</ref></def>\n</entryFree>"
	want := []string{"", "General scriptures concerning", "See", "OF GOD", "“IN HIS NAME.”"}
	var got []string
	for _, s := range Subtopics(raw) {
		got = append(got, s.Heading)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("headings %q, want %q", got, want)
	}
	sec, ok := SubtopicRaw(raw, "of god")
	if ids, _ := ScriptureRefs(sec); !ok || !slices.Equal(ids, expand(t, "Genesis 1:3")) {
		t.Errorf("SubtopicRaw(of god) = %q, %v: refs %v", sec, ok, ids)
	}
	if _, ok := SubtopicRaw(raw, "OF"); ok {
		t.Error("SubtopicRaw matched a heading prefix")
	}
	if s := Subtopics("<entryFree><def>no refs</def></entryFree>"); len(s) != 0 {
		t.Errorf("an entry without references or headings has sections %q", s)
	}
}

// TestSubtopicsNave reads sections of real entries: the references of a
// section are its own, not its neighbours'.
func TestSubtopicsNave(t *testing.T) {
	l := openNave(t)
	cases := []struct {
		key, heading string
		has, hasNot  []string
	}{
		{"GOD", "LOVE OF", []string{"John 3:16", "1 John 4:8"}, []string{"Genesis 1:1"}},
		{"GOD", "CREATOR", []string{"Genesis 1:1"}, []string{"John 3:16"}},
		{"JESUS, THE CHRIST", "RESURRECTION OF", []string{"Matthew 28:6"}, []string{"John 3:16"}},
		{"AFFLICTIONS AND ADVERSITIES", "CONSOLATION IN", []string{"Psalms 23:4"}, nil},
		{"LOVE", "OF MAN FOR GOD", []string{"Deuteronomy 6:5"}, []string{"John 13:34"}},
	}
	for _, c := range cases {
		t.Run(c.key+"/"+c.heading, func(t *testing.T) {
			raw, err := l.Entry(c.key)
			if err != nil {
				t.Fatal(err)
			}
			sec, ok := SubtopicRaw(raw, c.heading)
			if !ok {
				t.Fatalf("no section %q", c.heading)
			}
			ids, _ := ScriptureRefs(sec)
			for _, id := range expand(t, c.has...) {
				if _, ok := slices.BinarySearch(ids, id); !ok {
					t.Errorf("%s missing", id)
				}
			}
			for _, id := range expand(t, c.hasNot...) {
				if _, ok := slices.BinarySearch(ids, id); ok {
					t.Errorf("%s listed", id)
				}
			}
		})
	}
}

func TestSeeAlso(t *testing.T) {
	raw := `<lb/>→ See <ref target="Nave:FAITH IN CHRIST">x</ref>; <ref target="Nave:UNBELIEF">x</ref> <ref osisRef="Gen.1.1">x</ref> <ref target="Nave:FAITH IN CHRIST">x</ref> <ref target='LOVE'>x</ref>`
	want := []string{"FAITH IN CHRIST", "UNBELIEF", "LOVE"}
	if got := SeeAlso(raw); !slices.Equal(got, want) {
		t.Errorf("SeeAlso = %q, want %q", got, want)
	}
}
