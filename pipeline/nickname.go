package pipeline

import (
	"context"
	"slices"
	"strings"

	"github.com/kljensen/snowball/english"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/topics"
)

// A question may name a passage, prayer, teaching, event or doctrine by
// the name Christians give it and the KJV never writes: "What is the Great
// Commission?", "where are the beatitudes", "explain the high priestly
// prayer". Searched, such a question finds the words of the name ("the
// king's commissions", Ezra 8:36), and Nave's titles hold few of them. The
// nicknames (corpus/topics nicknames.json) give the passages a teacher
// cites for each; a question asking about nothing but the name is
// answered from them, in their order. One asking more of it ("what does
// the Sermon on the Mount say about divorce") is asked as any other.

// nicknameFrame are the words, beside stop words and the question frame
// (questionFrame), with which a question asks about a name and nothing
// more: what it is, where it is, what it means or teaches. Written from
// the frames of questions at large, before the nickname sets were read;
// stemmed as the index stems (nicknameFrameTerms).
var nicknameFrame = []string{
	"explain", "explanation", "meaning", "mean", "summarize", "summarise",
	"summary", "overview", "teach", "lesson", "significance", "story",
	"passage", "chapter", "find", "located", "location", "kjv", "read",
	"quote", "text", "describe", "purpose", "point", "message", "main",
	"whole", "full", "known", "called", "name", "refer", "reference",
	"know", "please", "pls", "simple", "terms", "words", "short", "brief",
	"quick", "rundown", "nutshell", "symbolize", "represent", "talk",
	"speak", "exactly", "really", "actually", "understand", "give", "show",
	"list", "book", "jesus", "christ", "god", "lord", "come", "origin",
}

// nicknameIndex finds the nickname a question names.
type nicknameIndex struct {
	byFirst map[string][]nicknameName // by the name's first word
	frame   map[string]bool           // nicknameFrame's index terms
}

// nicknameName is one name of a nickname, as the index's words.
type nicknameName struct {
	words []string
	nick  topics.Nickname
}

// newNicknameIndex indexes ns' names; writes reports whether the text
// writes words in order.
func newNicknameIndex(ns []topics.Nickname, writes func(words []string) bool) *nicknameIndex {
	x := &nicknameIndex{byFirst: map[string][]nicknameName{}, frame: map[string]bool{}}
	for _, n := range ns {
		for _, name := range n.Names() {
			words := nicknameWords(name, writes)
			if !slices.ContainsFunc(runWords(name), func(w string) bool { return !isStop(w) }) {
				// Matched by no word of its own: "the 144,000".
				continue
			}
			x.byFirst[words[0]] = append(x.byFirst[words[0]], nicknameName{words: words, nick: n})
		}
	}
	an := &analyzer{}
	for _, w := range nicknameFrame {
		an.terms(w, func(t string) { x.frame[t] = true })
	}
	return x
}

// nicknameWords are a name's words as the index holds them, stemmed. A question
// may leave out its leading article ("beatitudes meaning") unless the
// text writes the name without it: Shema is a son of Hebron, "the Shema"
// the prayer.
func nicknameWords(name string, writes func(words []string) bool) []string {
	words := runWords(name)
	if len(words) > 1 && words[0] == "the" && !writes(words[1:]) {
		words = words[1:]
	}
	return wordStems(words)
}

// find returns the longest name question's words hold, where it
// starts, and the question's other words.
func (x *nicknameIndex) find(question string) (n nicknameName, rest []string, ok bool) {
	if x == nil {
		return nicknameName{}, nil, false
	}
	words := runWords(question)
	stems := wordStems(words)
	at := -1
	for i, w := range stems {
		for _, c := range x.byFirst[w] {
			if len(c.words) > len(n.words) && i+len(c.words) <= len(stems) && slices.Equal(stems[i:i+len(c.words)], c.words) {
				n, at = c, i
			}
		}
	}
	if at < 0 {
		return nicknameName{}, nil, false
	}
	rest = append(append(rest, words[:at]...), words[at+len(n.words):]...)
	return n, rest, true
}

// wordStems are words' Snowball stems: a name is matched whatever its
// number or possessive as typed ("widows mite": "the widow's mite").
func wordStems(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = english.Stem(w, true)
	}
	return out
}

// nicknamed returns the nickname question asks about and nothing more:
// the longest name it holds, when each of its other words frames the
// question (nicknameFrame) or is a word of the passages cited for the
// name, their books or their letters' writers ("jonah's prayer from
// inside the fish", "the foot washing in john", "what Paul teaches
// about justification by faith"): such words say which passage is meant,
// not what more is asked of it. "What does the Sermon on the Mount say
// about divorce" asks more.
func (r *Retriever) nicknamed(question string) (topics.Nickname, bool) {
	n, rest, ok := r.nicknames.find(question)
	if !ok {
		return topics.Nickname{}, false
	}
	an := &analyzer{}
	var own map[string]bool // the passages' terms, read when needed
	for _, w := range contentWords(strings.Join(rest, " ")) {
		if anyTerm(an, w, r.nicknames.frame) {
			continue
		}
		if own == nil {
			own = r.passageTerms(n.nick.References())
		}
		if !own[w] && !anyTerm(an, w, own) {
			return topics.Nickname{}, false
		}
	}
	return n.nick, true
}

// passageTerms are the index terms of refs' verses in both wordings, of
// their books' names, and the writers of their letters, as typed.
func (r *Retriever) passageTerms(refs []corpus.Reference) map[string]bool {
	an := &analyzer{}
	out := map[string]bool{}
	add := func(text string) { an.terms(text, func(t string) { out[t] = true }) }
	books := map[int]bool{}
	for _, ref := range refs {
		for _, id := range ref.VerseIDs() {
			if d, ok := r.lex.docIndex[id]; ok {
				add(r.verses[d].Text)
				add(r.web[d])
			}
			books[id.Book()] = true
		}
	}
	for _, b := range corpus.Books() {
		if books[b.Number] {
			add(b.Name)
		}
	}
	for writer, bs := range r.writers {
		for _, b := range bs {
			if books[b] {
				out[writer] = true
			}
		}
	}
	return out
}

// anyTerm reports whether w has an index term in terms.
func anyTerm(an *analyzer, w string, terms map[string]bool) bool {
	found := false
	an.terms(w, func(t string) { found = found || terms[t] })
	return found
}

// cited answers question from refs, the first maxRefs in their order
// (an offer's key passages, a nickname's): each is quoted as a passage
// asked by reference, without where Nave's files it, since the list, not
// Nave's, chose it. named is the name they are cited for, or "".
func (a *Answerer) cited(ctx context.Context, question, named string, refs []corpus.Reference, maxRefs int, extractive bool) (Answer, error) {
	var runs [][]corpus.VerseID
	for _, ref := range refs {
		if len(runs) == maxRefs {
			break
		}
		runs = append(runs, ref.VerseIDs())
	}
	q, err := a.passageQuestion(ctx, question, "", runs, maxRefs)
	if err != nil {
		return Answer{}, err
	}
	for i := range q.Passages {
		q.Passages[i].Filed = nil
	}
	q.Named = named
	return a.write(ctx, q, Answer{}, extractive)
}
