// Package wordnet reads Princeton WordNet 3.0 as Debian's wordnet-base
// package installs it (/usr/share/wordnet): the index.* files (each lemma's
// senses, most frequent first), the data.* files (synsets with their words,
// pointers and glosses) and the morphological exception lists (*.exc).
//
// It is the named source of every bridge selah draws between a modern word
// and its synonyms, derivations and broader terms; nothing here is written
// by hand but the detachment rules of WordNet's own morphy (morph.go).
//
// The files are parsed whole into memory at Open (about 30 MB of text,
// 117,659 synsets). A small reader of our own rather than a library: the
// Go readers we found (github.com/fluhus/gostuff/nlp/wordnet) build their
// lemma table from the data files and lose the sense order the index files
// hold, which is what "a word's first senses" needs.
package wordnet

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// POS is a part of speech as WordNet's file names and index lines spell
// it. Adjective satellites ("s" in data lines) are reported as Adj.
type POS byte

const (
	Noun POS = 'n'
	Verb POS = 'v'
	Adj  POS = 'a'
	Adv  POS = 'r'
)

// AllPOS is the order Lookup reports parts of speech in.
var AllPOS = []POS{Noun, Verb, Adj, Adv}

// files names each part of speech's index/data/exception file suffix.
func (p POS) file() string {
	switch p {
	case Noun:
		return "noun"
	case Verb:
		return "verb"
	case Adj:
		return "adj"
	case Adv:
		return "adv"
	}
	return ""
}

func (p POS) String() string { return p.file() }

// synsetKey identifies a synset: its data file and byte offset in it.
type synsetKey struct {
	pos POS
	off uint32
}

// Synset is one set of synonyms with a gloss.
type Synset struct {
	POS POS
	// Offset is the synset's byte offset in its data file, WordNet's id.
	Offset uint32
	// Words are the synset's lemmas in file order, with spaces for
	// WordNet's underscores and the adjective markers ("(a)") dropped.
	Words []string
	// Gloss is the definition and its example sentences as written.
	Gloss string
	// LexFile is the number of the lexicographer file the synset comes
	// from, WordNet's coarse class of its sense (18 is noun.person; see
	// lexnames(5WN)).
	LexFile uint8
	// Satellite is set for an adjective satellite (ss_type "s"): a sense
	// WordNet defines by its head adjective, which it points to with
	// "similar to" ("unforgivable" → "unpardonable").
	Satellite bool
	pointers  []pointer
	frames    []frame
}

// frame is a verb frame of a synset: frames(5WN)'s number (1 "Something
// ----s", 8 "Somebody ----s something", ...) and the word it holds for
// (1-based; 0: every word).
type frame struct {
	num, word uint8
}

// pointer is one relation from a synset (or one of its words) to another.
type pointer struct {
	symbol string
	target synsetKey
	src    uint8 // word number in the source synset, 1-based; 0: the whole synset
	dst    uint8 // word number in the target synset; 0: the whole synset
}

// Sense is one sense of a lemma: the synset and the relations of the
// lemma in it.
type Sense struct {
	Lemma string
	*Synset
	// Synonyms are the synset's other words.
	Synonyms []string
	// Derived are the lemma's derivationally related forms (pointer "+"),
	// in file order, each once.
	Derived []string
	// Hypernyms are the words of the synset's hypernyms and instance
	// hypernyms (pointers "@" and "@i").
	Hypernyms []string
	// Similar, for an adjective satellite, are the words of its head
	// adjective (pointer "&" from a satellite): the sense the satellite
	// narrows, so near a synonym. A head's pointers to its many
	// satellites are not followed.
	Similar []string
	// Frames are a verb sense's sentence frames for the lemma, by
	// frames(5WN)'s numbers: 2 is "Somebody ----s", 8 "Somebody ----s
	// something".
	Frames []int
}

// Lemma is one lemma in one part of speech with its senses, most frequent
// first (the order of index.*, by WordNet's sense-tagged counts).
type Lemma struct {
	Lemma  string
	POS    POS
	Senses []Sense
}

// WordNet is an opened WordNet database, safe for concurrent reads.
type WordNet struct {
	synsets    map[synsetKey]*Synset
	order      []*Synset                   // in file order: noun, verb, adj, adv
	index      map[POS]map[string][]uint32 // lemma -> synset offsets in sense order
	exceptions map[POS]map[string][]string // inflected form -> base forms
}

// Open reads the WordNet database in dir (/usr/share/wordnet on Debian).
func Open(dir string) (*WordNet, error) {
	w := &WordNet{
		synsets:    make(map[synsetKey]*Synset, 120000),
		index:      map[POS]map[string][]uint32{},
		exceptions: map[POS]map[string][]string{},
	}
	for _, p := range AllPOS {
		if err := w.readData(filepath.Join(dir, "data."+p.file()), p); err != nil {
			return nil, err
		}
		if err := w.readIndex(filepath.Join(dir, "index."+p.file()), p); err != nil {
			return nil, err
		}
		if err := w.readExceptions(filepath.Join(dir, p.file()+".exc"), p); err != nil {
			return nil, err
		}
	}
	// Every pointer and index entry must land on a synset, so a damaged
	// file is found here rather than as a silent gap in a lookup.
	for _, s := range w.order {
		for _, pt := range s.pointers {
			if _, ok := w.synsets[pt.target]; !ok {
				return nil, fmt.Errorf("wordnet: %s synset %08d points to missing %s %08d", s.POS, s.Offset, pt.target.pos, pt.target.off)
			}
		}
	}
	for p, idx := range w.index {
		for lemma, offs := range idx {
			for _, o := range offs {
				if _, ok := w.synsets[synsetKey{p, o}]; !ok {
					return nil, fmt.Errorf("wordnet: index.%s %q lists missing synset %08d", p, lemma, o)
				}
			}
		}
	}
	return w, nil
}

// eachLine calls fn with every line of a WordNet file but the license
// header (lines starting with two spaces).
func eachLine(path string, fn func(line []byte) error) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("wordnet: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Bytes()
		if len(line) == 0 || bytes.HasPrefix(line, []byte("  ")) {
			continue
		}
		if err := fn(line); err != nil {
			return fmt.Errorf("wordnet: %s line %d: %w", filepath.Base(path), n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("wordnet: %s: %w", filepath.Base(path), err)
	}
	return nil
}

// readData parses a data file. A line is
//
//	offset lex_filenum ss_type w_cnt(hex) [word lex_id(hex)]... p_cnt
//	[symbol offset pos source/target(hex)]... [frames] | gloss
func (w *WordNet) readData(path string, p POS) error {
	return eachLine(path, func(line []byte) error {
		head, gloss, ok := bytes.Cut(line, []byte(" | "))
		if !ok {
			head = bytes.TrimSuffix(bytes.TrimSpace(line), []byte(" |"))
		}
		f := strings.Fields(string(head))
		if len(f) < 4 {
			return errors.New("short synset line")
		}
		off, err := strconv.ParseUint(f[0], 10, 32)
		if err != nil {
			return fmt.Errorf("offset %q", f[0])
		}
		lex, err := strconv.ParseUint(f[1], 10, 8)
		if err != nil {
			return fmt.Errorf("synset %s lexicographer file %q", f[0], f[1])
		}
		s := &Synset{POS: p, Offset: uint32(off), Gloss: strings.TrimSpace(string(gloss)), LexFile: uint8(lex), Satellite: f[2] == "s"}
		nw, err := strconv.ParseUint(f[3], 16, 8)
		if err != nil {
			return fmt.Errorf("synset %s word count %q", f[0], f[3])
		}
		i := 4
		for range nw {
			if i+1 >= len(f) {
				return fmt.Errorf("synset %s: words run past the line", f[0])
			}
			s.Words = append(s.Words, cleanWord(f[i]))
			i += 2
		}
		if i >= len(f) {
			return fmt.Errorf("synset %s: no pointer count", f[0])
		}
		np, err := strconv.Atoi(f[i])
		if err != nil {
			return fmt.Errorf("synset %s pointer count %q", f[0], f[i])
		}
		i++
		for range np {
			if i+3 >= len(f) {
				return fmt.Errorf("synset %s: pointers run past the line", f[0])
			}
			toff, err := strconv.ParseUint(f[i+1], 10, 32)
			if err != nil {
				return fmt.Errorf("synset %s pointer offset %q", f[0], f[i+1])
			}
			tp, ok := parsePOS(f[i+2])
			if !ok {
				return fmt.Errorf("synset %s pointer part of speech %q", f[0], f[i+2])
			}
			st, err := strconv.ParseUint(f[i+3], 16, 16)
			if err != nil || len(f[i+3]) != 4 {
				return fmt.Errorf("synset %s pointer source/target %q", f[0], f[i+3])
			}
			s.pointers = append(s.pointers, pointer{symbol: f[i], target: synsetKey{tp, uint32(toff)},
				src: uint8(st >> 8), dst: uint8(st)})
			i += 4
		}
		if p == Verb && i < len(f) {
			// f_cnt, then "+ f_num w_num(hex)" per frame.
			nf, err := strconv.Atoi(f[i])
			if err != nil {
				return fmt.Errorf("synset %s frame count %q", f[0], f[i])
			}
			i++
			for range nf {
				if i+2 >= len(f) || f[i] != "+" {
					return fmt.Errorf("synset %s: frames run past the line", f[0])
				}
				num, err1 := strconv.ParseUint(f[i+1], 10, 8)
				word, err2 := strconv.ParseUint(f[i+2], 16, 8)
				if err1 != nil || err2 != nil {
					return fmt.Errorf("synset %s frame %q %q", f[0], f[i+1], f[i+2])
				}
				s.frames = append(s.frames, frame{uint8(num), uint8(word)})
				i += 3
			}
		}
		k := synsetKey{p, s.Offset}
		if _, dup := w.synsets[k]; dup {
			return fmt.Errorf("synset %s twice", f[0])
		}
		w.synsets[k] = s
		w.order = append(w.order, s)
		return nil
	})
}

// parsePOS reads a data line's part of speech; satellites live in the
// adjective file.
func parsePOS(s string) (POS, bool) {
	switch s {
	case "n":
		return Noun, true
	case "v":
		return Verb, true
	case "a", "s":
		return Adj, true
	case "r":
		return Adv, true
	}
	return 0, false
}

// cleanWord turns a data-file word into text: underscores are spaces, and
// an adjective's syntactic marker ("galore(ip)") is dropped.
func cleanWord(s string) string {
	if i := strings.IndexByte(s, '('); i > 0 && strings.HasSuffix(s, ")") {
		s = s[:i]
	}
	return strings.ReplaceAll(s, "_", " ")
}

// readIndex parses an index file. A line is
//
//	lemma pos synset_cnt p_cnt [ptr_symbol]... sense_cnt tagsense_cnt [offset]...
//
// with the offsets in sense order.
func (w *WordNet) readIndex(path string, p POS) error {
	idx := map[string][]uint32{}
	w.index[p] = idx
	return eachLine(path, func(line []byte) error {
		f := strings.Fields(string(line))
		if len(f) < 4 {
			return errors.New("short index line")
		}
		n, err := strconv.Atoi(f[2])
		if err != nil || n <= 0 {
			return fmt.Errorf("%q synset count %q", f[0], f[2])
		}
		if len(f) < n {
			return fmt.Errorf("%q: %d synsets on a %d-field line", f[0], n, len(f))
		}
		offs := make([]uint32, 0, n)
		for _, s := range f[len(f)-n:] {
			o, err := strconv.ParseUint(s, 10, 32)
			if err != nil {
				return fmt.Errorf("%q offset %q", f[0], s)
			}
			offs = append(offs, uint32(o))
		}
		idx[f[0]] = offs
		return nil
	})
}

// readExceptions parses an exception list: "inflected base [base]...".
func (w *WordNet) readExceptions(path string, p POS) error {
	exc := map[string][]string{}
	w.exceptions[p] = exc
	return eachLine(path, func(line []byte) error {
		f := strings.Fields(string(line))
		if len(f) < 2 {
			return errors.New("exception without a base form")
		}
		exc[f[0]] = append(exc[f[0]], f[1:]...)
		return nil
	})
}

// Has reports whether lemma (lower case, spaces or underscores) is a lemma
// of part of speech p as written, without inflection rules.
func (w *WordNet) Has(lemma string, p POS) bool {
	_, ok := w.index[p][strings.ReplaceAll(lemma, " ", "_")]
	return ok
}

// EachException calls fn with each line of p's exception list: an
// irregular form and the base forms it inflects ("became" → "become"),
// in the forms' alphabetical order so that callers building tables from
// them get the same table every run.
func (w *WordNet) EachException(p POS, fn func(form string, bases []string)) {
	exc := w.exceptions[p]
	for _, form := range slices.Sorted(maps.Keys(exc)) {
		fn(form, exc[form])
	}
}

// Lookup returns the lemmas a word form is an inflection of (or is) in each
// part of speech, in the order of AllPOS, each with all its senses in order.
// The word is matched lower-cased, with spaces as WordNet's underscores. A
// word WordNet does not know gives none.
func (w *WordNet) Lookup(word string) []Lemma {
	word = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(word)), " ", "_")
	if word == "" {
		return nil
	}
	var out []Lemma
	for _, p := range AllPOS {
		for _, base := range w.baseForms(word, p) {
			out = append(out, w.lemma(base, p))
		}
	}
	return out
}

// Senses returns the first n senses of each lemma of word (n < 1: all), in
// Lookup's order.
func (w *WordNet) Senses(word string, n int) []Sense {
	var out []Sense
	for _, l := range w.Lookup(word) {
		s := l.Senses
		if n > 0 && len(s) > n {
			s = s[:n]
		}
		out = append(out, s...)
	}
	return out
}

// BaseForms returns the lemmas word is a form of in any part of speech,
// each once ("children" -> "child"; "loved" -> "love", "loved").
func (w *WordNet) BaseForms(word string) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range w.Lookup(word) {
		if !seen[l.Lemma] {
			seen[l.Lemma] = true
			out = append(out, l.Lemma)
		}
	}
	return out
}

func (w *WordNet) lemma(base string, p POS) Lemma {
	l := Lemma{Lemma: strings.ReplaceAll(base, "_", " "), POS: p}
	for _, off := range w.index[p][base] {
		s := w.synsets[synsetKey{p, off}]
		l.Senses = append(l.Senses, w.sense(l.Lemma, s))
	}
	return l
}

// sense gathers the relations of lemma in synset s.
func (w *WordNet) sense(lemma string, s *Synset) Sense {
	se := Sense{Lemma: lemma, Synset: s}
	self := 0 // the lemma's 1-based word number in s
	for i, word := range s.Words {
		if strings.EqualFold(word, lemma) {
			if self == 0 {
				self = i + 1
			}
			continue
		}
		se.Synonyms = appendOnce(se.Synonyms, word)
	}
	for _, pt := range s.pointers {
		t := w.synsets[pt.target]
		switch pt.symbol {
		case "+":
			if pt.src == 0 || int(pt.src) == self {
				se.Derived = appendTargets(se.Derived, t, pt.dst)
			}
		case "@", "@i":
			se.Hypernyms = appendTargets(se.Hypernyms, t, 0)
		case "&":
			if s.Satellite {
				se.Similar = appendTargets(se.Similar, t, 0)
			}
		}
	}
	for _, fr := range s.frames {
		if (fr.word == 0 || int(fr.word) == self) && !slices.Contains(se.Frames, int(fr.num)) {
			se.Frames = append(se.Frames, int(fr.num))
		}
	}
	return se
}

// appendTargets appends word dst (1-based) of t, or all its words when dst
// is 0.
func appendTargets(list []string, t *Synset, dst uint8) []string {
	if dst > 0 && int(dst) <= len(t.Words) {
		return appendOnce(list, t.Words[dst-1])
	}
	for _, word := range t.Words {
		list = appendOnce(list, word)
	}
	return list
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// EachSynset calls fn with every synset in file order (nouns, verbs,
// adjectives, adverbs), e.g. to gather glosses for a training corpus. An
// error from fn stops the walk and is returned.
func (w *WordNet) EachSynset(fn func(*Synset) error) error {
	for _, s := range w.order {
		if err := fn(s); err != nil {
			return err
		}
	}
	return nil
}

// Len is the number of synsets.
func (w *WordNet) Len() int { return len(w.order) }

// physicalEntity is the offset of the noun synset physical_entity, one of
// the two halves of WordNet's top noun "entity" (the other is
// abstraction, 00002137).
const physicalEntity = 1930

// Physical reports whether s is a noun sense of a physical thing: whether
// its hypernyms (and instance hypernyms) lead to physical_entity, WordNet's
// own split of the nouns into things and abstractions. A synset with
// parents on both sides counts as physical.
func (w *WordNet) Physical(s *Synset) bool {
	if s == nil || s.POS != Noun {
		return false
	}
	seen := map[uint32]bool{}
	var up func(s *Synset) bool
	up = func(s *Synset) bool {
		if s.Offset == physicalEntity {
			return true
		}
		if seen[s.Offset] {
			return false
		}
		seen[s.Offset] = true
		for _, pt := range s.pointers {
			if pt.symbol != "@" && pt.symbol != "@i" {
				continue
			}
			if t := w.synsets[pt.target]; t != nil && up(t) {
				return true
			}
		}
		return false
	}
	return up(s)
}

// maxLeadSteps bounds the hypernym and cause steps Leads takes: WordNet's
// verb hierarchies are shallow (kill → die is one cause step, hang "kill
// by hanging" → execute → kill two hypernym steps).
const maxLeadSteps = 6

// Leads reports whether one of the first n senses (n < 1: all) of a form
// of word is verb sense rootSense (1-based) of root, or a kind of it or a
// cause of it, through hypernyms (@, @i) and causes (>): "stone" (kill by
// throwing stones at) and "slew" (slay, a kind of kill, which causes
// die) lead to "die". A noun or adjective sense leads when a verb it is
// derived from (+) does: "death" and "burial" lead to "die" and "bury";
// a word that is a form of a verb is read as the verb only.
// WordNet's troponymy is the relation; no word list of ours decides.
func (w *WordNet) Leads(word, root string, rootSense, n int) bool {
	rs := w.index[Verb][root]
	if rootSense < 1 || rootSense > len(rs) {
		return false
	}
	target := synsetKey{Verb, rs[rootSense-1]}
	word = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(word)), " ", "_")
	// A form of a verb is read as the verb: "going" is no "death"
	// (a noun sense of going), "killing" is kill.
	verbForm := len(w.baseForms(word, Verb)) > 0
	for _, p := range AllPOS {
		if verbForm && p != Verb {
			continue
		}
		for _, base := range w.baseForms(word, p) {
			offs := w.index[p][base]
			if n > 0 && len(offs) > n {
				offs = offs[:n]
			}
			for _, off := range offs {
				s := w.synsets[synsetKey{p, off}]
				if p == Verb {
					if w.reaches(synsetKey{p, off}, target) {
						return true
					}
					continue
				}
				self := slices.IndexFunc(s.Words, func(x string) bool { return strings.EqualFold(strings.ReplaceAll(x, " ", "_"), base) }) + 1
				for _, pt := range s.pointers {
					if pt.symbol == "+" && pt.target.pos == Verb && (pt.src == 0 || int(pt.src) == self) && w.reaches(pt.target, target) {
						return true
					}
				}
			}
		}
	}
	return false
}

// KindOf reports whether one of the first n noun senses (n < 1: all) of
// a form of word is a noun sense of kind, or a kind of one, through
// hypernyms (@, @i): "hours" is an hour, the sabbath a day (a day of
// rest), Nisan a month, midnight an hour.
func (w *WordNet) KindOf(word, kind string, n int) bool {
	kind = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(kind)), " ", "_")
	kinds := w.index[Noun][kind]
	if len(kinds) == 0 {
		return false
	}
	word = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(word)), " ", "_")
	for _, base := range w.baseForms(word, Noun) {
		offs := w.index[Noun][base]
		if n > 0 && len(offs) > n {
			offs = offs[:n]
		}
		for _, off := range offs {
			for _, k := range kinds {
				if w.reaches(synsetKey{Noun, off}, synsetKey{Noun, k}) {
					return true
				}
			}
		}
	}
	return false
}

// reaches reports whether from is target or leads to it through
// hypernyms and causes within maxLeadSteps.
func (w *WordNet) reaches(from, target synsetKey) bool {
	frontier := []synsetKey{from}
	seen := map[synsetKey]bool{from: true}
	for step := 0; step <= maxLeadSteps && len(frontier) > 0; step++ {
		var next []synsetKey
		for _, k := range frontier {
			if k == target {
				return true
			}
			s := w.synsets[k]
			if s == nil {
				continue
			}
			for _, pt := range s.pointers {
				if (pt.symbol == "@" || pt.symbol == "@i" || pt.symbol == ">") && !seen[pt.target] {
					seen[pt.target] = true
					next = append(next, pt.target)
				}
			}
		}
		frontier = next
	}
	return false
}
