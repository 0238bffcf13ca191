package sword

import (
	"html"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/selahdev/selah/corpus"
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

// NaveIssues are the references ParseNave could not turn into verses, each
// prefixed by its topic ("RUTH: with 1:6-18"), so ingest can report them
// rather than drop them silently.
type NaveIssues struct {
	// Unreadable are osisRef links that name no KJV verse: books outside
	// the 66, verses the KJV does not have, malformed or backward ranges.
	Unreadable []string
	// Unlinked are references Nave wrote as plain text without a link
	// ("Ru 1:16,17; with 1:6-18"): they are kept out of the phrase and
	// give no verses.
	Unlinked []string
}

// NaveTopics reads every topic of a Nave lexicon, in index order. A key
// the index holds twice (SIN, REVERENCE) is one topic with the entries of
// both records.
func (l *Lexicon) NaveTopics() ([]corpus.NaveTopic, NaveIssues, error) {
	var topics []corpus.NaveTopic
	var issues NaveIssues
	at := map[string]int{}
	err := l.Each(func(key, raw string) error {
		t, is := ParseNave(key, raw)
		issues.Unreadable = append(issues.Unreadable, is.Unreadable...)
		issues.Unlinked = append(issues.Unlinked, is.Unlinked...)
		u := strings.ToUpper(key)
		if i, ok := at[u]; ok {
			base := len(topics[i].Entries)
			for _, e := range t.Entries {
				if e.Parent >= 0 {
					e.Parent += base
				}
				topics[i].Entries = append(topics[i].Entries, e)
			}
			return nil
		}
		at[u] = len(topics)
		topics = append(topics, t)
		return nil
	})
	if err != nil {
		return nil, issues, err
	}
	return topics, issues, nil
}

// naveTag finds the markup of a Nave entry: tags, with the text of a
// <ref> element taken together with it.
var naveTag = regexp.MustCompile(`(?s)<ref\b([^>]*)>(.*?)</ref\s*>|<(/?)([a-zA-Z]+)[^>]*?(/?)>`)

// maxVerseListTail bounds the markup after a link that is searched for
// the verse list of a single-chapter book ("</ref>:4,5,7-8; ").
const maxVerseListTail = 80

// numbered opens a numbered sense ("1. An apostle.") or item ("2. Conspiracy").
var numbered = regexp.MustCompile(`^\d+\.\s`)

// unlinkedRef finds references left as text: "with 1:6-18", "Ge 14:18".
var unlinkedRef = regexp.MustCompile(`(?:\bwith\s+)?(?:\b[1-3]?[A-Z][a-z]*\.?\s+)?\b\d+:\d+(?:\s*[-,]\s*\d+)*`)

// naveLink is a Scripture link of a line, as relative references after it
// need it: "Ru 1:16,17; with 1:6-18" means Ruth 1:6-18.
type naveLink struct {
	book    int              // its book's number
	text    string           // its text ("Micah 2")
	span    corpus.VerseSpan // what it links
	chapter bool             // its text names no verse ("Micah 2", "Obadiah 1")
	broken  string           // the osisRef, when it names no KJV verse
}

// postText is a text segment after a Scripture link, and that link.
type postText struct {
	text  string
	after *naveLink
}

// naveLine is one line of an entry while it is read: an <lb/> line or an
// <item>.
type naveLine struct {
	item bool
	pre  strings.Builder // text before the first Scripture link
	post []postText      // text segments after one
	last *naveLink       // the latest Scripture link
	// misread maps the OSIS book of links the module misread to the book
	// meant ("Titus 2</ref><ref osisRef="Col.8.16">Co 8:16": 2 Corinthians).
	misread map[string]int
	linked  bool // a Scripture link was seen
	verses  []corpus.VerseSpan
	see     []string
	skipped []string
}

// ParseNave reads one Nave entry's TEI markup into a topic. Nave writes
// an entry as lines: "<lb/>→ phrase refs" lines are sections, a line
// "<lb/>1. ..." opens a numbered sense of a name several people bear
// (JAMES, JOHN), a line without the arrow continues the heading line
// before it, and a <list> of <item>s belongs to the line before it.
// Inside a list an item without verses or links ("Instances of
// unpardonable", "Facts before the birth of") heads the items after it,
// up to the next such item or the end of the list; when those items are
// numbered ("1. Jealousy"), up to the first that is not.
func ParseNave(key, raw string) (corpus.NaveTopic, NaveIssues) {
	t := corpus.NaveTopic{Title: collapse(key)}
	var issues NaveIssues
	var cur *naveLine
	// Where new entries attach (indexes into t.Entries, -1 for none).
	sense, section, heading, group := -1, -1, -1, -1
	groupChildren, groupNumbered := 0, false
	// groupLead is the first word a heading item shares with the item
	// before it ("Of Hezekiah", then "Of Jesus"): one of a series, whose
	// next member ("Of Mary Magdalene") ends the heading's items. The
	// module's flat list loses the print's indentation there.
	groupLead := ""
	heads := func(idx int, phrase string) {
		group, groupChildren, groupLead = idx, 0, ""
		if w := firstWord(phrase); idx > 0 && w != "" && t.Entries[idx-1].Parent == section &&
			firstWord(t.Entries[idx-1].Phrase) == w {
			groupLead = w
		}
	}
	tailBook := "" // a single-chapter book whose verse list follows as text

	finish := func() {
		l := cur
		cur = nil
		if l == nil {
			return
		}
		phrase := strings.TrimPrefix(strings.TrimSpace(collapse(l.pre.String())), "→")
		if !l.item && strings.HasPrefix(phrase, ".") {
			// The module breaks a long list (JESUS' HISTORY OF, DIPLOMACY's
			// instances) with "</list> <lb/>.Next item <list>": the dotted
			// line and the list after it go on the list before, as its
			// items, not as a heading and its sub-entries (which made
			// every later event "Eats with tax collectors and sinners").
			phrase, l.item = strings.TrimPrefix(phrase, "."), true
		}
		book := 0 // the book a reference without one is in
		for _, p := range l.post {
			seg := p.text
			if p.after != nil {
				book = p.after.book
				seg = l.mended(p.after, seg)
			}
			for _, m := range unlinkedRef.FindAllString(seg, -1) {
				spans, b, ok := textReference(m, book)
				if !ok {
					issues.Unlinked = append(issues.Unlinked, t.Title+": "+strings.TrimSpace(m))
					continue
				}
				book = b
				for _, sp := range spans {
					if !slices.Contains(l.verses, sp) {
						l.verses = append(l.verses, sp)
					}
				}
			}
			seg = unlinkedRef.ReplaceAllString(seg, "")
			if strings.IndexFunc(seg, unicode.IsLetter) >= 0 {
				phrase += " " + seg
			}
		}
		if !l.linked {
			// A line with no link may still give its references as text
			// with their book ("By Herod Agrippa II Ac 26:2,3").
			phrase = unlinkedRef.ReplaceAllStringFunc(phrase, func(m string) string {
				spans, _, ok := textReference(m, 0)
				if !ok {
					issues.Unlinked = append(issues.Unlinked, t.Title+": "+strings.TrimSpace(m))
					return m
				}
				l.verses = append(l.verses, spans...)
				l.linked = true // an entry, not a heading
				return ""
			})
		}
		phrase = cleanPhrase(phrase)
		for _, s := range l.skipped {
			issues.Unreadable = append(issues.Unreadable, t.Title+": "+s)
		}
		if phrase == "" && len(l.verses) == 0 && len(l.see) == 0 {
			return
		}
		e := corpus.NaveEntry{Parent: -1, Phrase: phrase, Verses: l.verses, See: l.see}
		idx := len(t.Entries)
		// A line with a link, even an unreadable one, is an entry, not a heading.
		bare := !l.linked && len(l.see) == 0
		switch {
		case l.item && bare && group < 0 || l.item && bare && groupChildren > 0 && !groupNumbered:
			// A heading item: the items after it are its own.
			e.Parent = section
			heads(idx, phrase)
		case l.item && group >= 0 && groupLead != "" && firstWord(phrase) == groupLead:
			// The next of the heading's series: its sibling, not its item.
			e.Parent = section
			group = -1
			if bare {
				heads(idx, phrase)
			}
		case l.item && group >= 0:
			num := numbered.MatchString(phrase)
			if groupChildren == 0 {
				groupNumbered = num
			}
			if groupNumbered && !num {
				group = -1
				e.Parent = section
				if bare {
					heads(idx, phrase)
				}
				break
			}
			e.Parent = group
			groupChildren++
		case l.item:
			e.Parent = section
		case strings.HasPrefix(strings.TrimSpace(l.pre.String()), "→"):
			e.Parent = sense
			section, heading = idx, -1
			if bare {
				heading = idx
			}
		case numbered.MatchString(phrase):
			sense, section, heading = idx, idx, -1
		default:
			// A line without the arrow continues the heading before it
			// ("(An intimate companion of Jesus...)" then "At the great
			// catch of fish").
			e.Parent = sense
			if heading >= 0 {
				e.Parent = heading
			}
			section = idx
		}
		t.Entries = append(t.Entries, e)
	}
	line := func(item bool) *naveLine {
		if cur == nil {
			cur = &naveLine{item: item}
		}
		return cur
	}
	text := func(s string) {
		s = html.UnescapeString(s)
		if tailBook != "" {
			// The verses of a single-chapter book's link, already taken.
			if m := verseList.FindStringIndex(s); m != nil {
				s = s[m[1]:]
			}
			tailBook = ""
		}
		if strings.TrimSpace(s) == "" {
			return
		}
		l := line(false)
		if l.linked {
			l.post = append(l.post, postText{s, l.last})
		} else {
			l.pre.WriteString(s)
		}
	}

	pos := 0
	for _, m := range naveTag.FindAllStringSubmatchIndex(raw, -1) {
		text(raw[pos:m[0]])
		pos = m[1]
		if m[2] >= 0 { // <ref ...>text</ref>
			attrs, inner := raw[m[2]:m[3]], raw[m[4]:m[5]]
			l := line(false)
			if tm := targetAttr.FindStringSubmatch(attrs); tm != nil {
				target := html.UnescapeString(tm[1] + tm[2])
				if _, k, ok := strings.Cut(target, ":"); ok {
					target = k
				}
				if target = collapse(target); target != "" && !slices.Contains(l.see, target) {
					l.see = append(l.see, target)
				}
				if l.linked {
					l.post = append(l.post, postText{html.UnescapeString(inner), l.last})
				} else {
					l.pre.WriteString(html.UnescapeString(inner))
				}
				continue
			}
			om := osisRefAttr.FindStringSubmatch(attrs)
			if om == nil {
				text(inner)
				continue
			}
			l.linked = true
			refs := strings.Fields(html.UnescapeString(om[1] + om[2]))
			if len(refs) == 1 {
				// The link's text and what follows it; a verse list is short,
				// so the markup after the link is cut (copying it whole for
				// every link made reading GOD quadratic).
				rest := attrs[strings.Index(attrs, om[0])+len(om[0]):] + ">" + inner + raw[m[5]:min(len(raw), m[5]+maxVerseListTail)]
				if fixed, ok := trailingVerses(refs[0], rest); ok {
					refs = fixed
					tailBook = refs[0]
				}
			}
			for _, ref := range refs {
				first, last, ok := parseOSISRange(ref)
				if !ok {
					first, last, ok = l.reread(ref, html.UnescapeString(inner))
				}
				if !ok {
					l.skipped = append(l.skipped, ref)
					l.last = &naveLink{text: html.UnescapeString(inner), broken: ref}
					continue
				}
				span := corpus.VerseSpan{First: first, Last: last}
				if !slices.Contains(l.verses, span) {
					l.verses = append(l.verses, span)
				}
				l.last = &naveLink{book: first.Book(), text: html.UnescapeString(inner), span: span,
					chapter: len(refs) == 1 && !strings.Contains(inner, ":")}
			}
			continue
		}
		closing, name := raw[m[6]:m[7]] == "/", raw[m[8]:m[9]]
		switch {
		case name == "lb":
			finish()
			cur = &naveLine{}
		case name == "item" && !closing:
			finish()
			cur = &naveLine{item: true}
		case name == "item", name == "list" && !closing:
			finish()
		case name == "list":
			finish()
			group = -1
		case name == "entryFree" && !closing:
			// A second record of the same key (SIN, REVERENCE) starts
			// afresh.
			finish()
			sense, section, heading, group = -1, -1, -1, -1
		}
	}
	text(raw[pos:])
	finish()
	return t, issues
}

// apostropheSpace is Nave's "Naomi' s" for "Naomi's".
var apostropheSpace = regexp.MustCompile(`(\w)[’'] s\b`)

// cleanPhrase tidies an entry's words once references are out: white
// space collapsed, "Naomi' s" mended, and the punctuation that separated
// the references ("King of Salem ;") dropped from the ends.
func cleanPhrase(s string) string {
	s = apostropheSpace.ReplaceAllString(collapse(s), "$1's")
	return strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(";,:-–—", r)
	})
}

// textReference reads a reference Nave left as text after a link: "with
// 1:6-18" and "9:41,42" are in the book of the reference before them
// (book), "2Ki 14:26,27" names its own. spans are its verses, b its book;
// ok is false when it names no KJV verse or no book is known.
func textReference(ref string, book int) (spans []corpus.VerseSpan, b int, ok bool) {
	m := textRef.FindStringSubmatch(strings.TrimSpace(ref))
	if m == nil {
		return nil, 0, false
	}
	b = book
	if m[1] != "" {
		bk, ok := corpus.LookupBook(m[1])
		if !ok {
			return nil, 0, false
		}
		b = bk.Number
	}
	ch, err := strconv.Atoi(m[2])
	if b == 0 || err != nil {
		return nil, 0, false
	}
	for _, part := range strings.Split(m[3], ",") {
		from, to, isRange := strings.Cut(part, "-")
		v1, err1 := strconv.Atoi(strings.TrimSpace(from))
		v2, err2 := v1, error(nil)
		if isRange {
			v2, err2 = strconv.Atoi(strings.TrimSpace(to))
		}
		first, last := corpus.NewVerseID(b, ch, v1), corpus.NewVerseID(b, ch, v2)
		if err1 != nil || err2 != nil || !first.Valid() || !last.Valid() || first > last {
			return nil, 0, false
		}
		spans = append(spans, corpus.VerseSpan{First: first, Last: last})
	}
	return spans, b, true
}

// textRef splits a reference left as text: book (optional), chapter, and
// a list of verses and ranges.
var textRef = regexp.MustCompile(`^(?:with\s+)?(?:([1-3]?[A-Z][a-z]*)\.?\s+)?(\d+):(\d+(?:\s*[-,]\s*\d+)*)$`)

// mendedName finds the start of a numbered book's reference whose number
// Nave's module took into the link before it: "Son of <ref
// osisRef="Mic.2">Micah 2</ref>Ch 34:20" is "Son of Micah, 2Ch 34:20".
var mendedName = regexp.MustCompile(`^([A-Z][a-z]*)\.?\s+\d+:\d+`)

// mended returns the segment after link lk with the reference the module
// broke mended ("Micah 2Ch 34:20"), and drops what it linked instead (a
// chapter, Obadiah 1:1, or a book outside the 66: "Azariah 2" as
// PrAzar.1.2), when lk's text names no verse but ends in a book number
// and the segment opens with the rest of a numbered book's reference;
// else seg as it is.
func (l *naveLine) mended(lk *naveLink, seg string) string {
	if !lk.chapter && lk.broken == "" {
		return seg
	}
	name, num, _, ok := lk.tookNumber(seg)
	if !ok {
		return seg
	}
	l.drop(lk)
	return name + " " + num + seg
}

// tookNumber reports whether link lk's text is a name and a book number
// ("Micah 2") and rest opens with the rest of a numbered book's reference
// ("Ch 34:20"): then the number belongs to rest, the book b (2
// Chronicles), and the name to the phrase.
func (lk *naveLink) tookNumber(rest string) (name, num string, b corpus.Book, ok bool) {
	name, num, cut := strings.Cut(lk.text, " ")
	m := mendedName.FindStringSubmatch(rest)
	if !cut || len(num) != 1 || num < "1" || num > "3" || m == nil {
		return "", "", corpus.Book{}, false
	}
	b, ok = corpus.LookupBook(num + m[1])
	return name, num, b, ok
}

// drop takes back what link lk gave the line, once its number is found
// to belong to the reference after it: its verses, or its report as
// unreadable ("<ref osisRef="PrAzar.1.2">Azariah 2</ref>Ki 15:5").
func (l *naveLine) drop(lk *naveLink) {
	if lk.broken != "" {
		if i := slices.Index(l.skipped, lk.broken); i >= 0 {
			l.skipped = slices.Delete(l.skipped, i, i+1)
		}
	} else {
		l.verses = slices.DeleteFunc(l.verses, func(s corpus.VerseSpan) bool { return s == lk.span })
	}
	lk.chapter, lk.broken = false, "" // mended once
}

// reread reads an osisRef that names no KJV verse where the module
// misread a numbered book: the link before it ("Titus 2", linked as that
// chapter) took the book's number, and this link's text is the rest of
// the reference ("Co 8:16", linked as Colossians 8:16). The chapter is
// dropped, and later links to the same misread book on the line ("17",
// Col.8.17) are read in the book meant.
func (l *naveLine) reread(ref, text string) (first, last corpus.VerseID, ok bool) {
	osisBook, _, _ := strings.Cut(ref, ".")
	b, known := l.misread[osisBook]
	if !known {
		lk := l.last
		if lk == nil || !lk.chapter {
			return 0, 0, false
		}
		name, _, bk, found := lk.tookNumber(text)
		if !found {
			return 0, 0, false
		}
		l.drop(lk)
		l.post = append(l.post, postText{text: name}) // "By Titus"
		if l.misread == nil {
			l.misread = map[string]int{}
		}
		b = bk.Number
		l.misread[osisBook] = b
	}
	bk, _ := corpus.BookByNumber(b)
	return parseOSISRange(strings.ReplaceAll(ref, osisBook+".", bk.OSIS+"."))
}

// firstWord is a phrase's first word, lower-case.
func firstWord(phrase string) string {
	w, _, _ := strings.Cut(strings.TrimSpace(phrase), " ")
	return strings.ToLower(strings.Trim(w, ",;:."))
}
