package topics

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"unicode"

	"github.com/selahdev/selah/corpus"
)

// Nicknames are editorial data beside the keys: the names Christians and
// Jews give a passage, prayer, teaching, event or doctrine that the KJV
// never writes ("the Great Commission", "the Beatitudes", "the love
// chapter"), each with the passages a Bible teacher cites for it,
// strongest first. Neither the KJV, the WEB, Nave's nor WordNet holds
// them (WordNet glosses seven such names with a reference, DEVELOPERS.md,
// fifty-second round), so a search of the text finds the words of the name
// instead: "What is the Great Commission?" cited Ezra 8:36's "king's
// commissions".
//
// The file was written by a helper that saw no code and no evaluation set
// and worked from its knowledge of Christian and Jewish usage and the KJV
// read with diatheke: every reference was read, and every name and alias
// was searched as a phrase in the KJV and dropped when the KJV writes it
// (the text finds those itself).
type Nickname struct {
	// Name is the name as commonly written ("the Great Commission").
	Name string `json:"name"`
	// Aliases are other names of the same thing ("the Decalogue").
	Aliases []string `json:"aliases"`
	// Passages are canonical references, strongest first.
	Passages []string `json:"passages"`

	refs []corpus.Reference
}

// Names returns the name and its aliases.
func (n Nickname) Names() []string {
	return append([]string{n.Name}, n.Aliases...)
}

// References returns the passages, parsed, in order.
func (n Nickname) References() []corpus.Reference {
	return append([]corpus.Reference(nil), n.refs...)
}

// loadNicknames is called once; the embedded file is checked by the tests.
var loadNicknames = sync.OnceValue(func() []Nickname { return mustParse("nicknames.json", parseNicknames) })

// Nicknames returns every nickname, in the file's order.
func Nicknames() []Nickname {
	ns := loadNicknames()
	out := make([]Nickname, len(ns))
	for i, n := range ns {
		n.Aliases = append([]string(nil), n.Aliases...)
		n.Passages = append([]string(nil), n.Passages...)
		out[i] = n
	}
	return out
}

// parseNicknames reads and checks the nickname file: known fields only, a
// name, each name or alias once in any case, at least one passage, every
// passage a valid KJV reference given once.
func parseNicknames(b []byte) ([]Nickname, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var ns []Nickname
	if err := dec.Decode(&ns); err != nil {
		return nil, fmt.Errorf("topics: parse nicknames: %w", err)
	}
	seen := map[string]bool{}
	for i := range ns {
		n := &ns[i]
		for _, name := range n.Names() {
			key := strings.ToLower(strings.TrimSpace(name))
			if key == "" || key != strings.ToLower(name) || !strings.ContainsFunc(key, unicode.IsLetter) {
				// A name is matched by its words: "666" has none.
				return nil, fmt.Errorf("topics: nickname %d: name %q empty, padded or without a word", i, name)
			}
			if seen[key] {
				return nil, fmt.Errorf("topics: nickname %q given twice", name)
			}
			seen[key] = true
		}
		if len(n.Passages) == 0 {
			return nil, fmt.Errorf("topics: nickname %q: no passages", n.Name)
		}
		refs := map[string]bool{}
		for _, p := range n.Passages {
			r, err := corpus.ParseReference(p)
			if err != nil {
				return nil, fmt.Errorf("topics: nickname %q: passage %q: %w", n.Name, p, err)
			}
			if refs[r.String()] {
				return nil, fmt.Errorf("topics: nickname %q: %s given twice", n.Name, p)
			}
			refs[r.String()] = true
			n.refs = append(n.refs, r)
		}
	}
	return ns, nil
}
