// Everyday names of virus groups (group-names.yaml): "coronavirus" for the family Coronaviridae, "flavivirus" for
// the genus Orthoflavivirus (the genus Flavivirus until MSL38) and, more loosely, the family Flaviviridae,
// "arbovirus" for no taxon at all. The parser reads a group word as its taxon, or as a word that names none; the
// answers say which taxon a word was read as, and in which sense.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from '../shared/project-root.js';
import type { Rank } from '../read/lineages.js';

export const GROUPS_FILE = join(projectRoot(), 'src', 'ai', 'group-names.yaml');

export interface GroupTaxon {
  rank: Rank;
  name: string;
}

export interface GroupEntry {
  words: string[];
  taxon?: GroupTaxon;
  wider?: GroupTaxon;
  former?: Array<GroupTaxon & { renamed_in: string }>;
  /** The taxon is no longer listed: the release that ended it, and how. */
  ended?: { in: string; how: 'abolished' | 'split' };
  host?: string;
  not_a_taxon?: string;
  source: string;
}

let entries: GroupEntry[] | null = null;
let byWords: Map<string, GroupEntry> | null = null;
let starts: Set<string> | null = null;

/** The table as written, read once. */
export function groupEntries(): GroupEntry[] {
  entries ??= (parse(readFileSync(GROUPS_FILE, 'utf8')) as { groups: GroupEntry[] }).groups;
  return entries;
}

/**
 * The group a phrase names (lower case, words separated by single spaces), for the words the parser reads: a
 * taxon's everyday name or a word that names no taxon. Words of a host ("phage") are the host vocabulary's
 * (vocabulary.ts reads them as the host source they mean), not read here.
 */
export function groupNamed(phrase: string): GroupEntry | undefined {
  if (!byWords) {
    byWords = new Map();
    for (const e of groupEntries()) if (!e.host) for (const w of spellings(e)) byWords.set(w, e);
  }
  return byWords.get(phrase);
}

/** Whether a group phrase starts with this word (lower case): most words start none, and are not tried. */
export function startsGroup(word: string): boolean {
  if (!starts) {
    starts = new Set();
    for (const e of groupEntries()) if (!e.host) for (const w of spellings(e)) starts.add(w.split(' ')[0]!);
  }
  return starts.has(word);
}

/** A group's words as written, and each one-word name written in two ("herpes virus", "pox viruses", "corona-virus"). */
function spellings(e: GroupEntry): string[] {
  return e.words.flatMap((w) => {
    const m = /^([a-z]{3,}?)(virus|viruses)$/.exec(w);
    return m ? [w, `${m[1]} ${m[2]}`, `${m[1]}-${m[2]}`] : [w];
  });
}

/** The longest group phrase, in words. */
export const GROUP_WORDS_MAX = 3;

/** "the genus Orthoflavivirus (the flaviviruses; formerly the genus Flavivirus)": how a group word was read. */
export function groupReading(word: string, e: GroupEntry): string {
  if (!e.taxon) return `"${word}"`;
  const former = e.former?.length ? `; formerly the ${e.former.map((f) => `${f.rank} ${f.name}`).join(', ')}` : '';
  return `the ${e.taxon.rank} ${e.taxon.name} (the ${e.words[1] ?? e.words[0]}${former})`;
}
