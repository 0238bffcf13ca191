package sword

import (
	"slices"
	"strings"
	"testing"

	"github.com/selahdev/selah/corpus"
)

func TestSubtopics(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	raw := `<lb/>→ See <ref target="Nave:FAITH IN CHRIST">x</ref>; <ref target="Nave:UNBELIEF">x</ref> <ref osisRef="Gen.1.1">x</ref> <ref target="Nave:FAITH IN CHRIST">x</ref> <ref target='LOVE'>x</ref>`
	want := []string{"FAITH IN CHRIST", "UNBELIEF", "LOVE"}
	if got := SeeAlso(raw); !slices.Equal(got, want) {
		t.Errorf("SeeAlso = %q, want %q", got, want)
	}
}

// TestParseNave reads made-up markup in each of Nave's shapes: arrow
// lines, numbered senses, continuation lines under a heading, lists with
// heading items and numbered items, see-links, single-chapter links,
// unreadable and unlinked references.
func TestParseNave(t *testing.T) {
	t.Parallel()
	raw := `<entryFree n="X"> <def> <lb/>1. First sense <ref osisRef="Gen.1.1">Ge 1:1</ref>` +
		` <lb/>→ (A heading) <lb/>Under it <ref osisRef="Gen.1.2-Gen.1.3">Ge 1:2-3</ref>; with 2:4` +
		` <lb/>→ Has a list <list> <item>Plain <ref osisRef="Jude.1.1">Jude 1</ref>:21</item>` +
		` <item>Instances of</item> <item>1. One <ref osisRef="Exod.1.1">Ex 1:1</ref></item>` +
		` <item>2. Two <ref osisRef="Exod.1.2">2</ref></item> <item>After <ref osisRef="Wis.2.1">Wis 2:1</ref></item>` +
		` <item>See <ref target="Nave:OTHER">OTHER</ref></item> </list>` +
		` <lb/>.Continued <ref osisRef="Exod.1.3">Ex 1:3</ref> <list> <item>Then <ref osisRef="Exod.1.4">Ex 1:4</ref></item> </list>` +
		` <lb/>2. Second sense <lb/>→ Naomi' s OF <ref target="Nave:GOD">GOD</ref>, LOVE OF` +
		` <lb/>→ Son of <ref osisRef="Mic.2">Micah 2</ref>Ch 34:20; with 35:1,3-4` +
		` <lb/>→ Lone Ac 26:2 <lb/>→ Bookless with 3:4` +
		` <lb/>→ By <ref osisRef="Titus.2">Titus 2</ref><ref osisRef="Col.8.16">Co 8:16</ref>,<ref osisRef="Col.8.17">17</ref></def> </entryFree>`
	tp, is := ParseNave("X", raw)
	type e struct {
		sense  string
		verses string
		see    string
	}
	var got []e
	for i, en := range tp.Entries {
		var vs []string
		for _, v := range en.Verses {
			vs = append(vs, v.First.String()+"-"+v.Last.String())
		}
		got = append(got, e{tp.Sense(i), strings.Join(vs, ";"), strings.Join(en.See, ";")})
	}
	want := []e{
		{"1. First sense", "Genesis 1:1-Genesis 1:1", ""},
		{"1. First sense — (A heading)", "", ""},
		{"1. First sense — (A heading) — Under it", "Genesis 1:2-Genesis 1:3;Genesis 2:4-Genesis 2:4", ""},
		{"1. First sense — Has a list", "", ""},
		{"1. First sense — Has a list — Plain", "Jude 1:21-Jude 1:21", ""},
		{"1. First sense — Has a list — Instances of", "", ""},
		{"1. First sense — Has a list — Instances of — 1. One", "Exodus 1:1-Exodus 1:1", ""},
		{"1. First sense — Has a list — Instances of — 2. Two", "Exodus 1:2-Exodus 1:2", ""},
		{"1. First sense — Has a list — After", "", ""},
		{"1. First sense — Has a list — See OTHER", "", "OTHER"},
		// "</list> <lb/>.Continued <list>" goes on with the list.
		{"1. First sense — Has a list — Continued", "Exodus 1:3-Exodus 1:3", ""},
		{"1. First sense — Has a list — Then", "Exodus 1:4-Exodus 1:4", ""},
		{"2. Second sense", "", ""},
		{"2. Second sense — Naomi's OF GOD, LOVE OF", "", "GOD"},
		// The module's link of "Micah 2" is the number of "2Ch 34:20".
		{"2. Second sense — Son of Micah", "2 Chronicles 34:20-2 Chronicles 34:20;2 Chronicles 35:1-2 Chronicles 35:1;2 Chronicles 35:3-2 Chronicles 35:4", ""},
		{"2. Second sense — Lone", "Acts 26:2-Acts 26:2", ""},
		{"2. Second sense — Bookless with 3:4", "", ""},
		// Its "Titus 2" took the number of "2Co 8:16", and the module
		// read "Co" as Colossians.
		{"2. Second sense — By Titus", "2 Corinthians 8:16-2 Corinthians 8:16;2 Corinthians 8:17-2 Corinthians 8:17", ""},
	}
	if !slices.Equal(got, want) {
		t.Errorf("entries\n%q\nwant\n%q", got, want)
	}
	if !slices.Equal(is.Unreadable, []string{"X: Wis.2.1"}) || !slices.Equal(is.Unlinked, []string{"X: with 3:4"}) {
		t.Errorf("issues %+v", is)
	}
}

// TestParseNaveSeries: a heading item that is one of a series ("Of
// Hezekiah", "Of Jesus") owns the items after it only up to the series'
// next member ("Of Mary Magdalene"), which the flat list of the module
// cannot show by indentation (WEEPING's instances, from the module).
func TestParseNaveSeries(t *testing.T) {
	t.Parallel()
	raw := `<entryFree n="WEEPING"> <def> <lb/>→ INSTANCES OF <list>` +
		` <item>Of Hezekiah <ref osisRef="2Kgs.20.3">2Ki 20:3</ref></item> <item>Of Jesus</item>` +
		` <item>Over Jerusalem <ref osisRef="Luke.19.41">Lu 19:41</ref></item>` +
		` <item>At the grave of Lazarus <ref osisRef="John.11.35">Joh 11:35</ref></item>` +
		` <item>Of Mary Magdalene <ref osisRef="John.20.11">Joh 20:11</ref></item>` +
		` <item>Instances of</item> <item>Peter <ref osisRef="Matt.26.75">Mt 26:75</ref></item>` +
		` <item>Of Paul <ref osisRef="Acts.20.19">Ac 20:19</ref></item> </list> </def> </entryFree>`
	tp, _ := ParseNave("WEEPING", raw)
	var got []string
	for i := range tp.Entries {
		got = append(got, tp.Sense(i))
	}
	want := []string{
		"INSTANCES OF",
		"INSTANCES OF — Of Hezekiah",
		"INSTANCES OF — Of Jesus",
		"INSTANCES OF — Of Jesus — Over Jerusalem",
		"INSTANCES OF — Of Jesus — At the grave of Lazarus",
		"INSTANCES OF — Of Mary Magdalene",
		// A heading of no series keeps the items after it, whatever
		// their first word.
		"INSTANCES OF — Instances of",
		"INSTANCES OF — Instances of — Peter",
		"INSTANCES OF — Instances of — Of Paul",
	}
	if !slices.Equal(got, want) {
		t.Errorf("entries\n%q\nwant\n%q", got, want)
	}
}

// TestNaveTopicsIssues reads the whole module: every topic, and the
// references that give no verses reported with their topic.
func TestNaveTopicsIssues(t *testing.T) {
	t.Parallel()
	topics, is, err := openNave(t).NaveTopics()
	if err != nil {
		t.Fatal(err)
	}
	if len(topics) != 5320 {
		t.Errorf("%d topics, want 5320 (5,322 records, SIN and REVERENCE twice)", len(topics))
	}
	// The references Nave leaves as text ("with 1:6-18") and those whose
	// number the module took into the link before them ("Azariah 2</ref>Ki
	// 15:5", once linked to the Prayer of Azariah; "Titus 2</ref><ref
	// osisRef="Col.8.16">Co 8:16", 2 Corinthians) are all read; what
	// remains names verses the KJV does not have (Mark 18).
	if len(is.Unreadable) != 5 || !slices.Contains(is.Unreadable, "MIRACLES: Mark.18.42") {
		t.Errorf("%d unreadable %q", len(is.Unreadable), is.Unreadable)
	}
	if len(is.Unlinked) != 0 {
		t.Errorf("%d unlinked, first %q", len(is.Unlinked), is.Unlinked[:min(5, len(is.Unlinked))])
	}
	want := map[string]string{
		"RUTH":    "Ruth 1:6-18", // "Ru 1:16,17; with 1:6-18"
		"ABDON":   "2 Chronicles 34:20",
		"LEPROSY": "2 Kings 15:5",
		"CORINTH": "2 Corinthians 8:16",
	}
	for _, tp := range topics {
		ref, ok := want[tp.Title]
		if !ok {
			continue
		}
		r, err := corpus.ParseReference(ref)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, e := range tp.Entries {
			for _, v := range e.Verses {
				if v.First == r.First() && v.Last == r.Last() {
					found = true
				}
				if tp.Title == "ABDON" && v.First.Book() == 33 || tp.Title == "CORINTH" && v.First.Book() == 56 {
					t.Errorf("%s still lists the link that took the book's number: %q %v", tp.Title, e.Phrase, v)
				}
			}
		}
		if !found {
			t.Errorf("%s lists no %s", tp.Title, ref)
		}
	}
}
