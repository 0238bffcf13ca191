package mcp

import (
	"fmt"
	"strings"

	"github.com/selahdev/selah/web/client"
)

// The text content of each tool result: what a model reads. It carries the
// KJV text exactly as the API returned it, with references a reader can
// check, and the limits left where they matter.

func passageText(p *client.PassageResponse) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (KJV)\n\n", p.Reference)
	multiChapter := len(p.Verses) > 0 && p.Verses[0].Chapter != p.Verses[len(p.Verses)-1].Chapter
	for _, v := range p.Verses {
		if v.Title != "" {
			fmt.Fprintf(&b, "%s\n", v.Title)
		}
		if multiChapter {
			fmt.Fprintf(&b, "[%d:%d] %s\n", v.Chapter, v.Verse, v.Text)
		} else {
			fmt.Fprintf(&b, "[%d] %s\n", v.Verse, v.Text)
		}
	}
	return b.String()
}

func searchText(r *client.SearchResponse) string {
	if len(r.Results) == 0 {
		return fmt.Sprintf("No KJV verses found for %q.", r.Query)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d KJV verses for %q, best match first:\n\n", len(r.Results), r.Query)
	for i, v := range r.Results {
		fmt.Fprintf(&b, "%d. %s: %s\n", i+1, v.Reference, v.Text)
	}
	return b.String()
}

func answerText(a *client.AskResponse) string {
	var b strings.Builder
	b.WriteString(a.Answer)
	if len(a.References) > 0 {
		b.WriteString("\n\nCited passages (KJV):\n")
		for _, r := range a.References {
			fmt.Fprintf(&b, "- %s: %s\n", r.Reference, r.Text)
		}
	} else {
		b.WriteString("\n\n(No passage was cited.)\n")
	}
	if len(a.Words) > 0 {
		// An agent asked what a word means: the dictionary entries behind
		// the answer, with the numbers it can cite.
		b.WriteString("\nStrong's dictionary:\n")
		for _, w := range a.Words {
			fmt.Fprintf(&b, "- %s %s (%s, %s): %s. KJV renders it %s (%d times tagged).\n", w.Strongs, w.Lemma, w.Transliteration, w.Language, w.Definition, strings.Join(w.Renderings, ", "), w.KJVUses)
		}
	}
	if len(a.Topics) > 0 {
		titles := make([]string, len(a.Topics))
		for i, t := range a.Topics {
			titles[i] = fmt.Sprintf("%s (%s)", t.Title, t.Slug)
		}
		fmt.Fprintf(&b, "\nRelated topics: %s\n", strings.Join(titles, ", "))
	}
	fmt.Fprintf(&b, "\nAnswer by selah (%s): %s\n", a.Generator, a.CanonicalURL)
	if l := a.Meta.Limits; l.DailyAsksRemaining >= 0 {
		fmt.Fprintf(&b, "Asks left for this key today: %d", l.DailyAsksRemaining)
		if l.MonthlyAsksRemaining >= 0 {
			fmt.Fprintf(&b, ", this month: %d", l.MonthlyAsksRemaining)
		}
		b.WriteString(".\n")
	}
	return b.String()
}

func topicsText(l *client.TopicListResponse) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d topic hubs (pass a slug to get_topic):\n\n", l.Count)
	for _, t := range l.Topics {
		fmt.Fprintf(&b, "- %s: %s (%d verses). %s\n", t.Slug, t.Title, t.VerseCount, t.Summary)
	}
	return b.String()
}

func topicText(t *client.TopicDetailResponse) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n%s\n\nKey passages (KJV):\n", t.Title, t.Slug, t.Summary)
	for _, p := range t.Passages {
		fmt.Fprintf(&b, "- %s: %s\n", p.Reference, p.Text)
	}
	if len(t.Related) > 0 {
		rel := make([]string, len(t.Related))
		for i, r := range t.Related {
			rel[i] = r.Slug
		}
		fmt.Fprintf(&b, "\nRelated topics: %s\n", strings.Join(rel, ", "))
	}
	return b.String()
}
