package sword

import (
	"html"
	"strings"
)

// Word is one word (or phrase) of a verse that the module tags with the
// Strong's numbers of the Hebrew or Greek word it translates: the KJV's
// <w lemma="strong:G25">loved</w>.
type Word struct {
	Text string
	// Strongs are the numbers of the lemma attribute, normalized ("G25").
	Strongs []string
}

// Words returns the Strong's-tagged words of one OSIS verse entry in
// order. Text outside <w> elements (the translators' added words of the
// KJV, punctuation) is not a word here; notes and headings are skipped as
// in PlainText, and so are psalm titles, which stand apart from the verse.
func Words(raw string) []Word {
	raw = strings.ToValidUTF8(raw, "\uFFFD")
	var out []Word
	var cur *Word
	var text strings.Builder
	type open struct {
		name string
		drop bool
	}
	var stack []open
	drop := 0
	for len(raw) > 0 {
		lt := strings.IndexByte(raw, '<')
		if lt < 0 {
			lt = len(raw)
		}
		if cur != nil && drop == 0 {
			text.WriteString(raw[:lt])
		}
		if lt == len(raw) {
			break
		}
		gt := strings.IndexByte(raw[lt:], '>')
		if gt < 0 {
			break
		}
		tag := raw[lt+1 : lt+gt]
		raw = raw[lt+gt+1:]
		name, attrs := tagName(tag)
		switch {
		case strings.HasPrefix(tag, "/"):
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i].name != name {
					continue
				}
				for _, o := range stack[i:] {
					if o.drop {
						drop--
					}
				}
				stack = stack[:i]
				break
			}
			if name == "w" && cur != nil {
				cur.Text = collapse(html.UnescapeString(text.String()))
				if cur.Text != "" && len(cur.Strongs) > 0 {
					out = append(out, *cur)
				}
				cur = nil
				text.Reset()
			}
		case strings.HasSuffix(tag, "/") || strings.HasPrefix(tag, "!") || strings.HasPrefix(tag, "?"):
		default:
			o := open{name: name, drop: name == "title" || dropTags[name]}
			if o.drop {
				drop++
			}
			stack = append(stack, o)
			if name == "w" && drop == 0 {
				cur = &Word{Strongs: lemmaNumbers(attrs)}
				text.Reset()
			}
		}
	}
	return out
}

// lemmaNumbers reads the Strong's numbers of a lemma attribute
// ("strong:H0853 strong:H0430"; other schemes such as lemma.TR are
// skipped).
func lemmaNumbers(attrs string) []string {
	var out []string
	for _, m := range attrValue(attrs, "lemma") {
		if n, ok := NormalizeStrongs(m); ok && strings.HasPrefix(m, "strong:") {
			out = append(out, n)
		}
	}
	return out
}

// attrValue returns the space-separated tokens of attribute name.
func attrValue(attrs, name string) []string {
	for attrs != "" {
		i := strings.Index(attrs, name+"=")
		if i < 0 {
			return nil
		}
		if i > 0 && attrs[i-1] != ' ' {
			attrs = attrs[i+len(name)+1:]
			continue
		}
		v := attrs[i+len(name)+1:]
		if v == "" || (v[0] != '"' && v[0] != '\'') {
			return nil
		}
		end := strings.IndexByte(v[1:], v[0])
		if end < 0 {
			return nil
		}
		return strings.Fields(html.UnescapeString(v[1 : 1+end]))
	}
	return nil
}

// Aligned is one Strong's lemma of a verse with the words two translations
// render it by.
type Aligned struct {
	Strongs string
	KJV     string // the KJV's word for it ("loved")
	WEB     string // the WEB's word for it, "" when the WEB tags none
}

// Align pairs the words of one verse in the KJV and the WEB by the
// Strong's numbers both modules tag them with: the k-th KJV word of a
// lemma with the k-th WEB word of the same lemma, in KJV order. Both
// modules carry the tags, so this is a word alignment learned from the
// data rather than written by hand ("believeth" - "believes" by G4100,
// "everlasting" - "eternal" by G166). The WEB's tagging is looser than
// the KJV's (it tags some function words with a neighbour's number), so a
// pair is evidence, not a dictionary entry.
func Align(kjv, web []Word) []Aligned {
	queue := map[string][]string{}
	for _, w := range web {
		for _, n := range w.Strongs {
			queue[n] = append(queue[n], w.Text)
		}
	}
	var out []Aligned
	for _, w := range kjv {
		for _, n := range w.Strongs {
			a := Aligned{Strongs: n, KJV: w.Text}
			if q := queue[n]; len(q) > 0 {
				a.WEB, queue[n] = q[0], q[1:]
			}
			out = append(out, a)
		}
	}
	return out
}
