// The ranks of ICTV's taxonomy, highest first: the columns of every lineage the build writes and the read
// layer reads, so both take them from here.

export const RANKS = [
  'realm', 'subrealm', 'kingdom', 'subkingdom', 'phylum', 'subphylum', 'class', 'subclass',
  'order', 'suborder', 'family', 'subfamily', 'genus', 'subgenus', 'species',
] as const;
export type Rank = (typeof RANKS)[number];
