package pipeline

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/selahdev/selah/corpus"
)

// Voices: a question may ask what one speaker or book of the Bible says
// ("What did Jesus say about worry?", "What does Proverbs say about
// fools?", "What did Paul say about love?"). Its answer is that voice's
// verses, and the speaker's name is no word of its subject.

// voice is whose words a question asks for: Jesus' ("What did Jesus say
// about worry?", asksJesusWords), one book's ("What does Proverbs say
// about fools?", bookAsked) or a writer's letters' ("What did Paul say
// about love?", writerAsked); the zero value, Scripture's at large.
type voice struct {
	jesus bool
	books []int // the books' numbers
}

// scoped reports whether the question asks for one voice's words.
func (v voice) scoped() bool { return v.jesus || len(v.books) > 0 }

// holds reports whether verse v is of the voice: marked as his words, or
// in the books.
func (v voice) holds(verse corpus.Verse) bool {
	switch {
	case v.jesus:
		return verse.WordsOfChrist
	case len(v.books) > 0:
		return v.inBooks(verse.ID)
	}
	return true
}

// inBooks reports whether id is in one of the voice's books.
func (v voice) inBooks(id corpus.VerseID) bool { return slices.Contains(v.books, id.Book()) }

// hubs returns the hubs with the verses of the voice's books only, and
// without those that list none: a hub speaks from the book's verses, or
// not at all.
func (v voice) hubs(hubs []HubFact) []HubFact {
	for i := range hubs {
		hubs[i].Verses = slices.DeleteFunc(hubs[i].Verses, func(id corpus.VerseID) bool { return !v.inBooks(id) })
	}
	return slices.DeleteFunc(hubs, func(h HubFact) bool { return len(h.Verses) == 0 })
}

// bookAsked reports whether the question asks what one book of the Bible
// says, and returns the book and the question without its name, the
// words that frame it ("the book of") and the verbs of its speaking: the
// rest is what is asked of it ("What does Proverbs say about fools?" asks
// about fools, and "Proverbs" would route to the topic PROVERBS, "James"
// to the apostle). The frames are English's: a book named as the subject
// of a verb of speaking after "does", "did" or "do" ("What does the book
// of Psalms say about fear?"), after "according to", or as where verses
// are ("verses in psalms about trusting god", "in the book of Job"). A
// book is named by its canonical name (corpus.Book.Name, "Psalm" for
// "Psalms" too), never by an abbreviation: "Am" and "Job" read as words
// only in these frames, and "Ex" not at all.
func bookAsked(q string, speaks func(word string) bool) (corpus.Book, string, bool) {
	fields := strings.Fields(strings.ReplaceAll(q, "’", "'"))
	words := make([]string, len(fields))
	for i, f := range fields {
		words[i] = strings.ToLower(strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
	}
	at := func(i int) string {
		if i < 0 || i >= len(words) {
			return ""
		}
		return words[i]
	}
	speech := func(w string) bool { return speechWord(w) || speaks != nil && speaks(w) }
	for i := range words {
		b, n, ok := bookNamed(words, i)
		if !ok {
			continue
		}
		// "the book of" before the name belongs to it.
		from := i
		if at(i-1) == "of" && at(i-2) == "book" {
			from = i - 2
			if at(i-3) == "the" {
				from = i - 3
			}
		}
		before, after := at(from-1), at(i+n)
		end := i + n
		switch {
		case (before == "does" || before == "did" || before == "do") && speech(after):
			end++ // the verb of its speaking goes with it
		case before == "to" && at(from-2) == "according":
			from -= 2
		case (before == "in" || before == "from") && (from != i || versesWord[at(from-2)]):
			from-- // "Who was Barnabas in the book of Acts?" asks who he was
		default:
			continue
		}
		rest := slices.Concat(fields[:from], fields[end:])
		return b, strings.Join(rest, " "), true
	}
	return corpus.Book{}, "", false
}

// bookCandidates is how widely a question asking what a book says is
// searched before its verses are kept: five times the candidates of
// another question.
const bookCandidates = 5 * DefaultCandidates

// versesWord are the nouns that name a passage of a book ("verses in
// Psalms").
var versesWord = map[string]bool{"verse": true, "verses": true, "passage": true, "passages": true,
	"scripture": true, "scriptures": true, "chapter": true, "chapters": true}

// bookNamed returns the book whose canonical name words[i:] open with
// (lower case; "1 corinthians", "song of solomon", "psalm"), and the
// number of words it takes.
func bookNamed(words []string, i int) (corpus.Book, int, bool) {
	for n := 3; n >= 1; n-- {
		if i+n > len(words) {
			continue
		}
		span := strings.Join(words[i:i+n], " ")
		if b, ok := corpus.LookupBook(span); ok && (strings.EqualFold(b.Name, span) || strings.EqualFold(b.Name, span+"s")) {
			return b, n, true
		}
	}
	return corpus.Book{}, 0, false
}

// letterOpening is how a letter of the New Testament opens: its writer's
// name (and his companions'), a comma, and what he is ("Paul, an apostle
// of Jesus Christ", "Paul and Timotheus, the servants", "Simon Peter, a
// servant", "Jude, the servant"). A book that opens otherwise ("In the
// beginning", "God, who at sundry times") names no writer so.
var letterOpening = regexp.MustCompile(`^(?:[A-Z][a-z]+ )?([A-Z][a-z]+)(?:,? and [A-Z][a-z]+)*, (?:an?|the|called|and)\b`)

// letterWriters maps each writer the letters name in their first verse
// (lower case, his last name: "peter" of "Simon Peter") to his letters'
// book numbers, read from the KJV text (vs, in canonical order): Paul's
// thirteen, Peter's two, James's and Jude's. names holds every word the
// KJV writes as a name: a writer is one.
func letterWriters(vs []corpus.Verse, names map[string]bool) map[string][]int {
	out := map[string][]int{}
	for _, v := range vs {
		if v.ID.Chapter() != 1 || v.ID.Verse() != 1 {
			continue
		}
		m := letterOpening.FindStringSubmatch(v.Text)
		if m == nil {
			continue
		}
		w := strings.ToLower(m[1])
		if !names[w] {
			continue
		}
		out[w] = append(out[w], v.ID.Book())
	}
	return out
}

// writerAsked reports whether the question asks what a letters' writer
// (writers, letterWriters) said, wrote or taught, as asksJesusWords asks
// of Jesus ("What did Paul say about love?", "what does paul teach about
// marriage"), and returns his letters and the question without his name
// and the verbs of his speaking.
func writerAsked(q string, writers map[string][]int, speaks func(word string) bool) ([]int, string, bool) {
	ws := questionWords(q)
	speech := func(w string) bool { return speechWord(w) || writingWord[w] || speaks != nil && speaks(w) }
	for i, w := range ws {
		books, ok := writers[w]
		if !ok {
			continue
		}
		// His verb of speaking follows his name, and what he spoke of
		// follows it: "Who did Paul write to?" asks of his letters, not
		// what they say.
		for j := i + 1; j < len(ws) && j <= i+2; j++ {
			if speech(ws[j]) && !passiveAuxiliary[ws[j-1]] && slices.ContainsFunc(ws[j+1:], aboutWord) {
				return books, withoutWords(q, func(x string) bool { return x == w || speech(x) }), true
			}
		}
	}
	return nil, "", false
}

// writingWord are the forms of "write", a writer's speaking.
var writingWord = map[string]bool{"write": true, "writes": true, "wrote": true, "written": true}

// aboutWord reports whether w introduces what one speaks of.
func aboutWord(w string) bool {
	return w == "about" || w == "on" || w == "regarding" || w == "concerning"
}

// withoutWords is q without the words (lower case, trimmed of
// punctuation but an apostrophe: "Jesus's") drop reports.
func withoutWords(q string, drop func(w string) bool) string {
	words := strings.Fields(q)
	out := words[:0:0]
	for _, w := range words {
		w1 := strings.ToLower(strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '’' }))
		if !drop(w1) {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// speakerName reports whether w is a name asksJesusWords reads as the
// speaker.
func speakerName(w string) bool {
	w = strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(w), "'s"), "’s")
	return w == "jesus" || w == "christ"
}

// withoutSpeaker is the question with the speaker's names and the verbs
// of his speaking left out: "how did Jesus teach us to pray" asks about
// prayer, and "teach" would route it to INSTRUCTION.
func withoutSpeaker(q string) string {
	return withoutWords(q, func(w string) bool { return speakerName(w) || speechWord(w) })
}

// speechWord reports whether w is a word of speaking or teaching, with
// which a question asks for what someone said.
func speechWord(w string) bool {
	switch w {
	case "say", "said", "says", "saying", "sayings", "teach", "taught", "teaches", "teaching", "teachings",
		"tell", "told", "speak", "spoke", "words", "preach", "preached", "command", "commanded":
		return true
	}
	return false
}

// asksJesusWords reports whether the question asks what Jesus said or
// taught: a word of speaking (speechWord, or one speaks reports; nil: none
// more) follows his name, him its speaker ("What did Jesus say about
// worry?"), or a noun of speaking is his ("the words of Jesus"); or it
// asks what holds "according to" him, or puts "on" right after his name
// as a heading does ("Jesus on forgiveness"). A word of speaking before
// his name has another speaker ("What did Paul say about Jesus?", "how
// did Peter deny Jesus"), and one in the passive tells what was done to
// him: WordNet files baptizing under communication, with naming and
// christening, and "when Jesus was baptized" asks what happened, as
// "where was Jesus tempted" does.
func asksJesusWords(q string, speaks func(word string) bool) bool {
	ws := questionWords(q)
	speech := func(i int) bool { return speechWord(ws[i]) || speaks != nil && speaks(ws[i]) }
	for i, w := range ws {
		if !speakerName(w) {
			continue
		}
		if i+1 < len(ws) && ws[i+1] == "on" || i >= 2 && ws[i-2] == "according" && ws[i-1] == "to" {
			return true
		}
		if i >= 2 && ws[i-1] == "of" && speech(i-2) {
			return true
		}
		// A question puts the auxiliary before the name: "Where was Jesus
		// tempted by the devil?" is as passive as "Jesus was tempted".
		inverted := i > 0 && passiveAuxiliary[ws[i-1]]
		for j := i + 1; j < len(ws) && !speakerName(ws[j]); j++ {
			if speech(j) && !passiveAuxiliary[ws[j-1]] && !(inverted && j == i+1) {
				return true
			}
		}
	}
	return false
}

// passiveAuxiliary are the auxiliaries of English's passive voice.
var passiveAuxiliary = map[string]bool{
	"is": true, "are": true, "was": true, "were": true, "be": true, "been": true, "being": true,
	"get": true, "gets": true, "got": true,
}
