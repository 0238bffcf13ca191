package sword

import (
	"html"
	"regexp"
	"slices"
	"strings"
)

// Subtopic is one section of a Nave entry: the heading Nave writes after
// an arrow ("LOVE OF", "General scriptures concerning") and the markup up
// to the next heading, references and lists included.
type Subtopic struct {
	Heading string
	Raw     string
}

// subtopicMark opens a section: Nave starts each on a new line with an
// arrow.
const subtopicMark = "<lb/>→"

// Subtopics splits a Nave entry into its sections in document order. Text
// before the first heading (a few entries have no headings at all) is a
// section with an empty heading, left out when it holds no reference.
// Headings repeat in some entries ("Exemplified" twice under AFFLICTIONS
// AND ADVERSITIES); each occurrence is its own section.
//
// Large entries such as GOD gather what other topics point to ("See GOD,
// MERCY OF"), so a section is the precise source of a reference.
func Subtopics(raw string) []Subtopic {
	parts := strings.Split(raw, subtopicMark)
	var out []Subtopic
	if strings.Contains(parts[0], "<ref") {
		out = append(out, Subtopic{Raw: parts[0]})
	}
	for _, p := range parts[1:] {
		head, _, _ := strings.Cut(p, "<")
		out = append(out, Subtopic{Heading: collapse(html.UnescapeString(head)), Raw: p})
	}
	return out
}

// SubtopicRaw returns the markup of the sections of raw whose heading is
// heading, compared without regard to case or runs of white space and
// joined in document order; ok is false when there is none.
func SubtopicRaw(raw, heading string) (section string, ok bool) {
	heading = collapse(heading)
	var b strings.Builder
	for _, s := range Subtopics(raw) {
		if strings.EqualFold(s.Heading, heading) {
			b.WriteString(s.Raw)
			ok = true
		}
	}
	return b.String(), ok
}

// targetAttr finds links to other entries ("Nave:FAITH IN CHRIST").
var targetAttr = regexp.MustCompile(`\btarget\s*=\s*(?:"([^"]*)"|'([^']*)')`)

// SeeAlso returns the keys of the other entries an entry refers to (Nave's
// "See FAITH IN CHRIST" is <ref target="Nave:FAITH IN CHRIST">), without
// the module prefix, in document order and each once. Nave points at many
// keys it does not have (it writes "See GOD, MERCY OF" for a section of
// GOD), so callers look the keys up before relying on them.
func SeeAlso(raw string) []string {
	var keys []string
	for _, m := range targetAttr.FindAllStringSubmatch(raw, -1) {
		t := html.UnescapeString(m[1] + m[2])
		if _, key, ok := strings.Cut(t, ":"); ok {
			t = key
		}
		if t = strings.TrimSpace(t); t != "" && !slices.Contains(keys, t) {
			keys = append(keys, t)
		}
	}
	return keys
}
