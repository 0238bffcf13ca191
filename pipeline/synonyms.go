package pipeline

import (
	"regexp"
	"slices"
	"strings"

	"github.com/kljensen/snowball/english"
)

// synonymWeight scales the idf of a term a query gains by expansion: a
// synonym is evidence, but weaker than the word the user typed.
const synonymWeight = 0.5

// synonyms bridges modern words to the KJV's and the WEB's: a query word
// (any inflection: keys are matched by stem) is widened with these words.
// It is a general thesaurus of the gaps between everyday English and the
// two translations, not a list of answers: no entry names a verse.
var synonyms = map[string]string{
	"worry": "anxious care careful troubled thought", "anxiety": "anxious care careful troubled",
	"anxious": "care careful", "stress": "anxious care troubled", "everything": "all things",
	"need": "want lack need", "needs": "want lack", "strength": "strengthen strong",
	"strong": "strengthen might", "people": "men man", "person": "man", "someone": "man",
	"anyone": "man", "everyone": "all men", "everybody": "all men", "nobody": "no man",
	"humans": "men man", "human": "man flesh", "mankind": "men man", "humanity": "men man",
	"treat": "do", "want": "desire will", "thankful": "thanks thanksgiving",
	"grateful": "thanks thanksgiving", "harvest": "reap", "plant": "sow", "stop": "forbid cease hinder",
	"drunk": "drunken drunkenness drunkard wine", "drunkenness": "drunk drunkard wine",
	"alcohol": "wine strong drink", "lying": "lie liar false deceit", "liar": "lie false deceit",
	"lie": "liar false deceit", "dishonest": "false deceit lie", "honest": "true upright just",
	"honesty": "truth upright", "jealous": "envy jealousy", "jealousy": "envy",
	"boastful": "boast vaunt brag", "boast": "vaunt brag", "brag": "boast vaunt",
	"scared": "afraid fear", "afraid": "fear dismayed", "fear": "afraid", "frightened": "afraid fear",
	"terrified": "afraid fear", "saved": "salvation", "salvation": "save saved",
	"sad": "sorrow mourn weep heaviness", "sadness": "sorrow heaviness", "grieve": "sorrow mourn weep",
	"grief": "sorrow mourn", "grieving": "sorrow mourn weep", "depressed": "sorrow heaviness cast down",
	"depression": "sorrow heaviness", "happy": "blessed glad joy merry", "happiness": "joy gladness",
	"joyful": "joy rejoice glad", "cheerful": "merry glad", "forgiveness": "forgive remission",
	"wrong": "sin iniquity evil", "wrongdoing": "iniquity unrighteousness", "mistake": "sin fault err",
	"bad": "evil wicked", "money": "riches wealth silver mammon", "wealth": "riches",
	"wealthy": "rich riches", "rich": "riches", "needy": "poor", "help": "help succour",
	"protect": "keep preserve shield defend", "protection": "refuge shield fortress",
	"safe": "safety refuge", "angry": "anger wrath", "anger": "wrath", "mad": "anger wrath",
	"rage": "wrath fury", "patient": "patience longsuffering", "patience": "longsuffering",
	"humble": "meek lowly", "humility": "humble meek lowly", "arrogant": "pride proud haughty",
	"proud": "pride haughty", "murder": "kill slay", "kill": "slay", "die": "death perish",
	"dead": "death", "afterlife": "resurrection heaven", "hell": "sheol hades fire",
	"marriage": "marry wife husband", "divorce": "put away divorcement", "remarry": "marry",
	"sex": "fornication adultery lie", "sexual": "fornication adultery", "immorality": "fornication whoredom",
	"kid": "child children", "kids": "children", "child": "children son", "parents": "father mother",
	"parent": "father mother", "gift": "gift reward", "tired": "weary labour heavy", "weary": "labour",
	"exhausted": "weary faint", "burden": "heavy laden", "burdened": "heavy laden",
	"lonely": "alone forsake", "abandon": "forsake leave fail", "abandoned": "forsaken",
	"trust": "believe faith", "believe": "faith", "worship": "praise bow", "prayer": "pray supplication",
	"sick": "disease infirmity heal", "illness": "sickness disease infirmity", "disease": "sickness plague",
	"doctor": "physician", "medicine": "heal", "job": "labour work", "lazy": "sluggard slothful idle",
	"gossip": "talebearer whisperer slander tattler backbiter", "slander": "backbiter talebearer",
	"rumor": "report talebearer", "rumors": "report talebearer", "tax": "tribute custom",
	"taxes": "tribute custom", "government": "powers rulers authority king", "authorities": "powers rulers",
	"leader": "ruler elder", "church": "assembly congregation", "pastor": "elder bishop shepherd",
	"forever": "everlasting ever eternal", "eternal": "everlasting", "future": "end latter hope",
	"plan": "thoughts counsel purpose", "plans": "thoughts counsel purpose", "guide": "lead direct path",
	"guidance": "lead counsel direct", "decision": "counsel", "wise": "wisdom understanding",
	"foolish": "fool folly", "neighbor": "neighbour", "enemy": "adversary foe", "repent": "repentance turn",
	"compassion": "mercy pity", "favor": "favour grace", "favoritism": "respect persons partiality",
	"obey": "hearken keep commandments", "rules": "law statutes commandments", "laws": "statutes commandments",
	"steal": "thief", "greed": "covetousness covet", "greedy": "covetous covet", "envy": "covet",
	"comfort": "console", "crying": "weep tears", "cry": "weep", "suffering": "affliction tribulation suffer",
	"suffer": "affliction tribulation", "hardship": "affliction tribulation", "trouble": "tribulation distress affliction",
	"trials": "temptation trial tribulation", "tempt": "temptation", "persecute": "persecution",
	"creation": "create made", "created": "create made formed", "world": "earth",
	"food": "meat bread", "clothes": "raiment garment clothing", "home": "house dwelling",
	"town": "city", "boss": "master", "slave": "servant bondservant", "young": "youth",
	"baby": "babe infant child", "pregnant": "conceive child", "alone": "forsake",
	"talk": "speak say", "listen": "hear hearken", "quick": "swift", "quickly": "swiftly",
	"always": "alway evermore continually", "enough": "sufficient", "generous": "bountiful liberal give",
	"tithe": "tenth", "sacrifice": "offering", "rescue": "deliver save", "deliver": "rescue",
	"redeem": "ransom", "tomorrow": "morrow", "mind": "understanding", "body": "flesh",
	"live": "dwell life", "lived": "dwelt", "dwell": "live", "perish": "die", "hidden": "hid",
	"big": "great", "huge": "great", "tiny": "little small least", "small": "little least",
	"powerful": "mighty power", "power": "might strength", "brave": "courage strong",
	"courageous": "courage strong", "courage": "strong", "discouraged": "dismayed",
	"despair": "cast down", "sorrow": "grief", "quarrel": "strife contention", "fight": "strife war",
	"argue": "strife contention dispute", "conflict": "strife", "lust": "desire", "selfcontrol": "temperance",
	"control": "temperance rule", "victory": "overcome", "win": "victory overcome", "profit": "gain",
	"benefit": "profit", "useless": "vain profit", "worthless": "vain", "meaningless": "vanity vain",
	"request": "ask petition", "promise": "covenant sware", "promises": "covenant promise",
	"criticize": "judge", "condemn": "judge", "punish": "chasten correct", "discipline": "chasten correction rod instruction",
	"teaching": "doctrine instruction", "study": "meditate search", "bible": "scripture word",
	"music": "song psalm harp", "beautiful": "fair comely beauty", "appearance": "countenance",
	"looks": "countenance", "pain": "sorrow", "hurt": "wound", "pierced": "wounded",
	"confess": "acknowledge", "admit": "confess acknowledge", "clean": "cleanse purify wash",
	"purify": "cleanse", "priority": "first", "abundant": "abundantly", "disciples": "disciple",
	"baptize": "baptizing baptized", "heals": "healeth", "broken": "contrite",
	"brokenhearted": "broken heart contrite", "bandages": "bindeth binds", "tear": "tears",
}

// phraseSynonyms widen queries that use a modern phrase whose words alone
// say something else ("second coming" is not about counting).
var phraseSynonyms = map[string]string{
	"second coming":   "coming son of man clouds appearing",
	"holy spirit":     "holy ghost spirit",
	"eternal life":    "everlasting life",
	"end times":       "last days end world",
	"no one":          "no man",
	"self control":    "temperance",
	"word of god":     "scripture word",
	"golden rule":     "do to others",
	"the other cheek": "smite cheek",
}

// queryFrame is the wording around a topical question that names no
// topic: "what does the Bible say about …", "verses about …".
var queryFrame = regexp.MustCompile(`(?i)^\s*(?:(?:what|where)\s+(?:does|do|did)\s+(?:the\s+)?(?:bible|scriptures?|god'?s\s+word|word\s+of\s+god|god|jesus)\s+(?:say|says|teach|teaches|tell\s+us)\s*(?:about|on|regarding|concerning)?|what\s+(?:the\s+)?(?:bible|scriptures?)\s+(?:says|teaches)\s*(?:about|on)?|(?:bible\s+)?verses?\s+(?:about|on|for))\s+`)

// stemmedSynonyms is synonyms keyed by stem, so "worrying" finds "worry".
var stemmedSynonyms = func() map[string][]string {
	m := map[string][]string{}
	for k, v := range synonyms {
		s := english.Stem(k, true)
		m[s] = append(m[s], strings.Fields(v)...)
	}
	return m
}()

// phrasePattern matches the keys of phraseSynonyms as whole words.
var phrasePattern = func() *regexp.Regexp {
	keys := make([]string, 0, len(phraseSynonyms))
	for k := range phraseSynonyms {
		keys = append(keys, regexp.QuoteMeta(k))
	}
	slices.Sort(keys)
	slices.SortStableFunc(keys, func(a, b string) int { return len(b) - len(a) })
	return regexp.MustCompile(`\b(?:` + strings.Join(keys, "|") + `)\b`)
}()

// rewritePhrases replaces the modern phrases in q by their KJV wording:
// "second coming" says nothing about being second.
func rewritePhrases(q string) string {
	q = strings.ToLower(strings.ReplaceAll(q, "’", "'"))
	return phrasePattern.ReplaceAllStringFunc(q, func(p string) string {
		return " " + phraseSynonyms[p] + " "
	})
}

// expand calls add for each term that synonyms bring to query q.
func (l *Local) expand(q string, add func(term string, scale float64)) {
	l.an.terms(q, func(t string) {
		for _, w := range stemmedSynonyms[t] {
			l.an.terms(w, func(t string) { add(t, synonymWeight) })
		}
	})
}

// stripFrame removes the question frame from a topical query, leaving its
// topic; a query that is nothing but frame is left alone.
func stripFrame(q string) string {
	if s := queryFrame.ReplaceAllString(q, ""); strings.TrimSpace(s) != "" {
		return s
	}
	return q
}
