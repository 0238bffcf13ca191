package corpus

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/selahdev/selah"
)

// maxReferenceBytes bounds the input ParseReference reads. Real references
// ("Canticle of Canticles 1:1-8:14") are far shorter; the bound keeps a
// hostile query string from costing more than a lookup.
const maxReferenceBytes = 200

// maxRefNumber caps chapter and verse numbers while they are read. No KJV
// chapter or verse number comes near it, so a capped number still fails
// validation, and the cap keeps "99999999999999999999" from overflowing.
const maxRefNumber = 1_000_000

// exampleReference is the reference error messages offer as a model.
const exampleReference = `"John 3:16"`

// Reference is a validated passage reference in the KJV versification.
//
// It always holds concrete verses: a whole chapter is StartVerse 1 through
// the chapter's last verse, so First, Last and Contains need no special
// cases. Build one with ParseReference or ReferenceForRange, which check it
// against the versification; the zero Reference names nothing.
type Reference struct {
	Book                     Book
	StartChapter, StartVerse int
	EndChapter, EndVerse     int
}

// String renders the reference canonically, using the book's canonical name
// and the shortest of these forms that covers exactly the same verses:
//
//	John 3:16          one verse
//	John 3:16-18       verses within one chapter
//	Genesis 1:31-2:3   verses across chapters
//	Psalms 23          one whole chapter
//	Psalms 23-24       whole chapters
//
// Single-chapter books (Obadiah, Philemon, 2 John, 3 John, Jude) always
// carry the chapter number: a verse is "Jude 1:3", a range "Jude 1:3-5" and
// the whole book "Jude 1". Writing the chapter keeps one form for every book,
// so clients that split on the colon need no list of single-chapter books,
// and ParseReference reads each form back to the same Reference.
//
// The zero Reference renders as "".
func (r Reference) String() string {
	if r.Book.Number == 0 {
		return ""
	}
	name := r.Book.Name
	sameChapter := r.StartChapter == r.EndChapter
	switch {
	case r.WholeChapter() && sameChapter:
		return fmt.Sprintf("%s %d", name, r.StartChapter)
	case r.WholeChapter():
		return fmt.Sprintf("%s %d-%d", name, r.StartChapter, r.EndChapter)
	case sameChapter && r.StartVerse == r.EndVerse:
		return fmt.Sprintf("%s %d:%d", name, r.StartChapter, r.StartVerse)
	case sameChapter:
		return fmt.Sprintf("%s %d:%d-%d", name, r.StartChapter, r.StartVerse, r.EndVerse)
	default:
		return fmt.Sprintf("%s %d:%d-%d:%d", name, r.StartChapter, r.StartVerse, r.EndChapter, r.EndVerse)
	}
}

// First returns the id of the first verse of the reference.
func (r Reference) First() VerseID {
	return NewVerseID(r.Book.Number, r.StartChapter, r.StartVerse)
}

// Last returns the id of the last verse of the reference.
func (r Reference) Last() VerseID {
	return NewVerseID(r.Book.Number, r.EndChapter, r.EndVerse)
}

// VerseCount returns the number of verses the reference covers. Verse ids
// are not dense (chapters differ in length), so the count comes from the
// versification rather than from Last()-First().
func (r Reference) VerseCount() int {
	if r.Book.Number == 0 {
		return 0
	}
	if r.StartChapter == r.EndChapter {
		return r.EndVerse - r.StartVerse + 1
	}
	n := r.Book.Verses(r.StartChapter) - r.StartVerse + 1
	for ch := r.StartChapter + 1; ch < r.EndChapter; ch++ {
		n += r.Book.Verses(ch)
	}
	return n + r.EndVerse
}

// WholeChapter reports whether the reference covers one or more whole
// chapters, from the first verse of its first chapter to the last verse of
// its last.
func (r Reference) WholeChapter() bool {
	return r.Book.Number != 0 && r.StartVerse == 1 && r.EndVerse == r.Book.Verses(r.EndChapter)
}

// Contains reports whether the verse id lies within the reference. Ids that
// name no verse (John 3:99) are never contained, even when they sort inside
// the range.
func (r Reference) Contains(id VerseID) bool {
	return r.Book.Number != 0 && id.Valid() && id >= r.First() && id <= r.Last()
}

// VerseIDs lists the verses of the reference in order, across chapter
// ends.
func (r Reference) VerseIDs() []VerseID {
	var ids []VerseID
	for ch := r.StartChapter; ch <= r.EndChapter && r.Book.Number != 0; ch++ {
		first, last := 1, r.Book.Verses(ch)
		if ch == r.StartChapter {
			first = r.StartVerse
		}
		if ch == r.EndChapter {
			last = r.EndVerse
		}
		for v := first; v <= last; v++ {
			ids = append(ids, NewVerseID(r.Book.Number, ch, v))
		}
	}
	return ids
}

// ReferenceForRange returns the reference covering the verses first through
// last, as when an answer cites a run of retrieved verses. Both ids must be
// verses of the KJV versification in the same book, first not after last.
func ReferenceForRange(first, last VerseID) (Reference, error) {
	for _, id := range []VerseID{first, last} {
		if !id.Valid() {
			return Reference{}, selah.Errorf(selah.EPASSAGENOTFOUND, "Verse id %d is not a verse of the KJV.", int(id))
		}
	}
	if first.Book() != last.Book() {
		return Reference{}, selah.Errorf(selah.EINVALIDREF, "A reference cannot span two books (%s to %s).", first, last)
	}
	if first > last {
		return Reference{}, selah.Errorf(selah.EINVALIDREF, "The range %s to %s runs backwards; put the earlier verse first.", first, last)
	}
	b, _ := BookByNumber(first.Book())
	return Reference{
		Book:         b,
		StartChapter: first.Chapter(),
		StartVerse:   first.Verse(),
		EndChapter:   last.Chapter(),
		EndVerse:     last.Verse(),
	}, nil
}

// ParseReference reads a passage reference such as "John 3:16",
// "jn 3:16-18", "1 Cor. 13", "Ps 23-24", "Genesis 1:31–2:3" or "Jude 3".
//
// The book is anything LookupBook accepts. A plus sign counts as a space, so
// a reference can come straight from a query string ("John+3:16"). Chapter
// and verse are separated by a colon or a dot, and a range by a hyphen, en
// dash or em dash, with optional spaces around it. A lone number or a
// number range is chapters ("Psalms 23", "Psalms 23-24"), except in
// single-chapter books, where it is verses ("Jude 3", "Jude 3-5"); "Jude 1"
// stays the whole book because that is how String writes it. A bare book
// name is accepted only for single-chapter books.
//
// Errors are *selah.Error: selah.EINVALIDREF when the text cannot be read as
// a reference, selah.EPASSAGENOTFOUND when it names a chapter or verse the
// KJV does not have, with the valid range in the message.
func ParseReference(s string) (Reference, error) {
	if len(s) > maxReferenceBytes {
		return Reference{}, selah.Errorf(selah.EINVALIDREF, "Reference is too long (more than %d bytes). Try a reference like %s.", maxReferenceBytes, exampleReference)
	}
	if !utf8.ValidString(s) {
		return Reference{}, selah.Errorf(selah.EINVALIDREF, "Reference is not valid UTF-8 text. Try a reference like %s.", exampleReference)
	}
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if r == '+' || unicode.IsSpace(r) {
			return ' '
		}
		return r
	}, s))
	if s == "" {
		return Reference{}, selah.Errorf(selah.EINVALIDREF, "Empty reference. Try %s.", exampleReference)
	}

	name, loc := splitReference(s)
	name = strings.TrimSpace(name)
	if !strings.ContainsFunc(name, unicode.IsLetter) {
		return Reference{}, selah.Errorf(selah.EINVALIDREF, "Missing book name in %q. Try a reference like %s.", s, exampleReference)
	}
	b, ok := LookupBook(name)
	if !ok {
		return Reference{}, selah.Errorf(selah.EINVALIDREF, "Unknown book %q. Try a reference like %s.", name, exampleReference)
	}

	parts, ok := parseLocator(loc)
	if !ok {
		if strings.ContainsAny(loc, ",;") {
			return Reference{}, selah.Errorf(selah.EINVALIDREF, "Could not read %q: give one passage at a time, like %s or \"John 3:16-18\".", s, exampleReference)
		}
		return Reference{}, selah.Errorf(selah.EINVALIDREF, "Could not read %q. Try a reference like %s or \"John 3:16-18\".", s, exampleReference)
	}
	r, err := resolveLocator(b, parts, s)
	if err != nil {
		return Reference{}, err
	}
	if err := checkReference(r); err != nil {
		return Reference{}, err
	}
	if r.First() > r.Last() {
		return Reference{}, selah.Errorf(selah.EINVALIDREF, "The range in %q runs backwards; put the earlier verse first.", s)
	}
	return r, nil
}

// splitReference splits s before the first digit that follows a letter, so
// a leading book number stays with the name ("1 John 3:16", "1st Jn3:16")
// and no separator is needed between name and chapter ("Gen1:1").
func splitReference(s string) (name, loc string) {
	seenLetter := false
	for i, r := range s {
		switch {
		case unicode.IsLetter(r):
			seenLetter = true
		case seenLetter && isASCIIDigit(r):
			return s[:i], s[i:]
		}
	}
	return s, ""
}

// locPart is one end of a range as written: a number, optionally followed
// by a separator and a second number. Whether a lone number is a chapter or
// a verse depends on the book, so resolveLocator decides.
type locPart struct {
	a, b int
	hasB bool
}

// parseLocator reads the chapter-and-verse part of a reference: nothing, or
// one or two locParts joined by a dash. Spaces may stand between tokens but
// not between two numbers ("3 16" is refused rather than guessed at).
func parseLocator(loc string) ([]locPart, bool) {
	// A reference quoted at the end of a sentence keeps its full stop.
	loc = strings.TrimSuffix(strings.TrimSpace(loc), ".")

	type token struct {
		kind byte // 'n' number, ':' chapter-verse separator, '-' range
		n    int
	}
	var toks []token
	for i := 0; i < len(loc); {
		r, size := utf8.DecodeRuneInString(loc[i:])
		switch {
		case r == ' ':
		case isASCIIDigit(r):
			n := 0
			for i < len(loc) && isASCIIDigit(rune(loc[i])) {
				n = min(n*10+int(loc[i]-'0'), maxRefNumber)
				i++
			}
			toks = append(toks, token{kind: 'n', n: n})
			continue
		case r == ':' || r == '.':
			toks = append(toks, token{kind: ':'})
		case isDash(r):
			toks = append(toks, token{kind: '-'})
		default:
			return nil, false
		}
		i += size
	}

	var parts []locPart
	for i := 0; i < len(toks); {
		if toks[i].kind != 'n' {
			return nil, false
		}
		p := locPart{a: toks[i].n}
		i++
		if i < len(toks) && toks[i].kind == ':' {
			if i+1 >= len(toks) || toks[i+1].kind != 'n' {
				return nil, false
			}
			p.b, p.hasB = toks[i+1].n, true
			i += 2
		}
		parts = append(parts, p)
		if i == len(toks) {
			break
		}
		if toks[i].kind != '-' || len(parts) == 2 || i+1 == len(toks) {
			return nil, false
		}
		i++
	}
	return parts, true
}

// resolveLocator turns the parts of a locator into a reference in book b,
// reading lone numbers as chapters or, in single-chapter books, as verses.
// The result is not yet checked against the versification. s is the whole
// input, for messages.
func resolveLocator(b Book, parts []locPart, s string) (Reference, error) {
	single := b.SingleChapter()
	// wholeChapters covers chapters from..to; the end verse may be 0 when to
	// does not exist, which checkReference reports.
	wholeChapters := func(from, to int) Reference {
		return Reference{Book: b, StartChapter: from, StartVerse: 1, EndChapter: to, EndVerse: b.Verses(to)}
	}
	verses := func(ch, from, to int) Reference {
		return Reference{Book: b, StartChapter: ch, StartVerse: from, EndChapter: ch, EndVerse: to}
	}

	switch len(parts) {
	case 0:
		if single {
			return wholeChapters(1, 1), nil
		}
		return Reference{}, selah.Errorf(selah.EINVALIDREF, "A chapter is needed after %q: try \"%s 1\" or \"%s 1:1\".", b.Name, b.Name, b.Name)
	case 1:
		p := parts[0]
		switch {
		case p.hasB:
			return verses(p.a, p.b, p.b), nil
		case single && p.a != 1:
			return verses(1, p.a, p.a), nil
		default:
			return wholeChapters(p.a, p.a), nil
		}
	}

	p, q := parts[0], parts[1]
	switch {
	case !p.hasB && !q.hasB && single:
		return verses(1, p.a, q.a), nil
	case !p.hasB && !q.hasB:
		return wholeChapters(p.a, q.a), nil
	case p.hasB && !q.hasB:
		return verses(p.a, p.b, q.a), nil
	case p.hasB && q.hasB:
		return Reference{Book: b, StartChapter: p.a, StartVerse: p.b, EndChapter: q.a, EndVerse: q.b}, nil
	default:
		// "John 3-4:5": the start verse is missing. Guessing verse 1 would
		// be plausible, but asking keeps one meaning per form.
		return Reference{}, selah.Errorf(selah.EINVALIDREF, "Could not read %q: give the start verse too, as in \"%s %d:1-%d:%d\".", s, b.Name, p.a, q.a, q.b)
	}
}

// checkReference reports, as selah.EPASSAGENOTFOUND, the first chapter or
// verse of r that the KJV versification does not have.
func checkReference(r Reference) error {
	b := r.Book
	for _, cv := range [][2]int{{r.StartChapter, r.StartVerse}, {r.EndChapter, r.EndVerse}} {
		ch, v := cv[0], cv[1]
		if ch < 1 || ch > b.Chapters() {
			return selah.Errorf(selah.EPASSAGENOTFOUND, "%s%s has %s.", startsAt(ch, "Chapters"), b.Name, countNoun(b.Chapters(), "chapter"))
		}
		if v < 1 || v > b.Verses(ch) {
			where := b.Name
			if !b.SingleChapter() {
				where = fmt.Sprintf("%s %d", b.Name, ch)
			}
			return selah.Errorf(selah.EPASSAGENOTFOUND, "%s%s has %s.", startsAt(v, "Verses"), where, countNoun(b.Verses(ch), "verse"))
		}
	}
	return nil
}

// startsAt explains a zero number, which otherwise reads as a typo in a
// message that only gives the upper bound.
func startsAt(n int, what string) string {
	if n < 1 {
		return what + " start at 1; "
	}
	return ""
}

func countNoun(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func isASCIIDigit(r rune) bool { return r >= '0' && r <= '9' }

// isDash reports the characters accepted as a range separator: the hyphen
// people type, and the dashes that word processors and typeset sources
// substitute for it.
func isDash(r rune) bool {
	switch r {
	case '-', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
		return true
	}
	return false
}
