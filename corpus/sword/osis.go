package sword

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Plain is one verse entry rendered as plain text.
type Plain struct {
	// Text is the verse: words only, with the translators' added words
	// (transChange) kept as ordinary text, notes and headings dropped, the
	// paragraph mark removed, and whitespace collapsed.
	Text string
	// Title is a canonical psalm title that stands before verse 1, kept
	// apart from the verse's text.
	Title string
	// Paragraph is set when the verse opens with the KJV's ¶ mark.
	Paragraph bool
}

// breakTags are elements that separate words in the layout (line, line
// group, paragraph, division, chapter and milestone markers), so their
// boundaries count as a space; every other tag is inline (w, transChange,
// divineName, q, seg, foreign) and joins its text to its neighbours.
var breakTags = map[string]bool{
	"l": true, "lg": true, "lb": true, "p": true, "div": true, "chapter": true,
	"milestone": true, "verse": true, "item": true, "list": true,
}

// dropTags are elements whose content is not verse text: study notes
// (with their references, catch words and variant readings), headings that
// are not canonical psalm titles, and speaker labels in the Song of Songs.
var dropTags = map[string]bool{"note": true, "speaker": true}

// PlainText renders one OSIS verse entry as plain text. It reads the
// markup with a small tag scanner rather than an XML decoder: SWORD stores
// each verse as a fragment whose milestone elements (sID/eID pairs) open in
// one verse and close in another, which no XML parser accepts.
func PlainText(raw string) Plain {
	// Module text is UTF-8; anything else must not combine into marks.
	raw = strings.ToValidUTF8(raw, "\uFFFD")
	var text, title strings.Builder
	// drop counts open elements whose content is skipped; inTitle counts
	// open psalm titles, whose content goes to title.
	drop, inTitle, divine := 0, 0, 0
	type open struct {
		name string
		kind int // 0 plain, 1 psalm title, 2 dropped, 3 divine name
	}
	var stack []open
	// gap is set where dropped content (a note) stood: the WEB puts notes
	// between two words with no space around them, so a word that follows
	// one gets a space; punctuation does not.
	gap := false
	write := func(s string) {
		if s == "" {
			return
		}
		if gap && drop == 0 {
			if r, _ := utf8.DecodeRuneInString(s); unicode.IsLetter(r) || unicode.IsDigit(r) {
				s = " " + s
			}
			gap = false
		}
		if divine > 0 {
			// The divine name is printed in small capitals (LORD). Ten
			// entries, all in translators' additions, spell it "Lord"
			// inside the element; "Jah" and "LORD’s" stay as they are.
			s = strings.ReplaceAll(s, "Lord", "LORD")
		}
		switch {
		case drop > 0:
		case inTitle > 0:
			title.WriteString(s)
		default:
			text.WriteString(s)
		}
	}
scan:
	for len(raw) > 0 {
		lt := strings.IndexByte(raw, '<')
		if lt < 0 {
			write(html.UnescapeString(raw))
			break
		}
		write(html.UnescapeString(raw[:lt]))
		gt := strings.IndexByte(raw[lt:], '>')
		if gt < 0 {
			break // a truncated tag: nothing after it is text
		}
		tag := raw[lt+1 : lt+gt]
		raw = raw[lt+gt+1:]
		name, attrs := tagName(tag)
		switch {
		case strings.HasPrefix(tag, "/"): // end tag
			// Close the innermost open element of that name and all inside
			// it. An end tag with no start (the fragment closes something
			// an earlier verse opened) closes nothing.
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i].name != name {
					continue
				}
				for _, o := range stack[i:] {
					switch o.kind {
					case 1:
						inTitle--
					case 2:
						drop--
						gap = true
					case 3:
						divine--
					}
				}
				stack = stack[:i]
				break
			}
			if breakTags[name] || name == "title" {
				write(" ")
			}
		case strings.HasSuffix(tag, "/") || strings.HasPrefix(tag, "!") || strings.HasPrefix(tag, "?"):
			if bookEnd(name, attrs) {
				// What the entry holds after its book ends is not the
				// verse: the WEB stores its glossary (17,000 characters,
				// "dinosaur", "Olympia", "pornography") in Revelation
				// 22:21, after the book's closing milestone.
				break scan
			}
			if breakTags[name] {
				write(" ")
			}
		default: // start tag
			o := open{name: name}
			switch {
			case name == "title" && strings.Contains(attrs, `type="psalm"`):
				o.kind = 1
				inTitle++
			case name == "title" || dropTags[name]:
				o.kind = 2
				drop++
			case name == "divineName":
				o.kind = 3
				divine++
			}
			stack = append(stack, o)
			if breakTags[name] {
				write(" ")
			}
		}
	}
	p := Plain{Text: collapse(text.String()), Title: collapse(title.String())}
	if rest, ok := strings.CutPrefix(p.Text, "¶"); ok {
		p.Paragraph = true
		p.Text = rest
	}
	// The mark never stands inside a KJV verse, but a stray one must not
	// reach the passage text.
	p.Text = collapse(strings.ReplaceAll(p.Text, "¶", ""))
	return p
}

// bookEnd reports whether the empty element name attrs closes a book
// (<div eID="…" osisID="Rev" type="book"/>).
func bookEnd(name, attrs string) bool {
	return name == "div" && strings.Contains(attrs, `type="book"`) && strings.Contains(attrs, "eID=")
}

// tagName splits "w lemma=..." into "w" and the attributes.
func tagName(tag string) (name, attrs string) {
	tag = strings.TrimPrefix(tag, "/")
	tag = strings.TrimSuffix(tag, "/")
	name, attrs, _ = strings.Cut(strings.TrimSpace(tag), " ")
	return name, attrs
}

// collapse trims s and turns each run of white space into one space.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
