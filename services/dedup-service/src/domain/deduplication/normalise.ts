// Normalisation of the bibliographic fields the engine compares. Every function here is pure and
// deterministic; the comparison rules in score.ts rely on both sides going through the same code.

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '-', mdash: '-', hellip: '...',
  lsquo: "'", rsquo: "'", ldquo: '"', rdquo: '"', szlig: 'ss', aelig: 'ae', oelig: 'oe', oslash: 'o',
};

const GREEK_ENTITY_NAMES = new Set([
  'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu', 'nu', 'xi', 'omicron', 'pi', 'rho',
  'sigma', 'tau', 'upsilon', 'phi', 'chi', 'psi', 'omega',
]);

/**
 * Decodes HTML entities (named, decimal, hex) and drops inline tags such as <i> or <sup>. An export
 * that encoded twice ("&amp;amp;", "&amp;beta;") is decoded twice.
 */
export function decodeHtml(raw: string): string {
  const text = repairMojibake(raw);
  const once = decodeHtmlOnce(text);
  return once !== text && /&(#x[0-9a-f]+|#\d+|[a-z]+);/i.test(once) ? decodeHtmlOnce(once) : once;
}

const UTF8_AS_LATIN1 = /[\u00c2-\u00f4][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]/;
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * UTF-8 read as Latin-1 or Windows-1252 on the way through an export ("SjÃ¶gren", "JosÃ©") is read
 * back, when the whole text is such bytes and they form valid UTF-8.
 */
function repairMojibake(text: string): string {
  if (!UTF8_AS_LATIN1.test(text)) return text;
  const bytes: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    const byte = code <= 0xff ? code : WINDOWS_1252.get(code);
    if (byte === undefined) return text;
    bytes.push(byte);
  }
  try {
    return STRICT_UTF8.decode(new Uint8Array(bytes));
  } catch {
    return text;
  }
}

// Windows-1252 puts printable characters where Latin-1 has C1 controls (0x80-0x9f).
const WINDOWS_1252 = new Map<number, number>([
  [0x20ac, 0x80], [0x201a, 0x82], [0x0192, 0x83], [0x201e, 0x84], [0x2026, 0x85], [0x2020, 0x86], [0x2021, 0x87], [0x02c6, 0x88], [0x2030, 0x89],
  [0x0160, 0x8a], [0x2039, 0x8b], [0x0152, 0x8c], [0x017d, 0x8e], [0x2018, 0x91], [0x2019, 0x92], [0x201c, 0x93], [0x201d, 0x94], [0x2022, 0x95],
  [0x2013, 0x96], [0x2014, 0x97], [0x02dc, 0x98], [0x2122, 0x99], [0x0161, 0x9a], [0x203a, 0x9b], [0x0153, 0x9c], [0x017e, 0x9e], [0x0178, 0x9f],
]);

function decodeHtmlOnce(text: string): string {
  return text
    .replace(/<\/?[a-z][a-z0-9]*(\s[^<>]*)?\/?>/gi, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
      if (body[0] === '#') {
        const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : ' ';
      }
      // Own keys only: "&constructor;" is no entity.
      if (Object.hasOwn(NAMED_ENTITIES, body.toLowerCase())) return NAMED_ENTITIES[body.toLowerCase()];
      // "&beta;" reads as the letter's name, as "β" does after folding.
      if (GREEK_ENTITY_NAMES.has(body.toLowerCase())) return ` ${body.toLowerCase()}`;
      // Letter entities such as &eacute; carry their base letter first.
      return /^[a-z](acute|grave|uml|circ|tilde|cedil|ring|caron)$/i.test(body) ? body[0] : entity;
    });
}

const LETTER_FOLDS: Record<string, string> = { ß: 'ss', æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', œ: 'oe', Œ: 'OE', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', ı: 'i' };

/** Greek letters by name, as exports without Unicode spell them ("β-thalassaemia" = "beta-thalassaemia"). */
const GREEK_LETTERS: Record<string, string> = {
  α: 'alpha', β: 'beta', γ: 'gamma', δ: 'delta', ε: 'epsilon', ζ: 'zeta', η: 'eta', θ: 'theta', ι: 'iota', κ: 'kappa', λ: 'lambda', μ: 'mu',
  ν: 'nu', ξ: 'xi', ο: 'omicron', π: 'pi', ρ: 'rho', σ: 'sigma', ς: 'sigma', τ: 'tau', υ: 'upsilon', φ: 'phi', ϕ: 'phi', χ: 'chi', ψ: 'psi', ω: 'omega',
};

const PRINTABLE_ASCII = /^[ -~]*$/;

/**
 * ASCII folding: diacritics removed (NFKD), a few letters without a decomposition mapped, Greek
 * letters spelled out (dropped, "α-" and "β-thalassaemia" would read the same).
 */
export function foldToAscii(text: string): string {
  // Printable ASCII is its own NFKD form and holds none of the characters replaced below.
  if (PRINTABLE_ASCII.test(text)) return text;
  return text
    // A soft hyphen is invisible, and trademark signs are dropped by some exports (NFKD would make "™" a word "TM").
    .replace(/[\u00ad\u2122\u00ae\u00a9]/g, '')
    .replace(/\u00d7/g, 'x')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ßæÆøØœŒłŁđĐı]/g, (letter) => LETTER_FOLDS[letter] ?? letter)
    .replace(/[\u0370-\u03ff]/g, (letter) => GREEK_LETTERS[letter.toLowerCase()] ?? letter)
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u201a\u201b\u2032]/g, "'");
}

/** British spellings that no suffix rule below reaches. */
const SPELLING_WORDS = new Map([
  ['centre', 'center'], ['centres', 'centers'], ['fibre', 'fiber'], ['fibres', 'fibers'], ['litre', 'liter'], ['litres', 'liters'],
  ['metre', 'meter'], ['metres', 'meters'], ['theatre', 'theater'], ['theatres', 'theaters'], ['programme', 'program'],
  ['programmes', 'programs'], ['catalogue', 'catalog'], ['dialogue', 'dialog'], ['analogue', 'analog'], ['analogues', 'analogs'],
  ['grey', 'gray'], ['ageing', 'aging'], ['mould', 'mold'], ['moulds', 'molds'], ['aluminium', 'aluminum'], ['practise', 'practice'],
  ['sulphate', 'sulfate'], ['sulphur', 'sulfur'], ['sulphide', 'sulfide'], ['labelled', 'labeled'], ['labelling', 'labeling'],
  ['modelling', 'modeling'], ['modelled', 'modeled'], ['travelling', 'traveling'], ['counselling', 'counseling'],
  ['signalling', 'signaling'], ['cancelled', 'canceled'], ['fulfil', 'fulfill'], ['enrol', 'enroll'], ['enrolment', 'enrollment'],
]);

/**
 * British/American spelling pairs compare equal: ae/oe (haemolytic/hemolytic, oedema/edema),
 * -our/-or on words of six letters or more (tumour, behaviour, labour; not four, hour, your),
 * -ise/-ize and -yse/-yze with their forms (randomised, organisation, analyse), and a list of others.
 */
function spellingFold(word: string): string {
  const listed = SPELLING_WORDS.get(word);
  if (listed !== undefined) return listed;
  let folded = word.replace(/ae/g, 'e').replace(/oe/g, 'e');
  if (folded.length >= 6) folded = folded.replace(/^([a-z]{3,})our(s|al|ally|ed|ing|ings|er|ers|ite|ites|able|ably|less|ful|ist|ists|ism|hood|hoods)?$/, '$1or$2');
  return folded.replace(/^([a-z]{2,}[iy])z(e|es|ed|er|ers|ing|ation|ations|ational)$/, '$1s$2');
}

/** Words that carry no topic: they count neither as content words nor towards title length. */
export const STOP_WORDS = new Set([
  'a', 'an', 'the', 'of', 'in', 'on', 'for', 'and', 'or', 'with', 'without', 'to', 'by', 'at', 'from', 'as', 'is',
  'are', 'be', 'its', 'their', 'into', 'via', 'vs', 'versus', 'than', 'after', 'during', 'among', 'between', 'about',
  'do', 'does', 'can', 'it', 'this', 'that', 'these', 'we', 'our', 'under', 'over', 'not', 'no',
]);

/** What kind of item a title announces. Items of different kinds never merge. */
export type TitleKind = 'article' | 'erratum' | 'retraction' | 'concern' | 'commentary';

export interface NormalisedTitle {
  kind: TitleKind;
  /** Part number of a multi-part paper ("Part II" → 2), or null. */
  part: number | null;
  /** Lower-case ASCII words (spelling-folded), annotations and leading article removed. */
  words: string[];
  /** `words` without stop words. */
  contentWords: string[];
  /** All words joined without separators: "sub-group" and "subgroup" give the same key. */
  key: string;
  /** Digit tokens, in order: "Type 1" and "Type 2" never count as a typo of each other. */
  numbers: string[];
  /** Title is a generic label ("Editorial", "Reply", …) or has fewer than three content words. */
  weak: boolean;
  /** Printed places of this article's errata named by a MEDLINE "[Erratum appears in …]" note. */
  erratumPlaces: CitedPlace[];
  /** EMBASE "(multiple letters)": one record for a letter and the replies printed with it. */
  combinedLetters: boolean;
}

/** A journal volume and issue and/or page cited in a note. */
export interface CitedPlace {
  volume: string;
  issue: string | null;
  page: string | null;
}

// "[Erratum appears in Am J Hematol. 2010 Nov;85(11):911]": the citation after the date's ";".
// A note cut off before its volume ("[Erratum appears in J Pediatr. 2003 Jun") names no place.
const ERRATUM_NOTE = /erratum appears in\b([^\]]*)/gi;
const NOTE_CITATION = /;\s*(\d+)\s*(?:\(\s*([^()]*?)\s*\))?\s*(?::\s*[a-z]{0,3}(\d+))?/i;

function erratumPlacesOf(text: string): CitedPlace[] {
  const places: CitedPlace[] = [];
  for (const note of text.matchAll(ERRATUM_NOTE)) {
    const citation = NOTE_CITATION.exec(note[1]);
    if (!citation || (citation[2] === undefined && citation[3] === undefined)) continue;
    places.push({ volume: citation[1].replace(/^0+(?=\d)/, ''), issue: citation[2] ? normaliseNumbering(citation[2]) : null, page: citation[3] ? citation[3].replace(/^0+(?=\d)/, '') : null });
  }
  return places;
}

const LANGUAGES =
  'english|french|german|spanish|italian|portuguese|dutch|russian|chinese|japanese|korean|polish|czech|slovak|hungarian|romanian|bulgarian|croatian|serbian|slovene|slovenian|swedish|danish|norwegian|finnish|icelandic|greek|turkish|hebrew|arabic|persian|lithuanian|latvian|estonian|ukrainian|catalan|afrikaans|thai|vietnamese|indonesian|malay';

// Database annotations that are not part of the title: MEDLINE's "[Review] [108 refs] [Spanish]",
// "[Erratum appears in …]" notes (about the original, so the record is still the original),
// EMBASE's "(multiple letters)", numbered letters "[1]".
const NOTE_BRACKETS =
  /\[(?:published )?(?:erratum|errata|corrected|corrigendum|comment|retracted|retraction|update|expression of concern|see comments?|reprint|summary for patients|article in)[^\]]*(?:\]|$)/gi;
const TRAILING_ANNOTATION = new RegExp(
  `\\s*(?:\\[\\s*(?:review|\\d+\\s*refs?|(?:${LANGUAGES})(?:\\s*[,;/&]\\s*(?:${LANGUAGES}))*|abstract|editorial|letter|\\d+|[a-z]+ abstract|abstract\\s*(?:no|number)\\.?\\s*:?\\s*[a-z]{0,2}-?\\d+[a-z]?)\\s*\\]|\\(\\s*(?:multiple letters|author'?s transl|review|${LANGUAGES})\\s*\\))\\s*[.;,]?\\s*$`,
  'i',
);

// Errata: "Erratum: X", "Correction to X", "Corrigendum", Web of Science "X (vol 142, pg 310, 2003)",
// EMBASE "X (New England Journal of Medicine (2009) 360 (542-544))".
const ERRATUM_PREFIX =
  /^\s*(?:erratum|errata|corrigendum|corrigenda|(?:author|publisher)(?:'s)? correction|correction(?:s)?(?=\s*(?::|-|\bto\b|\bnotice\b|$))|publisher'?s note)\b\s*(?:notice)?\s*(?:to|for|of|in|on)?\s*[:.-]?\s*/i;
// PsycINFO: "\"Title\": Correction to Lee et al. (2014)".
const ERRATUM_APA_SUFFIX = /\s*[:.]?\s*correction to\s+[^()]{1,80}\(\s*(?:19|20)\d\d[a-z]?\s*\)\s*\.?\s*$/i;
const ERRATUM_WOS_SUFFIX = /\s*\(\s*vol\.?\s*\d+[^()]*?\b(?:pg|pp?|page)\.?\s*[a-z]?\d+[^()]*\)\s*[.]?\s*$/i;
const ERRATUM_CITATION_SUFFIX = /\s*\([^()]*\(\s*(?:19|20)\d\d\s*\)\s*[^()]*\d[^()]*\(\s*[a-z]?\d+[^()]*\)\s*\)\s*[.]?\s*$/i;
const RETRACTION_PREFIX =
  /^\s*(?:notice of retraction|retraction(?:\s+(?:notice|note|statement))?(?=\s*(?::|-|\bto\b|\bof\b|\bfor\b|$))|withdrawn|withdrawal notice)\s*(?:to|of|for)?\s*[:.-]?\s*/i;
// "RETRACTED: X" is how publishers re-title the retracted article itself, so it stays that work.
const RETRACTED_PREFIX = /^\s*(?:retracted(?: article)?|withdrawn article)\s*:\s*/i;
const CONCERN_PREFIX = /^\s*(?:editorial\s+)?expression of concern\b\s*(?:to|for|regarding|about|on)?\s*[:.-]?\s*/i;
const COMMENTARY_PREFIX = /^\s*(?:re\s*:|reply\s*[:-]|in reply|reply to|in response to|authors?'? (?:reply|response)|author response|comments? on|commentary on|comments?\s*:|commentary\s*:|letter to the editor regarding)\s*[:.-]?\s*/i;
const COMMENTARY_SUFFIX = /\s*[-:.,]\s*(?:reply|author reply|authors'? reply|the authors reply|in reply|response|reply from the authors?|authors'? response|comment|commentary)\s*[.]?\s*$/i;
// A trailing citation of the commented article: "X... N Engl J Med. 2009 Jan 29;360(5):544-6".
const ELLIPSIS_CITATION = /\s*(?:\.\.\.|\u2026)\s*\S.*(?:19|20)\d\d.*$/;

const PART_PATTERN = /\b(?:part|pt|teil|partie|parte)\.?\s+(\d+|[ivx]+|one|two|three|four|five|six)\b/i;
/** Number words that mean only a number ("one" is also a pronoun, so only "part one" reads as 1). */
const NUMBER_WORDS = new Map(Object.entries({ two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 }));
const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10 };

function romanToInt(text: string): number {
  let total = 0;
  for (let i = 0; i < text.length; i++) {
    const value = ROMAN[text[i]];
    const next = ROMAN[text[i + 1]] ?? 0;
    total += value < next ? -value : value;
  }
  return total;
}

function partValue(token: string): number {
  const lower = token.toLowerCase();
  if (/^\d+$/.test(lower)) return Number(lower);
  if (lower === 'one') return 1;
  const spelled = NUMBER_WORDS.get(lower);
  if (spelled !== undefined) return spelled;
  return romanToInt(lower);
}

/** Words a roman numeral follows as a number: "type II diabetes", "phase III trial", "stage IV", "grade 3". */
const NUMBERED_BY = new Set(['type', 'phase', 'stage', 'grade', 'class', 'level', 'group', 'tier']);
// I to X only: after these words C, D, L and M are letters ("type C", "group D"), not numerals.
const NUMBERED_ROMAN = /^(?:i{1,3}|iv|v|vi{1,3}|ix|x)$/;

/**
 * One number written three ways by different exports and authors ("two", "2"; "type II", "type 2")
 * reads one way. Word by word, with the word before: a roman numeral counts only after a word it numbers.
 */
function writtenAsDigits(word: string, index: number, words: readonly string[]): string {
  const spelled = NUMBER_WORDS.get(word);
  if (spelled !== undefined) return String(spelled);
  return index > 0 && NUMBERED_ROMAN.test(word) && NUMBERED_BY.has(words[index - 1]) ? String(romanToInt(word)) : word;
}

function partNumber(title: string): number | null {
  const match = PART_PATTERN.exec(title);
  return match ? partValue(match[1]) : null;
}

/** Titles that say what an item is rather than what it is about. */
const GENERIC_TITLES = new Set([
  'editorial', 'editorials', 'guest editorial', 'editorial comment', 'editors note', 'from the editor', 'letter',
  'letters', 'letter to the editor', 'letters to the editor', 'correspondence', 'reply', 'in reply', 'response',
  'author reply', 'authors reply', 'reply to the letter', 'erratum', 'errata', 'correction', 'corrections',
  'corrigendum', 'retraction', 'retraction notice', 'notice of retraction', 'expression of concern', 'comment',
  'comments', 'commentary', 'invited commentary', 'introduction', 'preface', 'foreword', 'news', 'in brief',
  'book review', 'book reviews', 'abstract', 'abstracts', 'meeting abstracts', 'poster', 'posters',
  'poster session', 'index', 'author index', 'subject index', 'contents', 'table of contents', 'untitled', 'notice',
  'announcement', 'announcements', 'obituary', 'in memoriam', 'highlights', 'in this issue', 'this issue',
  'summary', 'discussion', 'conclusion', 'conclusions', 'case report', 'case reports', 'acknowledgement',
  'acknowledgements', 'acknowledgment', 'acknowledgments', 'reviewers', 'addendum', 'errata and corrections',
  'clinical trial', 'research highlights', 'news and views', 'world news', 'conference report', 'calendar',
  'perspective', 'perspectives', 'viewpoint', 'opinion', 'quiz', 'image', 'images', 'clinical image',
  'photo quiz', 'answer', 'question', 'questions and answers', 'reader comments', 'masthead', 'cover',
  // Headings of journal series whose items an export sometimes keeps without their own title.
  'images in clinical medicine', 'clinical problem solving', 'case records of the massachusetts general hospital',
  'clinical picture', 'what is your diagnosis', 'grand rounds', 'journal club', 'clinical pearls', 'image challenge',
  'ecg challenge', 'clinical crossroads', 'clinical decisions', 'teaching neuroimages', 'neuroimages', 'a piece of my mind',
]);

/**
 * An annual conference introduces each minitrack (track, session) under the same title every year,
 * by the same chairs: such a title names a slot in the programme, not one work, so it is weak.
 */
const RECURRING_INTRODUCTION = /^(an )?introduction to (the )?(mini ?tracks?|tracks?|sessions?|symposium|workshop|panel)\b|\b(mini ?track|track|session) introduction$/;

/**
 * Symbols that carry meaning in a title ("aged ≥60" / "aged <60", "Ph+" / "Ph−") as words: the
 * comparison key keeps letters and digits only, which would drop them. ASCII spellings read the same.
 */
const TITLE_SYMBOLS: Array<[RegExp, string]> = [
  [/>=|\u2265|\u2267/g, ' ge '],
  [/<=|\u2264|\u2266/g, ' le '],
  [/</g, ' lt '],
  [/>/g, ' gt '],
  [/\+\/-|\u00b1/g, ' plusminus '],
  [/\+/g, ' plus '],
  // MEDLINE spells these out ("37 degrees C", "Rituximab and plasma exchange"); other databases keep the sign.
  [/\u00b0/g, ' degrees '],
  [/%/g, ' percent '],
  // Not the "&" of an entity left undecoded ("&foo;").
  [/&(?![a-z]+;|#\d+;|#x[0-9a-f]+;)/gi, ' and '],
];

function spellSymbols(text: string): string {
  if (!/[<>+&%\u00b0\u00b1\u2264-\u2267]/.test(text)) return text;
  return TITLE_SYMBOLS.reduce((result, [pattern, word]) => result.replace(pattern, word), text);
}

const ORIGINAL_TITLE = /\s*<ORIGINAL>[\s\S]*$|\s*<O(?:R(?:I(?:G(?:I(?:N(?:A(?:L)?)?)?)?)?)?)?$/;

/** Normalises a title for comparison, or returns null when nothing comparable remains. */
export function normaliseTitle(raw: string | null | undefined): NormalisedTitle | null {
  if (raw === null || raw === undefined) return null;
  // Some exports append the original-language title after "<ORIGINAL>" (cut off, at a length limit,
  // down to "<OR"): the title in the record's language is what other databases give.
  let text = spellSymbols(foldToAscii(decodeHtml(raw.replace(ORIGINAL_TITLE, '')))).replace(/\s+/g, ' ').trim();
  if (text === '') return null;
  let kind: TitleKind = 'article';
  const erratumPlaces = erratumPlacesOf(text);
  const combinedLetters = /\(\s*multiple letters\s*\)/i.test(text);

  text = text.replace(NOTE_BRACKETS, ' ');
  text = text.replace(ELLIPSIS_CITATION, '');
  for (let previous = ''; previous !== text; ) {
    previous = text;
    text = text.replace(TRAILING_ANNOTATION, '').trim();
  }
  // A parenthesis left open at the end is a truncated annotation ("… (The Journal of Pediatrics (M").
  for (let open = text.lastIndexOf('('); open > 0 && text.indexOf(')', open) === -1 && text.length - open < 120; open = text.lastIndexOf('(')) {
    text = text.slice(0, open).trim();
  }

  // Trailing full stops must not change the kind ("Correction" and "Correction." are one label).
  text = text.replace(/[\s.;,]+$/, '');
  if (ERRATUM_WOS_SUFFIX.test(text) || ERRATUM_CITATION_SUFFIX.test(text) || ERRATUM_APA_SUFFIX.test(text)) {
    kind = 'erratum';
    text = text.replace(ERRATUM_WOS_SUFFIX, '').replace(ERRATUM_CITATION_SUFFIX, '').replace(ERRATUM_APA_SUFFIX, '');
  }
  if (RETRACTED_PREFIX.test(text)) text = text.replace(RETRACTED_PREFIX, '');
  if (ERRATUM_PREFIX.test(text)) {
    kind = 'erratum';
    text = text.replace(ERRATUM_PREFIX, '');
  } else if (RETRACTION_PREFIX.test(text)) {
    kind = 'retraction';
    text = text.replace(RETRACTION_PREFIX, '');
  } else if (CONCERN_PREFIX.test(text)) {
    kind = 'concern';
    text = text.replace(CONCERN_PREFIX, '');
  } else if (COMMENTARY_PREFIX.test(text)) {
    kind = 'commentary';
    text = text.replace(COMMENTARY_PREFIX, '');
  } else if (COMMENTARY_SUFFIX.test(text)) {
    kind = 'commentary';
    text = text.replace(COMMENTARY_SUFFIX, '');
  }

  const part = partNumber(text.toLowerCase());
  // "Part II", "part two" and "Pt. 2" are written the same way, so such titles can still be equal.
  const lower = text.toLowerCase().replace(new RegExp(PART_PATTERN.source, 'gi'), (_match, token: string) => `part ${partValue(token)}`);
  const allWords = lower
    .replace(/['\u2019]/g, '')
    // A decimal point (the Lancet's "2\u00b75") joins its digits into one word: "2.5 mg" and "25 mg",
    // "7.5-year" and "75-year" are different titles. Thousands separators still fall away.
    .replace(/(\d)[.\u00b7](?=\d)/g, '$1d')
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => (word === 'vs' ? 'versus' : spellingFold(word)))
    .map(writtenAsDigits);
  const words = allWords.length > 1 && (allWords[0] === 'the' || allWords[0] === 'a' || allWords[0] === 'an') ? allWords.slice(1) : allWords;
  const full = allWords.join(' ');
  if (words.length === 0) {
    // Nothing but a label ("Erratum", "Reply"): keep the label as the title so kinds still compare.
    const label = kind === 'article' ? '' : kind;
    if (label === '') return null;
    return { kind, part, words: [label], contentWords: [label], key: label, numbers: [], weak: true, erratumPlaces, combinedLetters };
  }
  const contentWords = words.filter((word) => !STOP_WORDS.has(word));
  const numbers = words.filter((word) => /^\d+$/.test(word));
  const weak = GENERIC_TITLES.has(full) || GENERIC_TITLES.has(words.join(' ')) || contentWords.length < 3 || RECURRING_INTRODUCTION.test(full);
  return { kind, part, words, contentWords, key: words.join(''), numbers, weak, erratumPlaces, combinedLetters };
}

/** Surname particles that do not identify a person on their own. */
const PARTICLES = new Set(['de', 'da', 'di', 'del', 'della', 'der', 'den', 'van', 'von', 'le', 'la', 'les', 'du', 'dos', 'das', 'ter', 'ten', 'al', 'el', 'bin', 'ibn', 'mac', 'st', 'y']);

export interface NormalisedAuthor {
  /** Surname without spaces or punctuation ("le quintrec" → "lequintrec"). */
  surname: string;
  /** Surname words (particles excluded) plus the joined form, for particle-order differences. */
  surnameTokens: string[];
  /** Given-name words of three or more letters (catch inverted names such as "Lopez, Rubio M."). */
  givenTokens: string[];
  /** Initials of the given names, in order ("J. I." or "Jae Il" → "ji"). */
  initials: string;
}

/** Name words, with German umlaut transliterations folded (Nürnberger = Nuernberger = Nurnberger). */
function nameWords(text: string): string[] {
  return foldToAscii(text)
    .toLowerCase()
    .replace(/['\u2019`]/g, '')
    .split(/[^a-z]+/)
    .filter((word) => word !== '')
    .map((word) => word.replace(/([aou])e/g, '$1'));
}

// Author names recur across references (and every candidate is prepared again per job): results
// are kept per raw name, frozen because callers share them; emptied when full.
const AUTHOR_CACHE_LIMIT = 50_000;
const authorCache = new Map<string, Readonly<NormalisedAuthor> | null>();

/** Parses "Surname, Given", "Surname GI" (MEDLINE) or "Given Surname" (OpenAlex display names). */
export function normaliseAuthor(raw: string): NormalisedAuthor | null {
  const cached = authorCache.get(raw);
  if (cached !== undefined) return cached;
  if (authorCache.size >= AUTHOR_CACHE_LIMIT) authorCache.clear();
  const author = normaliseAuthorName(raw);
  authorCache.set(raw, author && Object.freeze({ ...author, surnameTokens: Object.freeze(author.surnameTokens) as string[], givenTokens: Object.freeze(author.givenTokens) as string[] }));
  return authorCache.get(raw) as NormalisedAuthor | null;
}

/**
 * What exports write where a record has no author (MEDLINE "[No authors listed]", Web of Science and
 * EMBASE "Anonymous" / "Anon", PsycINFO's "No authorship indicated", even split as "indicated, No
 * authorship") or where a list was cut ("et al."): no person. Two unsigned items (news, the same
 * yearly feature) would otherwise "share" their first author.
 */
const NO_AUTHOR = new Set([
  'anonymous', 'anon', 'et al', 'no authorship indicated', 'indicated no authorship', 'no authors listed', 'no author listed',
  'no author name available', 'no author', 'not available', 'not listed', 'unknown', 'unknown author',
]);

function normaliseAuthorName(raw: string): NormalisedAuthor | null {
  const text = decodeHtml(raw).trim();
  if (text === '' || NO_AUTHOR.has(text.toLowerCase().replace(/[^a-z]+/g, ' ').trim())) return null;
  let surnameWords: string[];
  let givenRaw: string;
  const comma = text.indexOf(',');
  if (comma >= 0) {
    surnameWords = nameWords(text.slice(0, comma));
    givenRaw = text.slice(comma + 1);
  } else {
    const parts = text.split(/\s+/);
    // Trailing initials: MEDLINE "JA", Ovid EMBASE "C.M." or "D.-L.", or spaced "J. A." (a surname
    // stays in front of them).
    let initialsFrom = parts.length;
    while (initialsFrom > 1 && (/^\p{Lu}{1,3}\.?$/u.test(parts[initialsFrom - 1]) || /^(?:\p{Lu}\.-?)+$/u.test(parts[initialsFrom - 1]))) initialsFrom--;
    if (initialsFrom < parts.length) {
      surnameWords = nameWords(parts.slice(0, initialsFrom).join(' '));
      givenRaw = parts
        .slice(initialsFrom)
        .map((part) => [...part.replace(/[^\p{Lu}]/gu, '')].join(' '))
        .join(' ');
    } else {
      surnameWords = nameWords(parts[parts.length - 1]);
      givenRaw = parts.slice(0, -1).join(' ');
    }
  }
  if (surnameWords.length === 0) {
    surnameWords = nameWords(givenRaw);
    givenRaw = '';
    if (surnameWords.length === 0) return null;
  }
  const givenWords = foldToAscii(givenRaw)
    .replace(/['\u2019`]/g, '')
    .split(/[^A-Za-z]+/)
    .filter((word) => word !== '');
  // "JI" (MEDLINE initials without dots) are two initials; "Jae" is one given name.
  const initials = givenWords
    .map((word) => (/^[A-Z]{2,3}$/.test(word) ? word : word[0]))
    .join('')
    .toLowerCase();
  const givenTokens = givenWords.map((word) => word.toLowerCase()).filter((word) => word.length >= 3);
  const significant = surnameWords.filter((word) => !PARTICLES.has(word));
  const surname = surnameWords.join('');
  const surnameTokens = [...new Set([...significant, surname])];
  return { surname, surnameTokens, givenTokens, initials };
}

/** Jaro-Winkler similarity, for spelling variants of a surname (Nuernberger/Nurnberger). */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aMatched = new Array<boolean>(a.length).fill(false);
  const bMatched = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const start = Math.max(0, i - window);
    const end = Math.min(b.length - 1, i + window);
    for (let j = start; j <= end; j++) {
      if (!bMatched[j] && a[i] === b[j]) {
        aMatched[i] = true;
        bMatched[j] = true;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < a.length; i++) {
    if (!aMatched[i]) continue;
    while (!bMatched[k]) k++;
    if (a[i] !== b[k]) transpositions++;
    k++;
  }
  const jaro = (matches / a.length + matches / b.length + (matches - transpositions / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/** Levenshtein distance with an early exit once it exceeds `limit`. */
export function editDistance(a: string, b: string, limit = Number.MAX_SAFE_INTEGER): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      rowMin = Math.min(rowMin, current[j]);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length];
}

/** Two normalised authors name the same person. */
export function sameAuthor(a: NormalisedAuthor, b: NormalisedAuthor): boolean {
  const initialsAgree = a.initials === '' || b.initials === '' || a.initials[0] === b.initials[0] || b.initials.includes(a.initials[0]) || a.initials.includes(b.initials[0]);
  if (a.surname === b.surname) return initialsAgree;
  if (a.surname.length >= 5 && b.surname.length >= 5 && a.surname[0] === b.surname[0] && jaroWinkler(a.surname, b.surname) >= 0.92) return initialsAgree;
  // Compound surnames exported in different orders or with a particle dropped ("Le Quintrec"/"Quintrec").
  const shared = a.surnameTokens.some((token) => token.length >= 3 && b.surnameTokens.includes(token));
  if (shared) return initialsAgree;
  // Inverted names: one export put part of the surname among the given names ("Lopez, Rubio M.").
  return a.surnameTokens.some((token) => token.length >= 4 && b.givenTokens.includes(token)) || b.surnameTokens.some((token) => token.length >= 4 && a.givenTokens.includes(token));
}

export interface NormalisedVenue {
  tokens: string[];
  /**
   * The journal's parallel names, where the export gave several: "Gan to Kagaku Ryoho [Japanese
   * Journal of Cancer & Chemotherapy]", "Ai zheng = Aizheng = Chinese journal of cancer". Each is a
   * name of the same journal, so agreeing with any of them is agreeing with the journal.
   */
  parallel: string[][];
}

// ISO 4 abbreviations leave out articles, prepositions and conjunctions, in any language
// ("Ned Tijdschr Geneeskd" for "Nederlands Tijdschrift voor Geneeskunde"). Single letters other
// than elisions stay: they name journal sections ("Physica A").
const VENUE_STOP = new Set([
  'the', 'of', 'and', 'in', 'for', 'on', 'de', 'la', 'des', 'der', 'und', 'fur', 'et', 'du', 'le', 'y', 'd', 'l',
  'voor', 'van', 'het', 'och', 'og', 'til', 'del', 'della', 'dei', 'degli', 'delle', 'di', 'da', 'do', 'dos', 'das', 'el', 'los', 'las',
  'les', 'zur', 'zum', 'im', 'pour', 'en', 'au', 'aux', 'fuer',
]);

// A bracket that annotates the medium rather than naming the journal ("PLoS ONE [Electronic Resource]").
const MEDIUM_NOTE = /^\s*(?:electronic resource|internet|online|print|electronic)\s*$/;

function venueTokens(text: string): string[] {
  return text
    .replace(/['\u2019]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((token) => token !== '' && !VENUE_STOP.has(token))
    .map(spellingFold);
}

/** Journal name tokens; EMBASE's ".Conference: …" tail and parenthetical places dropped. */
export function normaliseVenue(raw: string | null | undefined): NormalisedVenue | null {
  if (!raw) return null;
  let text = foldToAscii(decodeHtml(raw)).toLowerCase();
  const conference = text.search(/\.?\s*conference\s*:/);
  if (conference > 0) text = text.slice(0, conference);
  // French and Italian elision ("d'Anesthésie", "dell'Apparato") joins nothing: the article goes.
  text = text.replace(/\([^()]*\)/g, ' ').replace(/[&+]/g, ' and ').replace(/\b(?:d|l|dell|dall|nell|sull)['\u2019]/g, ' ');
  const tokens = venueTokens(text);
  if (tokens.length === 0) return null;
  const names: string[] = [];
  const bracketed = [...text.matchAll(/\[([^\]]*)\]/g)].map((match) => match[1]).filter((name) => !MEDIUM_NOTE.test(name));
  if (bracketed.length > 0) names.push(text.replace(/\[[^\]]*\]/g, ' '), ...bracketed);
  if (/\s=\s/.test(text)) names.push(...text.split(/\s=\s/));
  const parallel = names.map(venueTokens).filter((name) => name.length > 0 && name.join(' ') !== tokens.join(' '));
  return { tokens, parallel };
}

/**
 * Conferences publish companion volumes beside the main proceedings (CHI's "Extended Abstracts",
 * "Companion" and "Adjunct" proceedings, workshops, doctoral consortia, posters and demos), where a
 * demo, poster or workshop paper often carries the full paper's title in the same year. The
 * volume a name announces, as text: names announcing different ones are different venues.
 */
function companionVolume(tokens: readonly string[]): string {
  const marks = new Set<string>();
  tokens.forEach((token, i) => {
    if (token === 'companion' || token === 'adjunct' || token === 'doctoral') marks.add(token);
    else if (token === 'workshop' || token === 'workshops') marks.add('workshop');
    else if (token === 'poster' || token === 'posters') marks.add('poster');
    else if (token === 'demo' || token === 'demos' || token === 'demonstrations') marks.add('demo');
    else if (token === 'extended' && (tokens[i + 1] === 'abstracts' || tokens[i + 1] === 'abstract')) marks.add('extended abstracts');
  });
  return [...marks].sort().join(' ');
}

/**
 * Both names state the edition (its year, or its ordinal: "Sixth", "27th") and the editions differ:
 * two meetings of one series, where the same presenters give a tutorial, keynote or panel under one
 * title every year. A record's year may be the indexing year (Scopus dates ECIS 2019 papers 2020);
 * the edition its name states is not.
 */
function editionsDiffer(a: readonly string[], b: readonly string[]): boolean {
  const edition = (tokens: readonly string[], pattern: RegExp) => tokens.filter((token) => pattern.test(token)).sort().join(' ');
  const differ = (pattern: RegExp) => {
    const [left, right] = [edition(a, pattern), edition(b, pattern)];
    return left !== '' && right !== '' && left !== right;
  };
  return differ(/^(?:19|20)\d\d$/) || differ(ORDINAL);
}

/** An abbreviated word keeps its first letter and its letters in order (Natl → national). */
function abbreviates(short: string, long: string): boolean {
  if (short === long) return true;
  if (short.length > long.length || short[0] !== long[0]) return false;
  let j = 0;
  for (const letter of long) if (letter === short[j]) j++;
  return j === short.length;
}

export type VenueRelation = 'same' | 'compatible' | 'different' | 'missing';

/**
 * Same journal: equal tokens (also written as one word: "Zhenjiu" / "zhen jiu"); compatible: one is
 * the other's ISO-style abbreviation, or the other only adds trailing words ("Nephron" / "Nephron
 * Clinical Practice"). Parallel names count as the journal's names.
 */
export function compareVenues(a: NormalisedVenue | null, b: NormalisedVenue | null): VenueRelation {
  if (!a || !b) return 'missing';
  let best = compareNames(a.tokens, b.tokens);
  for (const nameA of [a.tokens, ...a.parallel]) {
    for (const nameB of [b.tokens, ...b.parallel]) {
      if (best === 'same') return best;
      if (nameA === a.tokens && nameB === b.tokens) continue;
      const relation = compareNames(nameA, nameB);
      if (relation === 'same' || (relation === 'compatible' && best === 'different')) best = relation;
    }
  }
  return best;
}

function compareNames(a: string[], b: string[]): VenueRelation {
  if (a.join(' ') === b.join(' ') || a.join('') === b.join('')) return 'same';
  if (companionVolume(a) !== companionVolume(b) || editionsDiffer(a, b)) return 'different';
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.every((token, i) => abbreviates(token, long[i]))) return 'compatible';
  if (short.length === long.length) {
    // Abbreviation may sit on either side, word by word.
    if (short.every((token, i) => abbreviates(token, long[i]) || abbreviates(long[i], token))) return 'compatible';
  }
  return sameProceedings(a, b) || namesByAcronym(a, b) || namesByAcronym(b, a) || acronymInName(a, b) || acronymInName(b, a) ? 'compatible' : 'different';
}

/**
 * A proceedings named by its acronym alone ("ICIS 2017 Proceedings", "CHI 2019") and a meeting's
 * name that carries the same acronym ("38th International Conference on Information Systems, ICIS
 * 2017"; "Proceedings of the 2019 CHI Conference on …"). The acronym must be a word of the longer name.
 */
function acronymInName(acronymSide: readonly string[], fullSide: readonly string[]): boolean {
  const core = acronymSide.filter((token) => !EDITION_WORDS.has(token) && !ORDINAL.test(token) && !/^\d+$/.test(token));
  // Beside the acronym a year, an edition or "Proceedings": a journal named by one word ("Stroke") is not one.
  if (core.length !== 1 || acronymSide.length < 2 || core[0].length < 3 || MEETING_WORDS.has(core[0])) return false;
  return fullSide.some((token) => MEETING_WORDS.has(token)) && fullSide.includes(core[0]);
}

const MEETING_WORDS = new Set(['conference', 'symposium', 'convention', 'congress', 'workshop', 'meeting', 'colloquium']);
const EDITION_WORDS = new Set(['proceedings', 'proc', 'annual', 'ieee', 'acm', 'vols', 'vol', 'volume']);
const ORDINAL = /^(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|(?:thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twentie|thirtie|fortie|fiftie)th|twenty|thirty|forty|fifty)$/;

/** The venue is a conference's proceedings ("… Conference on …", "Symposium on …"), not a journal. */
export function isProceedings(venue: NormalisedVenue | null): boolean {
  return venue !== null && venue.tokens.some((token) => MEETING_WORDS.has(token));
}

/**
 * One conference series named two ways: "Hawaii International Conference on System Sciences" and
 * "50th Annual Hawaii International Conference on System Sciences (HICSS 2017)". Edition numbers,
 * years and words such as "Proceedings" or "Annual" aside, every word of the shorter name (at least
 * three, one of them "conference", "symposium" or the like) is in the longer one.
 */
function sameProceedings(a: readonly string[], b: readonly string[]): boolean {
  const core = (tokens: readonly string[]) => new Set(tokens.filter((token) => !EDITION_WORDS.has(token) && !ORDINAL.test(token) && !/^\d+$/.test(token)));
  const [coreA, coreB] = [core(a), core(b)];
  const [small, large] = coreA.size <= coreB.size ? [coreA, coreB] : [coreB, coreA];
  if (small.size < 3 || ![...small].some((token) => MEETING_WORDS.has(token))) return false;
  for (const token of small) if (!large.has(token)) return false;
  return true;
}

/**
 * One conference named by its acronym ("ICIS: Transforming Society with Digital Innovation") and by
 * its full name ("International Conference on Information Systems"): a word of the first spells the
 * initials of every word of the second, a meeting's name of three words or more (stop words,
 * editions and years aside).
 */
function namesByAcronym(acronymSide: readonly string[], fullSide: readonly string[]): boolean {
  const words = fullSide.filter((token) => !EDITION_WORDS.has(token) && !ORDINAL.test(token) && !/^\d+$/.test(token));
  if (words.length < 3 || !words.some((token) => MEETING_WORDS.has(token))) return false;
  const initials = words.map((token) => token[0]).join('');
  return acronymSide.includes(initials);
}

/** A double (or triple) issue: "3-4", "3/4", "3 & 4". */
const COMBINED_ISSUE = /^\s*0*(\d{1,3})\s*[-/&+]\s*0*(\d{1,3})\s*$/;

/**
 * Volume or issue as comparable text: "Vol. 26" → "26", "Suppl. 2" → "suppl2", "03" → "3"; a double
 * issue keeps its range ("3/4" → "3-4"), which one export writes whole and another by its first or last number.
 */
export function normaliseNumbering(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined || NOT_YET_PRINTED.test(String(raw))) return null;
  const labelled = foldToAscii(String(raw))
    .toLowerCase()
    .replace(/\b(?:vol(?:ume)?|no|num(?:ber)?|issue|n)\b\.?/g, '');
  const combined = COMBINED_ISSUE.exec(labelled);
  if (combined && Number(combined[1]) < Number(combined[2]) && Number(combined[2]) - Number(combined[1]) <= 3) return `${combined[1]}-${combined[2]}`;
  const text = labelled
    .replace(/supplement|suppl\.?|supp\.?/g, 'suppl')
    .replace(/[^a-z0-9]+/g, '')
    // Exports differ in leading zeros ("03", "Suppl 01").
    .replace(/(^|\D)0+(?=\d)/g, '$1')
    // "S2" is how some exports write supplement 2.
    .replace(/^s(\d+)$/, 'suppl$1');
  return text === '' ? null : text;
}

/** The issue numbers a plain issue ("3") or a double issue ("3-4") covers; null for anything else. */
export function issueNumbers(issue: string | null): number[] | null {
  if (issue === null) return null;
  if (/^\d{1,2}$/.test(issue)) return [Number(issue)];
  const range = /^(\d{1,3})-(\d{1,3})$/.exec(issue);
  if (!range) return null;
  const numbers: number[] = [];
  for (let n = Number(range[1]); n <= Number(range[2]); n++) numbers.push(n);
  return numbers;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

function isMonth(word: string): boolean {
  const lower = word.toLowerCase();
  return MONTHS.includes(lower) || MONTH_NAMES.includes(lower) || lower === 'sept';
}

/**
 * A volume is its first number ("Vol. 26" → "26"; "Drug Discovery. 9", where an export spilled
 * the journal subtitle into the volume, → "9"); a volume without digits keeps its text.
 */
const NOT_YET_PRINTED = /^\W*(?:e-?pub(?:lished)? ahead of print|ahead of print|in press|online first|early view|article in press)\W*$/i;

export function normaliseVolume(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  // A month in the volume field ("(Jul)") is the issue date an export put there, not a volume.
  if (isMonth(String(raw).replace(/\W/g, ''))) return null;
  // "[Epub ahead of print]", "In press": the record has no volume yet.
  if (NOT_YET_PRINTED.test(String(raw))) return null;
  const number = /\d+/.exec(foldToAscii(String(raw)));
  return number ? number[0].replace(/^0+(?=\d)/, '') : normaliseNumbering(raw);
}

export interface PageRange {
  /**
   * First page digits without leading zeros or letter prefixes ("c37" → "37", "e1234" → "1234");
   * null when the export gave only the last page ("Suppl-48").
   */
  first: string | null;
  /** Last page digits, expanded ("1844-59" → "1859"); null for a single page. */
  last: string | null;
  /** An electronic article number ("e12724", "a1754"), not a printed page. */
  electronic?: boolean;
  /**
   * Front matter numbered in roman numerals ("iii-iv"): every issue starts its own, so such pages
   * place an item only together with its issue.
   */
  frontMatter?: boolean;
}

const ROMAN_PAGE = /^(?=[ivxlc]+$)c{0,3}(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$/;

/**
 * A page range a spreadsheet read as a date on the way through an export: "10-7" shown as
 * "10-Jul", "11-19" as "Nov-19". Read back as the two numbers it was.
 */
function undoSpreadsheetDate(pages: string): string {
  const dayMonth = /^\s*(\d{1,2})[-\s]([a-z]{3})\s*$/.exec(pages);
  if (dayMonth && MONTHS.includes(dayMonth[2])) return `${dayMonth[1]}-${MONTHS.indexOf(dayMonth[2]) + 1}`;
  const monthYear = /^\s*([a-z]{3})[-\s](\d{2})\s*$/.exec(pages);
  if (monthYear && MONTHS.includes(monthYear[1])) return `${MONTHS.indexOf(monthYear[1]) + 1}-${monthYear[2]}`;
  return pages;
}

/** Parses "23-35", "376 -- 383", "e1234", "23-5" (= 23-25), "532, 534-536" (532 to 536). */
const PAGE_COUNT = /^(.*\d.*?)[\s,;.(]+\d+\s*(?:p|pp|pages?)\b\.?\)?\s*$/;

export function parsePages(raw: string | null | undefined): PageRange | null {
  if (raw === null || raw === undefined) return null;
  // A page count after the range (CINAHL "123-129. 7p", "123-129 (7 pages)") is not the last page.
  const text = undoSpreadsheetDate(foldToAscii(String(raw)).toLowerCase()).replace(PAGE_COUNT, '$1');
  // Roman front matter ("iii--iv", "XII-XV", "ii"), compared as written.
  const roman = /^\s*([ivxlc]+)\s*(?:-+\s*([ivxlc]+))?\s*$/.exec(text);
  if (roman && ROMAN_PAGE.test(roman[1]) && (roman[2] === undefined || ROMAN_PAGE.test(roman[2]))) {
    return { first: roman[1], last: roman[2] === undefined || roman[2] === roman[1] ? null : roman[2], frontMatter: true };
  }
  // "Suppl-48": an export wrote the supplement's name where the first page ("S37") belongs.
  const lastOnly = /^\s*[a-z.]+\s*-\s*[a-z]{0,3}(\d+)[a-z]{0,3}\s*$/.exec(text);
  if (lastOnly) return { first: null, last: lastOnly[1].replace(/^0+(?=\d)/, '') };
  const tokens = text.match(/[a-z]{0,3}\d+[a-z]{0,3}/g);
  if (!tokens) return null;
  const digits = tokens.map((token) => token.replace(/\D/g, '').replace(/^0+(?=\d)/, ''));
  const first = digits[0];
  let last: string | null = digits.length > 1 ? digits[digits.length - 1] : null;
  // "23-5" and "1844-59" print only the changed trailing digits of the last page.
  if (last !== null && last.length < first.length) {
    const expanded = first.slice(0, first.length - last.length) + last;
    if (Number(expanded) >= Number(first)) last = expanded;
  }
  if (last === first) last = null;
  if (tokens.length === 1 && /^[ea]\d{4,}$/.test(tokens[0])) return { first, last, electronic: true };
  return { first, last };
}

export type PagesRelation = 'same' | 'end' | 'conflict' | 'missing';

/**
 * same: first pages equal; end: both end on the same page, where one range's first page differs or
 * is unknown, or one gives only the other's last page (an export that kept the end of the range).
 */
export function comparePages(a: PageRange | null, b: PageRange | null): PagesRelation {
  if (!a || !b) return 'missing';
  // An electronic article number and a printed page range number different things (the online
  // version and the print issue, or the PDF's own pages): neither confirms nor contradicts.
  if ((a.electronic === true && b.last !== null) || (b.electronic === true && a.last !== null)) return 'missing';
  if (a.first !== null && a.first === b.first) return 'same';
  const lastA = a.last ?? a.first;
  const lastB = b.last ?? b.first;
  if ((a.last !== null || b.last !== null) && lastA === lastB) return 'end';
  return 'conflict';
}
