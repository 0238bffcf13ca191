// Package topics holds selah's topic hubs: curated guides to what the King
// James Bible says about subjects people ask about (worry, marriage,
// grief, money, ...). Each hub has a short summary written for selah, the
// key passages in strongest-first order, the words people use for the
// subject, and related hubs. The passages were chosen from those Nave's
// Topical Bible lists under the hub's source topics, which the tests check
// against the Nave module itself. Match finds the hubs that fit a question
// or a set of cited verses.
package topics

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/selahdev/selah/corpus"
)

//go:embed hubs.json keys.json nicknames.json
var files embed.FS

// Hub is one topic hub.
type Hub struct {
	// Slug names the hub in URLs ("anxiety", "grief-and-comfort"). It is
	// kebab-case and stable: clients keep it.
	Slug  string `json:"slug"`
	Title string `json:"title"`
	// Summary is one to three plain sentences on what the passages cover.
	Summary string `json:"summary"`
	// Verses are the hub's passages as canonical references ("John 3:16",
	// "1 Corinthians 13:4-7"), strongest first.
	Verses []string `json:"verses"`
	// Related are the slugs of hubs a reader may want next.
	Related []string `json:"related"`
	// Nave names the Nave's Topical Bible topics the verses were drawn
	// from: a key ("FORGIVENESS") or one section of a large entry, written
	// "KEY / SECTION" ("GOD / MERCY OF").
	Nave []string `json:"nave"`
	// Keywords are everyday words and phrases for the subject, used by
	// Match.
	Keywords []string `json:"keywords"`
	// Extra lists the few verses that are not filed under the hub's Nave
	// topics but belong to it, each with the reason.
	Extra []Extra `json:"extra,omitempty"`

	refs []corpus.Reference
	ids  []corpus.VerseID
}

// Extra is a hub verse taken from outside the hub's Nave topics.
type Extra struct {
	Ref    string `json:"ref"`
	Reason string `json:"reason"`
}

// References returns the hub's passages, parsed, in the order of Verses.
func (h Hub) References() []corpus.Reference { return slices.Clone(h.refs) }

// VerseIDs returns every verse of the hub's passages, ranges expanded, in
// the order of Verses and each once.
func (h Hub) VerseIDs() []corpus.VerseID { return slices.Clone(h.ids) }

// clone copies the hub so callers cannot change the catalog through its
// slices.
func (h Hub) clone() Hub {
	h.Verses = slices.Clone(h.Verses)
	h.Related = slices.Clone(h.Related)
	h.Nave = slices.Clone(h.Nave)
	h.Keywords = slices.Clone(h.Keywords)
	h.Extra = slices.Clone(h.Extra)
	return h
}

// catalog is the loaded hubs in title order, with the index Match uses.
type catalog struct {
	hubs   []Hub
	bySlug map[string]int
	match  *matcher
}

// load is called once; the embedded file is checked by the tests, so a
// failure here is a build defect.
var load = sync.OnceValue(func() *catalog { return mustParse("hubs.json", parse) })

// mustParse reads and parses an embedded file. The tests check every
// embedded file, so a failure is a build defect and panics.
func mustParse[T any](name string, parse func([]byte) (T, error)) T {
	b, err := files.ReadFile(name)
	if err != nil {
		panic(fmt.Sprintf("topics: %v", err))
	}
	v, err := parse(b)
	if err != nil {
		panic(err.Error())
	}
	return v
}

// All returns every hub, ordered by title.
func All() []Hub {
	c := load()
	out := make([]Hub, len(c.hubs))
	for i, h := range c.hubs {
		out[i] = h.clone()
	}
	return out
}

// BySlug returns the hub with the given slug.
func BySlug(slug string) (Hub, bool) {
	c := load()
	i, ok := c.bySlug[slug]
	if !ok {
		return Hub{}, false
	}
	return c.hubs[i].clone(), true
}

var slugRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// parse reads and checks the hub file: known fields only, unique
// kebab-case slugs, titles and summaries present, every verse a valid KJV
// reference, every related slug another hub, every extra one of the
// hub's verses.
func parse(b []byte) (*catalog, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var hubs []Hub
	if err := dec.Decode(&hubs); err != nil {
		return nil, fmt.Errorf("topics: parse hubs: %w", err)
	}
	c := &catalog{bySlug: map[string]int{}}
	for i := range hubs {
		h := &hubs[i]
		if !slugRE.MatchString(h.Slug) {
			return nil, fmt.Errorf("topics: hub %d: slug %q is not kebab-case", i, h.Slug)
		}
		if _, dup := c.bySlug[h.Slug]; dup {
			return nil, fmt.Errorf("topics: slug %q used twice", h.Slug)
		}
		c.bySlug[h.Slug] = i
		if strings.TrimSpace(h.Title) == "" || strings.TrimSpace(h.Summary) == "" {
			return nil, fmt.Errorf("topics: %s: title and summary are required", h.Slug)
		}
		if len(h.Verses) == 0 {
			return nil, fmt.Errorf("topics: %s: no verses", h.Slug)
		}
		seen := map[corpus.VerseID]bool{}
		for _, v := range h.Verses {
			r, err := corpus.ParseReference(v)
			if err != nil {
				return nil, fmt.Errorf("topics: %s: verse %q: %w", h.Slug, v, err)
			}
			h.refs = append(h.refs, r)
			for _, id := range r.VerseIDs() {
				if !seen[id] {
					seen[id] = true
					h.ids = append(h.ids, id)
				}
			}
		}
		for _, e := range h.Extra {
			if !slices.Contains(h.Verses, e.Ref) || strings.TrimSpace(e.Reason) == "" {
				return nil, fmt.Errorf("topics: %s: extra %q must be one of the hub's verses and give a reason", h.Slug, e.Ref)
			}
		}
	}
	for _, h := range hubs {
		for _, r := range h.Related {
			if _, ok := c.bySlug[r]; !ok || r == h.Slug {
				return nil, fmt.Errorf("topics: %s: related %q is not another hub", h.Slug, r)
			}
		}
	}
	slices.SortStableFunc(hubs, func(a, b Hub) int { return strings.Compare(a.Title, b.Title) })
	for i, h := range hubs {
		c.bySlug[h.Slug] = i
	}
	c.hubs = hubs
	c.match = newMatcher(hubs)
	return c, nil
}
