package pipeline

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/selahdev/selah/corpus"
)

// Numerals. The KJV and the WEB write every number in words ("forty days",
// "the ten commandments", "about five thousand men"), and the tokenizer
// drops digits, so "40 days in the wilderness" searched for "days" alone
// and "the 10 commandments" for "commandments". A number people write in
// digits is read as the words the Bible writes it with, when it is one the
// Bible could write: up to 999, and whole thousands up to 999,000 ("feed
// the 5000"). Any other run of digits (a year, a price, "3x", "16:8") is a
// word the corpus has never seen, and counts so for the decline signal:
// "Who won the Super Bowl in 2020?" asks about something no verse holds.
// The digits of a reference ("John 3:16", "1 Corinthians 13") are neither:
// a reference is not a number.
//
// The words are English's own (ones, teens, tens); nothing here is a
// bridge between modern and KJV words.

var (
	smallNumbers = [...]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
		"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"}
	tensNumbers = [...]string{2: "twenty", 3: "thirty", 4: "forty", 5: "fifty", 6: "sixty", 7: "seventy", 8: "eighty", 9: "ninety"}
)

// numberWords spells n (0 ≤ n < 1000) as the Bible would: "an hundred"
// becomes "a hundred", which the stop list reads as "hundred".
func numberWords(n int) string {
	var parts []string
	if h := n / 100; h > 0 {
		if h == 1 {
			parts = append(parts, "a hundred")
		} else {
			parts = append(parts, smallNumbers[h]+" hundred")
		}
		n %= 100
		if n == 0 {
			return strings.Join(parts, " ")
		}
	}
	switch {
	case n < 20:
		parts = append(parts, smallNumbers[n])
	case n%10 == 0:
		parts = append(parts, tensNumbers[n/10])
	default:
		parts = append(parts, tensNumbers[n/10], smallNumbers[n%10])
	}
	return strings.Join(parts, " ")
}

// spellNumber spells n when the Bible could write it, else "".
func spellNumber(n int) string {
	switch {
	case n < 0:
		return ""
	case n < 1000:
		return numberWords(n)
	case n%1000 == 0 && n < 1_000_000:
		if n == 1000 {
			return "a thousand"
		}
		return numberWords(n/1000) + " thousand"
	}
	return ""
}

// numeral is a run of digits in a text, with thousands separators
// ("5,000").
type numeral struct {
	start, end int // byte offsets, end exclusive
	value      int // -1: too long to be a number the Bible writes
	// word: glued to a letter, written as a decimal, time or ratio, or
	// an exponent ("3x", "16:8", "2.5", "x^2"): not a number to spell.
	word bool
	// ordinal: written with its ending ("3rd", "40th").
	ordinal bool
}

// ordinalSuffix is the length of the ordinal ending ("st", "nd", "rd",
// "th") that rest starts with as a whole word, or 0.
func ordinalSuffix(rest string) int {
	if len(rest) < 2 {
		return 0
	}
	switch strings.ToLower(rest[:2]) {
	case "st", "nd", "rd", "th":
		if r, _ := utf8.DecodeRuneInString(rest[2:]); !unicode.IsLetter(r) {
			return 2
		}
	}
	return 0
}

// ordinalWords turns a spelled number into its ordinal: "forty" →
// "fortieth", "twenty three" → "twenty third".
func ordinalWords(words string) string {
	head, last := "", words
	if i := strings.LastIndexByte(words, ' '); i >= 0 {
		head, last = words[:i+1], words[i+1:]
	}
	switch last {
	case "one":
		last = "first"
	case "two":
		last = "second"
	case "three":
		last = "third"
	case "five":
		last = "fifth"
	case "eight":
		last = "eighth"
	case "nine":
		last = "ninth"
	case "twelve":
		last = "twelfth"
	default:
		if t, ok := strings.CutSuffix(last, "y"); ok {
			last = t + "ieth"
		} else {
			last += "th"
		}
	}
	return head + last
}

// numerals finds text's runs of digits outside the references it holds.
func numerals(text string) []numeral {
	if !strings.ContainsAny(text, "0123456789") {
		// Most queries: no reference to find either.
		return nil
	}
	refs := corpus.FindReferences(text)
	inRef := func(i int) bool {
		for _, m := range refs {
			if i >= m.Start && i < m.End {
				return true
			}
		}
		return false
	}
	var out []numeral
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isASCIIDigit(r) {
			i += size
			continue
		}
		j := digitsEnd(text, i)
		// Thousands separators: "5,000" is one number.
		for j+4 <= len(text) && text[j] == ',' && digitsEnd(text, j+1) == j+4 {
			j += 4
		}
		// A share ("tithe 10% of my income") or someone's age ("our
		// 25-year-old son", "a 50 year old woman") is neither a count the
		// Bible writes in words nor a subject it never speaks of: spelled,
		// an age sends the search to the verses counting years ("from
		// fifty years old", Numbers 4) instead of the question's matter.
		if inRef(i) || numberedBook(text, j) || strings.HasPrefix(text[j:], "%") || isAge(text[j:]) {
			i = j
			continue
		}
		n := numeral{start: i, end: j, value: -1}
		if v, err := strconv.Atoi(strings.ReplaceAll(text[i:j], ",", "")); err == nil {
			n.value = v
		}
		if suf := ordinalSuffix(text[j:]); suf > 0 {
			// "the 3rd day" is "the third day".
			n.ordinal, n.end, j = true, j+suf, j+suf
		}
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[j:])
		afterNext, _ := utf8.DecodeRuneInString(text[min(j+1, len(text)):])
		n.word = unicode.IsLetter(before) || unicode.IsLetter(after) ||
			strings.ContainsRune(".:/", after) && isASCIIDigit(afterNext) ||
			strings.ContainsRune(".:/", before) && i > 1 && isASCIIDigit(rune(text[i-2])) ||
			before == '^' // an exponent: "x^2"
		out = append(out, n)
		i = j
	}
	return out
}

// numberedBook reports whether the word after a number ending at end,
// with the number, names a book ("1 Corinthians", "2 Kings"): the
// number is part of a name.
func numberedBook(text string, end int) bool {
	rest := strings.TrimLeft(text[end:], " \u00a0")
	if len(rest) == len(text[end:]) {
		return false
	}
	w, _, _ := strings.Cut(rest, " ")
	w = strings.TrimRightFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })
	if w == "" {
		return false
	}
	start := end
	for start > 0 && isASCIIDigit(rune(text[start-1])) {
		start--
	}
	_, ok := corpus.LookupBook(text[start:end] + " " + w)
	return ok
}

func isASCIIDigit(r rune) bool { return r >= '0' && r <= '9' }

// digitsEnd is the end of the run of digits at text[i:].
func digitsEnd(text string, i int) int {
	for i < len(text) && isASCIIDigit(rune(text[i])) {
		i++
	}
	return i
}

// spellNumerals returns text with each number the Bible could write in
// words spelled so ("40 days" → "forty days").
func spellNumerals(text string) string {
	ns := numerals(text)
	if len(ns) == 0 {
		return text
	}
	var b strings.Builder
	last := 0
	for _, n := range ns {
		w := ""
		if !n.word {
			w = spellNumber(n.value)
		}
		if w != "" && n.ordinal {
			w = ordinalWords(w)
		}
		if w == "" {
			continue
		}
		b.WriteString(text[last:n.start])
		b.WriteString(w)
		last = n.end
	}
	b.WriteString(text[last:])
	return b.String()
}

// strayNumerals counts text's runs of digits that are neither a number
// spellNumerals spells nor part of a reference: words the corpus has
// never seen.
func strayNumerals(text string) int {
	k := 0
	for _, n := range numerals(text) {
		if n.word || spellNumber(n.value) == "" {
			k++
		}
	}
	return k
}

// isAge reports whether rest, the text after a number, makes it an age:
// "-year-old", " years old", " yo".
func isAge(rest string) bool {
	f := strings.FieldsFunc(strings.ToLower(rest), func(r rune) bool { return !unicode.IsLetter(r) })
	if len(f) == 0 {
		return false
	}
	return f[0] == "yo" || len(f) > 1 && (f[0] == "year" || f[0] == "years") && f[1] == "old"
}
