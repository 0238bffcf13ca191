package pipeline

import (
	"cmp"
	"slices"
	"testing"

	"github.com/selahdev/selah/corpus"
)

// TestPhraseClauseVerbs: a Nave's phrase opening with a verb becomes a
// predicate of its subject in the past: a past tense as it is, a
// participle after "was" (WordNet's verb.exc tells the two apart).
func TestPhraseClauseVerbs(t *testing.T) {
	t.Parallel()
	checkClauses(t, []clauseCase{
		{"Jesus", "Born in Bethlehem", "was born in Bethlehem"},
		{"Father", "Forbidden to be used as a title among the disciples", "was forbidden to be used as a title among the disciples"},
		{"Ruth", "Goes to Bethlehem", "went to Bethlehem"},
		{"Peter", "Ran to the sepulchre", "ran to the sepulchre"},
		{"Paul", "Also called Saul", "was also called Saul"},
		// The rest of a narrating phrase follows its first verb.
		{"Elijah", "Escapes to the wilderness, where he is miraculously fed by ravens", "escaped to the wilderness, where he was miraculously fed by ravens"},
		{"Elijah", "Returns and sends a message to Ahab", "returned and sent a message to Ahab"},
		{"Elijah", "Meets Ahab and directs him to assemble the prophets of Baal", "met Ahab and directed him to assemble the prophets of Baal"},
		{"Millstone", "Not to be taken as a pledge", "was not to be taken as a pledge"},
		// A verb that always takes an object, followed by a preposition,
		// is passive (WordNet's frames); one that can stand alone is not.
		{"Daberath", "Assigned to the Levites", "was assigned to the Levites"},
		{"Hunting", "Authorized in the Mosaic law", "was authorized in the Mosaic law"},
		{"Jacob", "Returned to Canaan", "returned to Canaan"},
		{"Lazarus", "Plotted against by the chief priests", "was plotted against by the chief priests"},
		// So is one whose agent follows later in its clause; "by way of"
		// names none.
		{"Isaac", "Offered in sacrifice by his father", "was offered in sacrifice by his father"},
		{"Moses", "Discovered and adopted by the daughter of Pharaoh", "was discovered and adopted by the daughter of Pharaoh"},
		{"Jeroboam", "Recalled from Egypt by the ten tribes on account of disaffection toward Rehoboam, and made king", "was recalled from Egypt by the ten tribes on account of disaffection toward Rehoboam, and made king"},
		{"Jacob", "Returned to Canaan, by way of Succoth", "returned to Canaan, by way of Succoth"},
		{"Feasts", "Were presided over by a master of ceremonies", "were presided over by a master of ceremonies"},
		{"Goliath", "Defied armies of Israel and is killed by David", "defied armies of Israel and was killed by David"},
		// A verb that is a noun too ("save", "lead") is a verb before its
		// object.
		{"Noah", "Builds an ark and saves his family from the great flood", "built an ark and saved his family from the great flood"},
		{"Moses", "Secures the deliverance of the people and leads them out of Egypt", "secured the deliverance of the people and led them out of Egypt"},
		{"Priests", "Offers sacrifices and gifts", "offered sacrifices and gifts"},
		// A noun after "and" stays.
		{"Aaron", "Offers sacrifices and gifts", "offered sacrifices and gifts"},
		// An irregular past form is the verb though WordNet has a noun of
		// its spelling ("sent", Estonian money), unless a name follows;
		// a regular one that is a noun is the noun.
		{"Jonah", "Sent by God to warn the city of Nineveh", "was sent by God to warn the city of Nineveh"},
		{"Rebekah", "Given by Bethuel to be Isaac's wife", "was given by Bethuel to be Isaac's wife"},
		{"Miracles", "Red Sea divided", "the Red Sea divided"},
		{"Hatred", "Hatred often concealed by", "the hatred often concealed by Hatred"},
		// An adjective with its complement says what the subject was.
		{"Mary", "Present at the crucifixion", "was present at the crucifixion"},
		{"Amalekites", "Defeated by Gideon", "was defeated by Gideon"},
		// A name with its verb is a sentence with a subject of its own.
		{"Sling", "David kills Goliath with a", "David killed Goliath with a sling"},
		{"Abraham", "Ishmael born to Abraham", "Ishmael was born to Abraham"},
		{"Isaac", "Esau and Jacob born to", "Esau and Jacob were born to Isaac"},
		// The subject put in after the preposition acts on in the parts
		// that follow, on "him": they are its relative clause, not the
		// name's ("Samuel was born to Hannah, dedicated him to God").
		{"Hannah", "Samuel born to, dedicated him to God, leaves him at the temple", "Samuel was born to Hannah, who dedicated him to God and left him at the temple"},
		// Parts that do nothing to another ("him") go on as before.
		{"Abraham", "Isaac born to, circumcised", "Isaac was born to Abraham, circumcised"},
		// A verb that always takes an object, then a preposition, is
		// passive after a name too: "was Jesus betrayed in" read before.
		{"Gethsemane", "Jesus betrayed in", "Jesus was betrayed in Gethsemane"},
		{"Stephen", "Stephen stoned", "Stephen was stoned"},
		{"Master", "Jesus called", "Jesus was called Master"},
		// A name and its past form are a sentence of their own, passive
		// when the verb's first sense takes an object that does not
		// follow.
		{"Gath", "Goliath lived in", "Goliath lived in Gath"},
		{"Eshtaol", "Samson buried near", "Samson was buried near Eshtaol"},
		{"Eshtemoa", "David shared plunder with", "David shared plunder with Eshtemoa"},
		{"Israel", "Gedaliah was appointed governor over the region", "Gedaliah was appointed governor over the region"},
		{"Counsellor", "Ahithophel was", ""},
		// Names with no verb of theirs say nothing of the subject:
		// Scripture tells of them.
		{"Afflictions", "Paul and Silas in prison", "Paul and Silas in prison"},
		// Names and their "is" are a sentence: what God is stands as
		// Nave's says it, a person's story is told in the past.
		{"Oppression", "God is a refuge from", "God is a refuge from Oppression"},
		{"Sanctification", "The Lord is the Sanctifier", "The Lord is the Sanctifier"},
		{"Way", "Jesus is the", "Jesus is the Way"},
		{"Iconium", "Paul is persecuted by the people of", "Paul was persecuted by the people of Iconium"},
		{"David", "David is terrified, and leaves the ark at the house of Obed-edom", "David was terrified, and left the ark at the house of Obed-edom"},
		{"Hegai", "Chamberlain of Ahasuerus", "was chamberlain of Ahasuerus"},
		// A name toward another says nothing of the subject.
		{"Master", "Laban to Jacob", ""},
		// The subject put in after a last "of" owns what the phrase
		// names: no predicate of its own ("was character of Aaron").
		{"Aaron", "Character of", "the character of Aaron"},
		{"Abraham", "Divine call of", "the divine call of Abraham"},
		{"Abi", "Mother of Hezekiah", "was mother of Hezekiah"},
		{"Jesus", "Lord and Saviour Jesus Christ", "was Lord and Saviour Jesus Christ"},
		{"Melita", "Paul shipwrecked on the coast of", "Paul was shipwrecked on the coast of Melita"},
		// Several names take the verb's base form, a list of them too.
		{"Bethany", "Mary, Martha, and Lazarus dwell at", "Mary, Martha, and Lazarus dwelt at Bethany"},
		{"Nazareth", "Joseph and Mary live at", "Joseph and Mary lived at Nazareth"},
		{"Asia", "Paul and Silas forbidden by the Holy Spirit to preach in", "Paul and Silas were forbidden by the Holy Spirit to preach in Asia"},
		{"Jesus", "Dines with Simon", "dined with Simon"},
		// A name after "and" is the next verb's object: the verb goes on
		// the story.
		{"Joshua", "Besieges and captures Jericho", "besieged and captured Jericho"},
		// A semicolon ends a clause as "and" does, and "is" before a past
		// form is the story's passive wherever it stands.
		{"Tiglath-pileser", "Forms an alliance with Ahaz; captures Damascus", "formed an alliance with Ahaz; captured Damascus"},
		{"Moses", "Crosses the Red Sea; Pharaoh and his army are destroyed", "crossed the Red Sea; Pharaoh and his army were destroyed"},
		// After a semicolon or a subject pronoun the verb comes, whatever
		// noun it spells too ("finds", "refuses").
		{"Moses", "Takes the life of an Egyptian taskmaster; flees from Egypt; finds refuge among the Midianites", "took the life of an Egyptian taskmaster; fled from Egypt; found refuge among the Midianites"},
		{"Gideon", "Israel desires to make him king; he refuses", "Israel desired to make him king; he refused"},
		// A verb whose past is its base form.
		{"Ezra", "Reads the law", "read the law"},
		// A verb whose first sense takes an object, alone, is passive.
		{"Stephen", "Stoned", "was stoned"},
		{"Jacob", "Wept", "wept"},
		{"Jesus", "Washes the disciples' feet", "washed the disciples' feet"},
		{"Solomon", "Has seven-hundred wives and three-hundred concubines ; with", "had seven-hundred wives and three-hundred concubines"},
		// A place noun of another is what a place was; of the place
		// itself ("Place of, in camp and march") it is no predicate.
		{"Bethlehem", "Birthplace of Jesus", "was the birthplace of Jesus"},
		{"Ramah", "Home of Samuel", "was the home of Samuel"},
		{"Gad", "Place of, in camp and march", "the place of Gad, in camp and march"},
		// Be and have in the present are said in the past.
		{"Doves", "Are timid", "were timid"},
		{"Jonah", "Is a sign", "was a sign"},
		{"Solomon", "Has seven hundred wives", "had seven hundred wives"},
		// A number of people and what was done to them is a sentence of
		// its own ("More" is also Sir Thomas More to WordNet).
		{"Jesus", "More than five-thousand people fed", "More than five-thousand people were fed"},
		// After a plural subject the verb is its base form, which may
		// spell a noun ("a reject"); the object after it makes it the
		// verb. A group is what a people was.
		{"Sadducees", "Reject the doctrine of the resurrection", "rejected the doctrine of the resurrection"},
		{"Sadducees", "Persecute the apostles", "persecuted the apostles"},
		{"Pharisees", "A sect of the Jews", "was a sect of the Jews"},
		{"Bethlehem", "A city of Judah", "a city of Judah"},
	})
}

// TestPhraseClauseParentActs: a sub-entry whose one-word parent is a noun
// or the actor of its verb says nothing the composer can say of the
// topic, and is left out; a verb ("Called") still leads its child.
func TestPhraseClauseParentActs(t *testing.T) {
	t.Parallel()
	checkClauses(t, []clauseCase{
		{"Miracles", "Paul — Heals a cripple", ""},
		{"Jesus", "PROPHET — Reveals God", ""},
		{"Jesus", "PROPHET — Foretold things to come", ""},
		{"Miracles", "Elijah — Brings fire down upon Ahaziah's army", ""},
		{"Pentecost", "Called — Feast of Weeks", "was called Feast of Weeks"},
		{"David", "King of Israel — A shepherd", "was a shepherd"},
		// A lone name is an instance of its heading or list.
		{"Holy Spirit", "INSPIRATION OF — Jephthah", ""},
		{"Birds", "What species were unclean", ""},
		{"Judge", "9. Jephthah", ""},
		// A name WordNet knows is a name too: not "Wise Men was Solomon".
		{"Wise Men", "Solomon", ""},
		// A possessive is its own article.
		{"Heaven", "GOD'S DWELLING PLACE", "God's Dwelling Place"},
	})
}

// clauseCase is a Nave's phrase said of subject, and the clause wanted
// ("": the phrase is left out).
type clauseCase struct{ subject, entry, want string }

// checkClauses checks each case's clause against a composition with
// WordNet.
func checkClauses(t *testing.T, cases []clauseCase) {
	t.Helper()
	c := newComposition(Question{})
	if c.gram == nil {
		t.Fatal("no WordNet: deploy/setup.sh installs wordnet-base")
	}
	for _, tt := range cases {
		cl, ok := c.phraseClause(tt.subject, tt.entry)
		if got := cl.text; ok != (tt.want != "") || ok && got != tt.want {
			t.Errorf("%s, %q: %q (%v), want %q", tt.subject, tt.entry, got, ok, tt.want)
		}
	}
}

// TestPlural: a subject whose head is a plural noun takes "were".
func TestPlural(t *testing.T) {
	t.Parallel()
	g := newComposition(Question{}).gram
	if g == nil {
		t.Fatal("no WordNet: deploy/setup.sh installs wordnet-base")
	}
	for subject, want := range map[string]bool{
		"Birds": true, "Angels": true, "Tithes": true, "Prophets": true, "Judges": true,
		"Moses": false, "Hades": false, "Jesus": false, "Riches": false, "Mount of Olives": false, "Feast of Weeks": false, "Ruth": false,
	} {
		if got := g.plural(subject); got != want {
			t.Errorf("plural(%q) = %v, want %v", subject, got, want)
		}
	}
	got := joinClauses("Birds", true, []clause{{kind: clausePredicate, text: "was appointed for food", ref: "Deuteronomy 14:11"}})
	if want := "Birds were appointed for food (Deuteronomy 14:11)."; len(got) != 1 || got[0] != want {
		t.Errorf("joinClauses: %q, want %q", got, want)
	}
}

// TestTopicNames: a topic named as a label keeps its whole title: an
// inverted title's tail is part of the name ("AGE, OLD" is not AGE),
// ", THE" is not. As a sentence's subject it is its first name, without
// Nave's other name or the inversion ("" here: the label's).
func TestTopicNames(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ title, label, subject string }{
		{"FLOOD", "Flood", ""},
		{"AGE, OLD", "Age, Old", "Age"},
		{"SICK, THE", "Sick", ""},
		{"LORD'S SUPPER", "Lord's Supper", ""},
		{"WORD OF GOD", "Word of God", ""},
		{"JESUS, THE CHRIST", "Jesus, the Christ", "Jesus"},
		{"MELITA (MALTA)", "Melita (Malta)", "Melita"},
		{"JUDAS (JUDE)", "Judas (Jude)", "Judas"},
	} {
		if got := topicLabel(tt.title); got != tt.label {
			t.Errorf("topicLabel(%q) = %q, want %q", tt.title, got, tt.label)
		}
		want := cmp.Or(tt.subject, tt.label)
		if got := topicSubject(tt.title); got != want {
			t.Errorf("topicSubject(%q) = %q, want %q", tt.title, got, want)
		}
	}
}

// TestFactSpanNavesOwn: an entry's passage is the run holding the first
// verse Nave's lists when that run is two verses or more: "Her devotion to
// Naomi" lists Ruth 1:16, 1:17 and "with 1:6-18", of which the router
// hands out 1:16, 1:17, 1:6, 1:7, 1:8; MELCHIZEDEK's "A priest and type
// of Christ" lists Hebrews 5:6 and 7:1-21, whose passage is Hebrews 7.
func TestFactSpanNavesOwn(t *testing.T) {
	t.Parallel()
	v := corpus.NewVerseID
	for _, tt := range []struct {
		name   string
		listed []corpus.VerseID // in the router's order: each range's first verse first
		want   []corpus.VerseID
	}{
		{"ruth", []corpus.VerseID{v(8, 1, 16), v(8, 1, 17), v(8, 1, 6), v(8, 1, 7), v(8, 1, 8)}, []corpus.VerseID{v(8, 1, 16), v(8, 1, 17)}},
		{"melchizedek", []corpus.VerseID{v(58, 5, 6), v(58, 7, 1), v(58, 7, 2), v(58, 7, 3), v(58, 7, 4)}, []corpus.VerseID{v(58, 7, 1), v(58, 7, 2), v(58, 7, 3)}},
	} {
		var cands []Candidate
		for i, id := range tt.listed {
			cands = append(cands, Candidate{N: i + 1, Verse: corpus.Verse{ID: id}})
		}
		c := newComposition(Question{Candidates: cands})
		if got := c.factSpan(Fact{Verses: tt.listed}); !slices.Equal(got, tt.want) {
			t.Errorf("%s: span %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestPhraseClauseNounPhrase: what "Scripture tells of" must be a noun
// phrase. A sentence, a phrase opening with a function word or an adverb,
// or one whose preposition is left hanging says nothing of the subject in
// that frame and is left out; a preposition before a comma takes the
// subject ("Call of, by an angel"), and a relative clause's verb is no
// sentence's.
func TestPhraseClauseNounPhrase(t *testing.T) {
	t.Parallel()
	checkClauses(t, []clauseCase{
		{"Prayer", "Should always accompany praise", ""},
		{"Satan", "Our common enemy", ""},
		{"Time", "One day is like one-thousand years", ""},
		{"Elijah", "Derisively challenges the priests of Baal to offer sacrifices", ""},
		{"Jesus", "Twelve apostles return; he goes to the desert", ""},
		{"Jesse", "Probably identical with JESSE", ""},
		{"Birthright", "Birthright of the", ""},
		{"Elijah", "He mocks the priests of Baal", ""},
		{"Gideon", "Angel attests the call to, by miracle", ""},
		{"Daniel", "Conspiracy against, cast into the lions' den", "the conspiracy against Daniel, cast into the lions' den"},
		{"Gideon", "Call of, by an angel", "the call of Gideon, by an angel"},
		{"Quail", "A station where the Israelites were miraculously fed with quails", "a station where the Israelites were miraculously fed with quails"},
		{"Tabernacle", "Most Holy Place", "the Most Holy Place"},
		// A phrase opening with a preposition is left out, of the longer
		// ones too.
		{"Pharisees", "Concerning the resurrection", ""},
		{"Prayer", "Without ceasing", ""},
		// Two prepositions sharing the object after the second leave no
		// place for the subject.
		{"Paul", "Persecutes the Christians; present at, and gives consent to, the stoning of Stephen", ""},
	})
}
