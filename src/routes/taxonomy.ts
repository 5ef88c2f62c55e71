// /taxonomy: the latest release's species, families and tree, and a checker for a species' classification.
// Every answer is a pre-rendered document (taxonomy_* projections), read from memory except the trees; only
// the "did you mean" suggestions of an unknown name are a search.
import { Router, type Request, type Response } from 'express';
import { HttpError } from '../read/errors.js';
import { extendedJson } from '../read/json-text.js';
import { sendJson, sendUncached } from '../http/send-answer.js';
import type { Store } from '../store/store.js';
import { CLASSIFICATION_RANKS, type ClassificationRank } from '../read/lineages.js';
import { nameParam, normaliseName } from '../read/names.js';
import { latest, resolveVersion, type ResolvedVersion } from '../read/releases.js';
import { absence, endingOf, resolveName, type Resolution } from '../read/resolve.js';
import { unknownNameError } from '../read/suggest.js';
import { lookupTaxon, notFoundAt, type TaxonDoc } from '../read/taxa.js';

/** What the name given is to the species answered. */
type NameStatus = 'current' | 'former' | 'virus_name' | 'abbreviation' | 'identifier';

/** taxonomy_species: species record A (interface spec 2.1) of a species of the latest release. */
interface SpeciesA {
  scientific_name: string;
  taxonomy: Record<ClassificationRank, string | null>;
  [field: string]: unknown;
}


interface Match {
  matched_name: string;
  name_status: NameStatus;
  /** The resolution's status from the name's last use to the latest release (renamed, merged, ...). */
  status: Resolution['status'];
  match_type: Resolution['match_type'];
  confidence: number;
  renamed_in: string | null;
  also_matches: string[];
}

interface Gone {
  matched_name: string;
  name_status: NameStatus;
  fate: { change: string; version: string | null; into: string[]; current_names: string[]; detail: string };
}

/** species: its taxonomy_species document, the JSON bytes held. */
type Found = { match: Match; species: Buffer } | { gone: Gone } | { unknown: string[] };

function nameStatusOf(r: Resolution, current: string): NameStatus {
  if (r.matched_kind === 'virus_name' || r.matched_kind === 'abbreviation') return r.matched_kind;
  if (r.match_type === 'virus_name') return 'virus_name';
  if (r.matched_kind !== 'species' && r.matched_kind !== 'taxon') return 'identifier';
  return normaliseName(r.matched_name!) === normaliseName(current) && r.chain.length === 0 ? 'current' : 'former';
}

/**
 * A name as the latest release knows it (the resolver, as every endpoint): its species, how it is gone (split
 * into several, abolished, or not a species at all), or a 404 with suggestions.
 */
async function resolveSpecies(store: Store, name: string): Promise<Found> {
  // no letter or digit of the Latin alphabet: not a name any release used
  if (normaliseName(name) === '') return { unknown: [] };
  const v = latest(store);
  const r = await resolveName(store, name, null, v);
  if (r.status === 'unknown') return { unknown: r.suggestions };
  const current = r.rank === 'species' && r.status !== 'split' ? r.results[0] : undefined;
  const species = current ? store.doc('taxonomy_species', current.toLowerCase()) : undefined;
  if (!species) {
    const ending = endingOf(r);
    return {
      gone: {
        matched_name: r.matched_name!, name_status: nameStatusOf(r, r.results[0] ?? ''),
        fate: {
          change: r.rank === 'species' ? r.status : 'not_a_species', version: ending?.step.version ?? null,
          into: ending?.into ?? [],
          current_names: r.results, detail: absence(r, v, 'species'),
        },
      },
    };
  }
  // the document's scientific_name is current in another letter case at most, which name status ignores
  const name_status = nameStatusOf(r, current!);
  return {
    species,
    match: {
      matched_name: r.matched_name!, name_status, status: r.status, match_type: r.match_type, confidence: r.confidence,
      renamed_in: name_status === 'former' ? r.chain.find((c) => c.change.startsWith('renamed') || c.change === 'merged')?.version ?? null : null,
      also_matches: r.results.slice(1),
    },
  };
}

/** The species a name stands for in the latest release, as its answer's bytes; a 404 saying why there is none. */
async function speciesAnswer(store: Store, name: string): Promise<Buffer> {
  const r = await resolveSpecies(store, name);
  if ('unknown' in r) throw unknownNameError(store, name, r.unknown);
  if ('gone' in r) {
    const { matched_name, name_status, fate } = r.gone;
    throw new HttpError(404, fate.detail, 'NotFound', { matched_name, name_status, fate });
  }
  // the match's fields are none of the document's
  return extendedJson(r.species, { query: name, ...r.match });
}

// GET /species/:scientific_name <- the resolver + taxonomy_species (in memory)
async function species(req: Request, res: Response): Promise<void> {
  sendJson(req, res, await speciesAnswer(req.store, nameParam(req.params.scientific_name as string)), 'latest');
}

// GET /family/:family_name <- taxonomy_family (in memory)
async function family(req: Request, res: Response): Promise<void> {
  const name = nameParam(req.params.family_name as string);
  const doc = req.store.doc('taxonomy_family', name.toLowerCase());
  if (!doc) throw await notFoundAt(req.store, name, 'family', latest(req.store));
  sendJson(req, res, doc, 'latest');
}

/** Queries as the contract declares them, validated before a handler runs (operations.ts). */
interface VersionQuery {
  version?: string;
}

// GET /families?version= <- taxonomy_families (in memory)
function families(req: Request, res: Response): void {
  const v = resolveVersion(req.store, (req.query as VersionQuery).version);
  sendJson(req, res, req.store.doc('taxonomy_families', v.msl)!, v.scope);
}

interface HierarchyQuery extends VersionQuery {
  depth?: number;
}

// GET /hierarchy?version=&depth= <- taxonomy_hierarchy, one keyed query. The trees stay in the database: they
// are 132 documents of up to 1.2 MB (32 MB in all), asked for rarely, and a query costs little next to
// sending one. A cut at or below the tree's own depth is stored once, as 'all'.
async function hierarchy(req: Request, res: Response): Promise<void> {
  const q = req.query as HierarchyQuery;
  const v = resolveVersion(req.store, q.version);
  const [tree] = await req.store.query<{ doc: string }>(`
    SELECT doc FROM main.taxonomy_hierarchy WHERE msl = $1 AND depth_key IN ($2, 'all')
    ORDER BY depth_key = 'all' LIMIT 1`, [v.msl, String(q.depth ?? 'all')]);
  sendJson(req, res, Buffer.from(tree!.doc), v.scope);
}

/** The body as the contract declares it, validated before the handler runs. */
interface ValidateBody {
  scientific_name: string;
  taxonomy?: Partial<Record<ClassificationRank, string | null>>;
}

interface FieldCheck {
  given: string;
  valid: boolean;
  expected: string | null;
  message: string;
}

/** What is wrong with a value given for a rank on its own: unknown, former, or a taxon of another rank. */
function describeTaxon(taxon: TaxonDoc | undefined, given: string, rank: ClassificationRank): string | null {
  if (!taxon) return `'${given}' is not a taxon name in any release`;
  if (!taxon.current) return taxon.fate?.summary ?? `${taxon.name} was last listed in ${taxon.last_version}`;
  if (taxon.rank !== rank) return `'${taxon.name}' is a ${taxon.rank}, not a ${rank}`;
  return null;
}

const same = (a: string | null | undefined, b: string) => a?.toLowerCase() === b.trim().toLowerCase();

/**
 * One given rank checked against the species' own (when the name resolved to a species of the latest release).
 * For a name the latest release does not know, the value can only be checked on its own (a current taxon of
 * that rank) and against the higher ranks given with it: a genus not in the family given is wrong.
 */
function checkRank(store: Store, rank: ClassificationRank, given: string, species: SpeciesA | null, ranks: Partial<Record<ClassificationRank, string | null>>): FieldCheck {
  const taxon = lookupTaxon(store, given);
  const wrong = describeTaxon(taxon, given, rank);
  if (species) {
    const expected = species.taxonomy[rank];
    if (same(expected, given)) return { given, valid: true, expected, message: expected === given ? 'correct' : `correct (ICTV writes '${expected}')` };
    const should = expected === null ? `'${species.scientific_name}' has no ${rank}` : `the ${rank} of '${species.scientific_name}' is '${expected}'`;
    // a real taxon of that rank in the wrong place: say where it is
    const family = taxon?.classification.family;
    const where = wrong ?? (CLASSIFICATION_RANKS.indexOf(rank) > CLASSIFICATION_RANKS.indexOf('family') && family ? `'${taxon!.name}' is in family '${family}'` : null);
    return { given, valid: false, expected, message: `${should}, not '${given}'${where ? ` (${where})` : ''}` };
  }
  if (wrong) return { given, valid: false, expected: null, message: wrong };
  const placed = taxon!;
  for (const higher of CLASSIFICATION_RANKS.slice(0, CLASSIFICATION_RANKS.indexOf(rank))) {
    const want = ranks[higher];
    if (want && !same(placed.classification[higher], want)) {
      const actual = placed.classification[higher];
      return { given, valid: false, expected: null, message: `${rank} '${placed.name}' is ${actual ? `in ${higher} '${actual}'` : `in no ${higher}`}, not in '${want}'` };
    }
  }
  return { given, valid: true, expected: placed.name, message: `${rank} '${placed.name}' exists in the latest release` };
}

type NameCheck = FieldCheck & { status: NameStatus | 'abolished' | 'merged' | 'split' | 'not_a_species' | 'unknown'; renamed_in: string | null };

/** species: r's document, parsed (by validate, which reads its ranks too). */
function checkName(store: Store, given: string, r: Found, species: SpeciesA | null, v: ResolvedVersion): NameCheck {
  if ('species' in r) {
    const { name_status: status, renamed_in, matched_name } = r.match;
    const current = species!.scientific_name;
    const message = status === 'current' ? (current === given ? 'correct' : `correct (ICTV writes '${current}')`)
      : status === 'former' ? `'${matched_name}' is a former name; the species has been '${current}' since ${renamed_in ?? v.version}`
        : status === 'identifier' ? `'${given}' is an identifier of species '${current}', not a species name`
          : `'${matched_name}' is ${status === 'virus_name' ? 'the name of a virus' : 'the abbreviation of a virus name'} of species '${current}', not a species name`;
    return { given, valid: status === 'current', expected: current, message, status, renamed_in };
  }
  if ('gone' in r) {
    const { change, current_names, detail } = r.gone.fate;
    return { given, valid: false, expected: current_names.length === 1 ? current_names[0]! : null, message: detail,
      status: change as NameCheck['status'], renamed_in: null };
  }
  return { given, valid: false, expected: null, message: unknownNameError(store, given, r.unknown).message, status: 'unknown', renamed_in: null };
}

// POST /validate <- the resolver, taxonomy_species, taxonomy_taxon (in memory)
async function validate(req: Request, res: Response): Promise<void> {
  const body = req.body as ValidateBody;
  const v = latest(req.store);
  const ranks = body.taxonomy ?? {};
  const r = await resolveSpecies(req.store, body.scientific_name);
  const species = 'species' in r ? JSON.parse(r.species.toString()) as SpeciesA : null;
  const name = checkName(req.store, body.scientific_name, r, species, v);
  const taxonomy: Partial<Record<ClassificationRank, FieldCheck>> = {};
  for (const rank of CLASSIFICATION_RANKS) {
    const value = ranks[rank];
    if (typeof value === 'string') taxonomy[rank] = checkRank(req.store, rank, value, species, ranks);
  }
  const errors = [name, ...Object.values(taxonomy)].filter((c) => !c.valid).map((c) => c.message);
  // a check of the client's own input: nothing to cache
  sendUncached(req, res, {
    valid: errors.length === 0,
    msl_version: v.version,
    msl_year: v.year,
    scientific_name: name,
    taxonomy,
    errors,
    species,
    suggestions: 'unknown' in r ? r.unknown : [],
  });
}

export function taxonomyRouter(): Router {
  const router = Router();
  router.get('/species/:scientific_name', species);
  router.get('/family/:family_name', family);
  router.get('/families', families);
  router.get('/hierarchy', hierarchy);
  router.post('/validate', validate);
  return router;
}
