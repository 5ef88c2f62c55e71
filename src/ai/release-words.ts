// The releases a question names, read from its words: "MSL39", "msl 39", "release 39", "39" where the words
// around make it one, a year ("2019", "the 2019 list"), a label ("1999a", "2018b"), a place ("the first list",
// "the 12th MSL", "the tenth release", "the release before MSL41", "the previous release"), "now", "current",
// "the latest release"; and one release named two ways at once ("MSL30 (2015)", "1987 (MSL10)"), which is one
// release when the two agree and a conflict, said as such, when they do not. Words that name no release
// ("MSL99", "1850", "2005b", "1980" where no list was published) are kept as such, never read as another.
import type { ReleaseRow } from '../read/releases.js';
import { matches } from './matches.js';
import type { ReleaseRef } from './parse.js';

export interface Mention {
  start: number;
  end: number;
  refs: ReleaseRef[];
  bad?: string;
  /** Two names of a release side by side that name different releases ("MSL40 (2019)"): what each names. */
  conflict?: string;
}

// a number followed by these words counts something ("40 species", "2020 names") rather than naming a release
const RANK_OR_COUNT_AFTER = /^\s*(?:%|percent|species|genera|genus|famil|orders?|realms?|class|phyl|kingdom|names?|taxa|top|largest|most|more|kb|bp|mb|nt)/i;

/** The releases a lower-case question names, in order, the two names of one release read as one. */
export function findReleases(lower: string, all: ReleaseRow[]): Mention[] {
  // every way of naming a release has a digit or one of these words, and most questions have neither: one test
  if (!/\d/.test(lower) && !RELEASE_WORDS.test(lower)) return [];
  const out: Mention[] = [];
  const first = all[0]!, last = all[all.length - 1]!;
  const span = `${first.version} (${first.year}) to ${last.version} (${last.year})`;
  const byMsl = (n: number) => all.find((r) => r.msl === n);
  const ref = (r: ReleaseRow, text: string, note?: string): ReleaseRef =>
    ({ text, version: r.version, msl: r.msl, year: r.year, label: r.label, ...(note ? { note } : {}) });
  const push = (m: RegExpMatchArray, refs: ReleaseRef[], bad?: string) => {
    const start = m.index!, end = start + m[0].length;
    if (out.some((o) => start < o.end && end > o.start)) return;
    out.push({ start, end, refs, ...(bad ? { bad } : {}) });
  };

  // a release by its place next to another: "the release before MSL41", "the one after 2018a", "the previous
  // release" and "the release before last" (the one before the latest)
  const named = (t: string): ReleaseRow | undefined => {
    const n = /^(?:msl\s*-?\s*|release\s+)(\d{1,3})$/.exec(t);
    return n ? byMsl(Number(n[1])) : all.find((r) => r.label === t) ?? (all.filter((r) => String(r.year) === t).length === 1 ? all.find((r) => String(r.year) === t) : undefined);
  };
  // (each pattern below that needs a word runs only when the question holds that word, which few do: WORDS_OF)
  if (WORDS_OF.beside.test(lower)) for (const m of matches(/\b(?:the\s+)?(?:release|version|msl|list|one)\s+(?:that\s+)?(?:(?:came|comes|was\s+(?:published|released))\s+)?(before|after|following|preceding|prior\s+to)\s+(?:the\s+)?(msl\s*-?\s*\d{1,3}|release\s+\d{1,3}|(?:19|20)\d\d[ab]?|last|latest)\b/g, lower)) {
    const at = /^(?:last|latest)$/.test(m[2]!) ? last : named(m[2]!);
    if (!at) continue;
    const r = byMsl(at.msl + (/^(?:before|preceding|prior)/.test(m[1]!) ? -1 : 1));
    if (r) push(m, [ref(r, m[0])]);
    else push(m, [], `there is no release ${m[1]} ${at.version} in this data set (${span})`);
  }
  // "the previous release": the one before the release the question names, else before the latest (below)
  const previous: Mention[] = [];
  if (WORDS_OF.previous.test(lower)) for (const m of matches(/\b(?:the\s+)?(?:previous|penultimate|second[- ]to[- ]last|second[- ]latest|last[- ]but[- ]one)\s+(?:release|version|msl|list)\b|\bthe\s+(?:one|release|version|list)\s+before\s+(?:it|that|this|this one)\b/g, lower)) {
    const before = out.length;
    push(m, []);
    if (out.length > before) previous.push(out[out.length - 1]!);
  }
  // every pattern from here to the bare release number needs a digit, and most questions have none
  if (/\d/.test(lower)) {
    if (lower.includes('msl')) for (const m of matches(/\bmsl\s*-?\s*(\d{1,3})\b/g, lower)) {
      const r = byMsl(Number(m[1]));
      if (r) push(m, [ref(r, m[0])]);
      else push(m, [], `${m[0].toUpperCase().replace(/\s|-/g, '')} is not a release in this data set (${span})`);
    }
    // "the 23rd MSL", "the 5th release": a release by its number
    for (const m of matches(/\b(\d{1,3})(?:st|nd|rd|th)\s+(?:(?:ictv|master|species|official)\s+){0,2}(?:msl|release|version|list|edition)\b/g, lower)) {
      const r = byMsl(Number(m[1]));
      if (r) push(m, [ref(r, m[0])]);
      else push(m, [], `there is no ${m[1]}th release in this data set (${span})`);
    }
    // "release 39", "version 39", "release 5"
    if (WORDS_OF.numbered.test(lower)) for (const m of matches(/\b(?:release|version)\s+(?:number\s+|no\.?\s+|#)?(\d{1,3})\b(?!\s*(?:species|genera|famil))/g, lower)) {
      const r = byMsl(Number(m[1]));
      if (r) push(m, [ref(r, m[0])]);
      else push(m, [], `${m[0]} is not a release in this data set (${span})`);
    }
    // "the 1800s", "the 1960s": decades before the first release (or after the last)
    // ("1990's MSL11" is the year's release, named twice)
    if (WORDS_OF.decade.test(lower)) for (const m of matches(/\b(1\d|20)(\d)0'?s\b(?!\s*msl\s*-?\s*\d)/g, lower)) {
      const from = Number(`${m[1]}${m[2]}0`);
      if (from + 9 < first.year || from > last.year) push(m, [], `no release dates from the ${m[0]}; the data set covers ${span}`);
      else push(m, []);   // a decade of the record is read whole (understood.ts), never as its first year
    }
    // "the first 1999 release", "the second release of 2018": one of a year's two releases
    if (WORDS_OF.ofYear.test(lower)) for (const m of matches(/\b(first|second|earlier|later|last|1st|2nd)\s+(?:((?:19|20)\d\d)\s+(?:release|version|list|msl)|(?:release|version|list|msl)\s+(?:of|in)\s+((?:19|20)\d\d))\b/g, lower)) {
      const inYear = all.filter((r) => r.year === Number(m[2] ?? m[3]));
      const r = /^(?:first|earlier|1st)$/.test(m[1]!) ? inYear[0] : inYear[1];
      if (r && inYear.length > 1) push(m, [ref(r, m[0])]);
    }
    // "the 1850 release", "MSL of 1066": a year no release can be of
    for (const m of matches(/\b(1[0-8]\d\d|19[0-6]\d)\b/g, lower)) {
      if (/^\s*(?:release|version|list|msl|edition|taxonomy)/.test(lower.slice(m.index! + m[0].length)) || /\b(?:in|of|from|since|until|year)\s*(?:the\s+)?$/.test(lower.slice(0, m.index))) {
        push(m, [], `no release dates from ${m[1]}; the data set covers ${span}`);
      }
    }
    // "2018b" names one release by its label ("1999c" none); "2019" the release(s) of that year
    for (const m of matches(/\b((?:19|20)\d\d)([a-rt-z])?\b/g, lower)) {
      // a year joined to letters by a hyphen, slash or underscore is part of a virus's name ("Synechococcus phage
      // ACG-2014j", "parvovirus YX-2010/CHN", "2019-nCoV"), not a release ("MSL37/2022" is one release named twice)
      const joined = /(?:^|[^a-z\d])([a-z][a-z\d]*)[-_/]$/.exec(lower.slice(Math.max(0, m.index! - 16), m.index));
      if ((joined && !/^msl\d*$/.test(joined[1]!)) || /^(?:[_/][a-z\d]|-[a-z])/.test(lower.slice(m.index! + m[0].length))) continue;
      const year = Number(m[1]);
      if (m[2]) {
        const r = all.find((x) => x.label === `${m[1]}${m[2]}`);
        if (r) push(m, [ref(r, m[0])]);
        else push(m, [], `there is no release labelled ${m[0]} (releases: ${span})`);
        continue;
      }
      // ("the 2015 name of X", "the 1995 species X" name a release: a year after "the", before "name" or "species")
      const after = lower.slice(m.index! + m[0].length);
      // ("when did the number of species first exceed 2000?": a count after a threshold word, not a year)
      if (/\b(?:more than|over|above|exceed\w*|pass\w*|surpass\w*|reach\w*|cross\w*|at least|fewer than|less than|under|below)\s*$/.test(lower.slice(0, m.index))) continue;
      if (RANK_OR_COUNT_AFTER.test(after) && !/\b(?:in|of|from|to|since|until|and|between)\s*$/.test(lower.slice(0, m.index))
        && !(/^\s*(?:name|species)\b/.test(after) && /\bthe\s*$/.test(lower.slice(0, m.index)))) continue;
      const inYear = all.filter((r) => r.year === year);
      if (inYear.length === 1) push(m, [ref(inYear[0]!, m[0])]);
      else if (inYear.length > 1) {
        // two releases in one year (2018a, 2018b): the later one was in force at the end of it
        const chosen = inYear[inYear.length - 1]!;
        push(m, [{ ...ref(chosen, m[0], `${year} had ${inYear.length} releases (${inYear.map((r) => `${r.version} = ${r.label}`).join(', ')})`), ambiguous: inYear.map((r) => r.label) }]);
      } else if (year >= first.year && year <= last.year) {
        // never the release in force instead: the question named a release that does not exist
        const before = all.filter((r) => r.year < year).pop()!;
        const after = all.find((r) => r.year > year)!;
        push(m, [], `no release was published in ${year} (${before.version} is of ${before.label}, ${after.version} of ${after.label})`);
      } else {
        push(m, [], `no release dates from ${year}; the data set covers ${span}`);
      }
    }
    // a bare release number, when the words around it make it one: "in 39", "between 35 and 40"
    for (const m of matches(/\b(\d{2})\b/g, lower)) {
      const n = Number(m[1]);
      const r = byMsl(n);
      if (!r) continue;
      const before = lower.slice(0, m.index);
      const after = lower.slice(m.index! + m[0].length);
      if (!/\b(?:in|of|for|from|to|and|between|vs\.?|versus|since|until|with|msl|release|version)\s*$/.test(before)) continue;
      if (RANK_OR_COUNT_AFTER.test(after) || /^\s*,\d{3}/.test(after) || /^[.,]\d/.test(after)) continue;
      push(m, [ref(r, m[0])]);
    }
  }
  // "the second release", "the tenth MSL", "the forty-first list": a release by its place, in words
  for (const m of matches(ORDINAL_RELEASE, lower)) {
    const n = ordinalOf(m[1]!);
    if (n === null) continue;
    const r = byMsl(n);
    if (r) push(m, [ref(r, m[0])]);
    else push(m, [], `there is no ${m[1]} release in this data set (${span})`);
  }
  // "the latest release", "currently", "between MSL39 and the latest", or the word alone as the whole question
  for (const m of matches(/\b(?:the\s+)?(?:latest|newest|current|present|most recent|last)\s+(?:(?:ictv|official|master species)\s+)?(?:release|version|msl|list|taxonomy)\b(?!\s+(?:to|that|which|in which|where|with)\b)|\b(?:currently|nowadays|today|now)\b|\bright now\b|(?<=\b(?:and|to|with|vs\.?|versus|than)\s+)(?:the\s+)?(?:latest|newest|current|most recent)(?:\s+one)?\b|^(?:the\s+)?(?:latest|newest|current|most recent)(?:\s+one)?(?=[\s?.!]*$)/g, lower)) {
    push(m, [ref(last, m[0])]);
  }
  // "two releases ago": counted back from the latest
  const WORD_NUMBERS: Record<string, number> = { a: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
  for (const m of matches(/\b(a|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\s+(?:releases?|versions?|msls?|lists?|editions?)\s+ago\b/g, lower)) {
    const n = WORD_NUMBERS[m[1]!] ?? Number(m[1]);
    const r = byMsl(last.msl - n);
    if (r) push(m, [ref(r, m[0])]);
    else push(m, [], `there is no release ${m[0]} in this data set (${span})`);
  }
  // (not "the first release to list X", "the last list that has X": a question about X's history, no release named)
  // (nor "when did ICTV first list more than 300 families?", where "list" is the verb)
  if (WORDS_OF.first.test(lower)) for (const m of matches(/\b(?:the\s+)?(?:very\s+)?(?:first|earliest|oldest)\s+(?:(?:ictv|species|master|official|taxonomy)\s+){0,3}(?:release|version|msl|list)\b(?!\s+(?:to|that|which|in which|where|with)\b)/g, lower)) {
    if (!m[0].startsWith('the') && m[0].endsWith('list') && /\b(?:ictv|it|they|did|does|do)\s*$/.test(lower.slice(0, m.index))) continue;
    push(m, [ref(first, m[0])]);
  }
  for (const p of previous) {
    const other = out.find((o) => !previous.includes(o) && o.refs.length === 1);
    const r = byMsl((other?.refs[0]!.msl ?? last.msl) - 1);
    const text = lower.slice(p.start, p.end);
    if (r) p.refs = [ref(r, text)];
    else p.bad = `there is no release before ${other?.refs[0]!.version ?? last.version} in this data set (${span})`;
  }
  return paired(lower, out.sort((a, b) => a.start - b.start));
}

/** A word each of some patterns of findReleases cannot match without (substrings: they only rule the pattern out). */
const WORDS_OF = {
  beside: /before|after|following|preceding|prior/,
  previous: /previous|penultimate|second|last|before/,
  numbered: /release|version/,
  decade: /0'?s/,
  ofYear: /first|second|earlier|later|last|1st|2nd/,
  first: /first|earliest|oldest/,
};

/** The words without digits that name a release in some pattern below. */
const RELEASE_WORDS = /\b(?:releases?|versions?|msls?|lists?|editions?|latest|newest|current|present|recent|last|now|today|currently|nowadays|first|earliest|oldest|previous|penultimate|second|one|[a-z]+(?:th|st|nd|rd))\b/;

// ordinal words up to the sixties: "first" .. "nineteenth", "twentieth", "twenty-first" / "twenty first", ...
const UNITS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth',
  'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth', 'eighteenth', 'nineteenth'];
const TENS = ['twent', 'thirt', 'fort', 'fift', 'sixt'];
const ORDINAL_WORD = String.raw`(?:(?:twenty|thirty|forty|fifty|sixty)[\s-]+(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|(?:twent|thirt|fort|fift|sixt)ieth|${UNITS.join('|')})`;
const ORDINAL_RELEASE = new RegExp(String.raw`\bthe\s+(${ORDINAL_WORD})\s+(?:(?:ictv|master|species|official|virus|taxonomy|taxonomic)\s+){0,3}(?:msl|release|version|list|edition)\b(?!\s+(?:to|that|which|in which|where|with)\b)`, 'g');

/** "twenty-first" -> 21. */
function ordinalOf(word: string): number | null {
  const w = word.replace(/\s+/g, '-');
  const unit = UNITS.indexOf(w);
  if (unit >= 0) return unit + 1;
  const tens = TENS.findIndex((t) => w.startsWith(t));
  if (tens < 0) return null;
  const rest = w.split('-')[1];
  return 20 + 10 * tens + (rest ? UNITS.indexOf(rest) + 1 : 0);
}

// "MSL30 (2015)", "1987 (MSL10)", "the 2025 release (MSL41)", "MSL41, i.e. the latest", "MSL35 aka 2019": one
// release named two ways, said so
const JOIN = /^\s*(?:(?:release|list|msl|version|edition|taxonomy)\s*)?(?:\(\s*(?:(?:i\.?e\.?|a\.?k\.?a\.?|released|published|issued|in|from|of|the|year|release|version)\s*,?\s*)*|,?\s*(?:i\.?e\.?|a\.?k\.?a\.?|also known as|that is|namely|=)\s*,?\s*(?:the\s+)?)$/;
// "MSL35/2019", "MSL35 - the 2019 one", "MSL35, the 2019 list", "2019's MSL35", "the 2019 MSL35", "the 2015 release, MSL30",
// "MSL36, released in 2020", "MSL41 of 2025": two names side by
// side, joined only when they are names of different kinds (a number and a year, a label or a place): "MSL35,
// MSL36" or "2019/2020" are two releases
// ("MSL35 from 2020", "MSL35 [2020]", "MSL35, 2020", "MSL35 in 2020": joined the same way)
const BESIDE = /^(?:'s\s+(?:(?:release|list|msl|version|edition)\s*,?\s*)?|\s*(?:(?:release|list|msl|version|edition)\s*)?(?:[/:-]\s*(?:the\s+)?|,\s*the\s+)|\s+(?:the\s+)?|\s*(?:release|list|version|edition)\s*,\s*|\s*,?\s*(?:released|published|issued|out)\s+(?:in\s+)?|\s+(?:of|from|in)\s+|\s*\[\s*|\s*,\s*)$/;
const CLOSE = /^\s*(?:release|list)?\s*\)/;
// the word after the second name of a release joined so ("the 2019 list", "the 2018a one")
const TRAILING = /^\s*(?:list|release|one|version|msl|edition)\b/;

/** What kind of name of a release a mention is: its number, its year or label, or its place in words. */
function kindOf(text: string): 'number' | 'year' | 'place' {
  if (/^(?:msl|release|version)\b|^msl\d|^\d{1,3}(?:st|nd|rd|th)?\b/.test(text) && !/^(?:19|20)\d\d/.test(text)) return 'number';
  return /(?:19|20)\d\d/.test(text) ? 'year' : 'place';
}

/** What one name of a release names, for a conflict: "MSL40 is the 2024 release", "2019's release is MSL35". */
function named(text: string, refs: ReleaseRef[]): string {
  const r = refs[0]!;
  if (r.ambiguous) return `${r.year} had ${r.ambiguous.length} releases (${r.note!.replace(/^.*?\(/, '').replace(/\)$/, '')})`;
  if (/^msl|^release|^version/.test(text)) return `${r.version} is the ${r.label} release`;
  if (/^(?:19|20)\d\d[a-z]?$/.test(text)) return `${text}'s release is ${r.version}`;
  return `${text} is ${r.version} (${r.label})`;
}

/**
 * Two release mentions joined as one ("X (Y)", "X, i.e. Y") are one release named twice: one mention when they
 * agree (a year of two releases agrees with either), a conflict when they name different releases.
 */
function paired(lower: string, mentions: Mention[]): Mention[] {
  const out: Mention[] = [];
  for (let i = 0; i < mentions.length; i++) {
    const a = mentions[i]!, b = mentions[i + 1];
    const gap = b ? lower.slice(a.end, b.start) : '';
    const single = b && a.refs.length === 1 && b.refs.length === 1 && !a.bad && !b.bad;
    const said = single && JOIN.test(gap) && (!gap.includes('(') || CLOSE.test(lower.slice(b.end)));
    // ("the latest release, MSL38": a comma alone after a name that ends in its release word)
    const apposed = /^\s*,\s*$/.test(gap) && /\b(?:release|list|version|edition)$/.test(lower.slice(a.start, a.end));
    // ("was MSL37 released in 2021?" asks whether the two are one: read as two, never joined)
    // ("is MSL40 the latest release?" likewise)
    const asked = (/\b(?:released|published|issued|out)\b/.test(gap) || /^\s+(?:the\s+)?$/.test(gap)) && /^\s*(?:was|were|is|are|did|has|had)\b/.test(lower);
    const beside = single && !said && !asked && (BESIDE.test(gap) || apposed) && kindOf(lower.slice(a.start, a.end)) !== kindOf(lower.slice(b.start, b.end));
    if (!said && !beside) {
      out.push(a);
      continue;
    }
    const end = gap.includes('(') ? b.end + CLOSE.exec(lower.slice(b.end))![0].length
      : gap.includes('[') ? b.end + (/^\s*\]/.exec(lower.slice(b.end))?.[0].length ?? 0) : b.end + (TRAILING.exec(lower.slice(b.end))?.[0].length ?? 0);
    const text = lower.slice(a.start, end);
    const [ra, rb] = [a.refs[0]!, b.refs[0]!];
    const fits = (x: ReleaseRef, y: ReleaseRef) => (x.ambiguous ? x.ambiguous.includes(y.label) : x.msl === y.msl);
    const agree = ra.ambiguous && rb.ambiguous ? ra.year === rb.year : ra.ambiguous ? fits(ra, rb) : rb.ambiguous ? fits(rb, ra) : ra.msl === rb.msl;
    if (agree) {
      // the named release, not the year of two
      out.push({ start: a.start, end, refs: [{ ...(ra.ambiguous ? rb : ra), text }] });
    } else {
      const ta = lower.slice(a.start, a.end), tb = lower.slice(b.start, b.end);
      out.push({ start: a.start, end, refs: [], conflict: `"${text}" names two different releases: ${named(ta, a.refs)}, and ${named(tb, b.refs)}` });
    }
    i++;
  }
  return out;
}

