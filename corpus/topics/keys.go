package topics

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/selahdev/selah/corpus"
)

// Keys are editorial data beside the hubs: for 800-odd of Nave's theme
// topics (CARE, FORGIVENESS, MARRIAGE, ...), the passages a Bible teacher
// cites first, strongest first. Nave's lists a theme's verses unranked, in
// book order, and nothing else on the machine says which of them a teacher
// would give (DEVELOPERS.md, seventh and eighth rounds); these lists do.
//
// They were written by seven writers who each took a share of the titles
// and worked from Scripture alone (the KJV and Nave's read with diatheke),
// seeing no code and no evaluation set, and every reference was checked
// against the KJV text. The titles are Nave's theme topics: not names (the
// KJV writes their word in lower case) and with at least a dozen verses.
// Retrieval reaches a key list only through its Nave's topic, by the
// router's own matching of the question to Nave's titles; nothing here
// says which words name a topic.
type Key struct {
	// Topic is the Nave's title as the module writes it ("CARE",
	// "ZEAL, RELIGIOUS").
	Topic string `json:"topic"`
	// Verses are canonical references, strongest first.
	Verses []string `json:"verses"`

	refs []corpus.Reference
}

// References returns the key passages, parsed, in order.
func (k Key) References() []corpus.Reference {
	return append([]corpus.Reference(nil), k.refs...)
}

// loadKeys is called once; the embedded file is checked by the tests.
var loadKeys = sync.OnceValue(func() map[string]Key { return mustParse("keys.json", parseKeys) })

// KeyFor returns the key passages of a Nave's topic, by its title in any
// case.
func KeyFor(title string) (Key, bool) {
	k, ok := loadKeys()[strings.ToUpper(strings.TrimSpace(title))]
	if ok {
		k.Verses = append([]string(nil), k.Verses...)
	}
	return k, ok
}

// Keys returns every key list, by upper-case title.
func Keys() map[string]Key {
	out := map[string]Key{}
	for t := range loadKeys() {
		out[t], _ = KeyFor(t)
	}
	return out
}

// parseKeys reads and checks the key file: known fields only, each topic
// once, at least one passage, every passage a valid KJV reference given
// once.
func parseKeys(b []byte) (map[string]Key, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var keys []Key
	if err := dec.Decode(&keys); err != nil {
		return nil, fmt.Errorf("topics: parse keys: %w", err)
	}
	out := make(map[string]Key, len(keys))
	for i, k := range keys {
		title := strings.ToUpper(strings.TrimSpace(k.Topic))
		if title == "" || title != k.Topic {
			return nil, fmt.Errorf("topics: key %d: topic %q must be a Nave's title in capitals", i, k.Topic)
		}
		if _, dup := out[title]; dup {
			return nil, fmt.Errorf("topics: key %s given twice", title)
		}
		if len(k.Verses) == 0 {
			return nil, fmt.Errorf("topics: key %s: no verses", title)
		}
		seen := map[string]bool{}
		for _, v := range k.Verses {
			r, err := corpus.ParseReference(v)
			if err != nil {
				return nil, fmt.Errorf("topics: key %s: verse %q: %w", title, v, err)
			}
			if seen[r.String()] {
				return nil, fmt.Errorf("topics: key %s: %s given twice", title, v)
			}
			seen[r.String()] = true
			k.refs = append(k.refs, r)
		}
		out[title] = k
	}
	return out, nil
}
