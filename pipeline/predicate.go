package pipeline

import (
	"slices"
	"strings"
)

// predicateWords are the words of the predicate noun of a yes-no question
// asking what a thing is ("Is laziness a sin?", "Is it a sin to be
// jealous of others?", "Are tattoos a sin?"): the noun after "a" or "an"
// that the copula opening the question ascribes to its subject. Such a
// question is about its subject, whatever the predicate names: SIN is its
// frame, and "Is laziness a sin?" asks what Scripture says of laziness.
// Nil when no sentence of the question is such a question.
//
// English grammar, not a word list: the copulas, the pronoun subjects
// ("it", "this", "that") and the words that end a noun phrase are closed
// classes. "Is there a God?" asks whether its noun is, and has no
// predicate; "Is Jesus the son of God?" names who he is with "the", an
// identity, not a class, and is left alone.
func predicateWords(question string) []string {
	for _, s := range questionSentences(question) {
		if p := sentencePredicate(s); p != nil {
			return p
		}
	}
	return nil
}

// questionSentences are a question's sentences, split at the marks that
// end one (and at ";").
func questionSentences(question string) []string {
	return strings.FieldsFunc(question, func(r rune) bool { return r == '?' || r == '.' || r == '!' || r == ';' })
}

// subject is the question without the words of its predicate noun
// (predicateWords) when one of them is the title of a Nave's topic:
// what a question framed by a theme asks about. "Is 5 or 6 beers every
// night a problem?" keeps its "problem", which names no theme to be
// confused with its subject.
func (a *Answerer) subject(question string) string {
	p := predicateWords(question)
	tt, ok := a.Router.(themeTeacher)
	if !ok || !slices.ContainsFunc(p, tt.isTopic) {
		return question
	}
	return withoutTerms(a.r, question, a.r.lex.an.termSet(strings.Join(p, " ")))
}

// sentencePredicate is predicateWords of one sentence.
//
// The subject is "it", "this" or "that" with the article next or after
// one word ("Is it ever a sin to ..."; in "Is it ever OK to tell a white
// lie" the article is the infinitive's object's), or a noun phrase that
// is neither a person's pronoun nor a name: "Is he a God of love?" and
// "Is Jesus a prophet?" ask what a person is, and their predicate is what
// they ask about.
func sentencePredicate(sentence string) []string {
	ws := questionWords(sentence)
	if len(ws) < 3 {
		return nil
	}
	switch ws[0] {
	case "is", "are", "was", "were", "isn't", "aren't":
	default:
		return nil
	}
	from := -1
	switch ws[1] {
	case "there":
		return nil
	case "it", "this", "that":
		for i := 2; i < min(len(ws), 4); i++ {
			if ws[i] == "a" || ws[i] == "an" {
				from = i + 1
				break
			}
		}
	default:
		for i := 2; i < len(ws); i++ {
			if ws[i] == "a" || ws[i] == "an" {
				from = i + 1
			}
		}
		if from > 0 && !impersonal(sentence, ws[1:from-1]) {
			return nil
		}
	}
	if from < 0 || from >= len(ws) {
		return nil
	}
	var p []string
	for _, w := range ws[from:] {
		if endsPredicate(w) {
			break
		}
		p = append(p, w)
	}
	return p
}

// impersonal reports whether a subject's words (lower case) hold no
// personal pronoun and no word the sentence capitalises after its first.
func impersonal(sentence string, subject []string) bool {
	for i, f := range typedFields(sentence, false) {
		if i > 0 && f != strings.ToLower(f) && slices.Contains(subject, strings.ToLower(f)) {
			return false
		}
	}
	return !slices.ContainsFunc(subject, func(w string) bool {
		switch w {
		case "he", "she", "they", "you", "i", "we", "him", "her", "them":
			return true
		}
		return false
	})
}

// endsPredicate reports whether w ends a predicate noun phrase: a
// preposition, subordinator or conjunction, or "even" before one.
func endsPredicate(w string) bool {
	switch w {
	case "even", "to", "for", "if", "when", "that", "because", "or", "and", "in", "of", "according", "by", "with", "as", "since", "unless", "while", "before", "after":
		return true
	}
	return false
}
