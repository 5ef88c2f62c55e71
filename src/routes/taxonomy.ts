// /taxonomy: the latest release's species, families and tree, and a checker for a species' classification.
// Every answer is a pre-rendered document (taxonomy_* projections), read from memory except the trees; only
// the "did you mean" suggestions of an unknown name are a search.
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { HttpError } from '../errors.js';
import { sendJson } from '../respond.js';
import type { Store } from '../store.js';
import { CLASSIFICATION_RANKS, type ClassificationRank } from '../read/lineages.js';
import { nameParam, normaliseName } from '../read/names.js';
import { latest, releaseSpan, resolveVersion, type ResolvedVersion } from '../read/releases.js';
import { familyNotFound, lookupTaxon, type TaxonDoc } from '../read/taxa.js';

type Rank = ClassificationRank;
const RANKS = CLASSIFICATION_RANKS;

type NameStatus = 'current' | 'former' | 'virus_name' | 'abbreviation';

/** taxonomy_name: what a normalised name leads to (see projections/taxonomy_name.sql). */
type NameDoc =
  | { found: true; species_key: string; matched_name: string; name_status: NameStatus; renamed_in: string | null; also_matches: string[] }
  | { found: false; matched_name: string; name_status: NameStatus; fate: { change: string; version: string; into: string[]; current_names: string[]; detail: string } };

/** taxonomy_species: species record A (interface spec 2.1) of a species of the latest release. */
interface SpeciesA {
  scientific_name: string;
  taxonomy: Record<Rank, string | null>;
  [field: string]: unknown;
}

/** The normal form of a name given by a client; one without letters or digits can match nothing. */
function nameKey(name: string, what: string, status = 400): string {
  const key = normaliseName(name);
  if (key === '') throw new HttpError(status, `${what} '${name}' has no letters or digits`, status === 422 ? 'ValidationError' : 'BadRequest');
  return key;
}

/** Up to 3 known names (of species of the latest release) close to a name that matched nothing. */
async function suggestNames(store: Store, key: string): Promise<string[]> {
  const rows = await store.query<{ name: string }>(`
    SELECT name FROM (
      SELECT name, max(jaro_winkler_similarity(name_norm, $1)) AS score
      FROM main.name_index
      -- a typo rarely changes the first letter, or the length by more than 3
      WHERE current_name IS NOT NULL AND name_len BETWEEN length($1) - 3 AND length($1) + 3 AND left(name_norm, 1) = left($1, 1)
      GROUP BY name
      HAVING score >= 0.85)
    ORDER BY score DESC, name
    LIMIT 3`, [key]);
  return rows.map((r) => r.name);
}

interface Resolved {
  match: Extract<NameDoc, { found: true }>;
  species: SpeciesA;
}

/** A name as the latest release knows it: its species, how it is gone, or a 404 with suggestions. */
async function resolveSpecies(store: Store, name: string, keyStatus = 400): Promise<Resolved | { gone: Extract<NameDoc, { found: false }> } | { unknown: string[] }> {
  const key = nameKey(name, 'species name', keyStatus);
  const match = store.docJson<NameDoc>('taxonomy_name', key);
  if (!match) return { unknown: await suggestNames(store, key) };
  if (!match.found) return { gone: match };
  return { match, species: store.docJson<SpeciesA>('taxonomy_species', match.species_key)! };
}

// GET /species/:scientific_name <- taxonomy_name + taxonomy_species (in memory)
async function species(req: Request, res: Response): Promise<void> {
  const name = nameParam(req.params.scientific_name as string);
  const v = latest(req.store);
  const r = await resolveSpecies(req.store, name);
  if ('unknown' in r) {
    throw new HttpError(404, `species '${name}' not found in any release (${releaseSpan(req.store)})`, 'NotFound', { suggestions: r.unknown });
  }
  if ('gone' in r) {
    const { matched_name, name_status, fate } = r.gone;
    throw new HttpError(404, `'${name}' is not a species of ${v.version}: ${fate.detail}`, 'NotFound', { matched_name, name_status, fate });
  }
  const { matched_name, name_status, renamed_in, also_matches } = r.match;
  sendJson(req, res, { ...r.species, query: name, matched_name, name_status, renamed_in, also_matches }, 'latest');
}

// GET /family/:family_name <- taxonomy_family (in memory)
async function family(req: Request, res: Response): Promise<void> {
  const name = nameParam(req.params.family_name as string);
  const doc = req.store.doc('taxonomy_family', name.toLowerCase());
  if (!doc) throw await familyNotFound(req.store, name, latest(req.store));
  sendJson(req, res, doc, 'latest');
}

const VersionQuery = z.object({ version: z.string().optional() });

// GET /families?version= <- taxonomy_families (in memory)
function families(req: Request, res: Response): void {
  const v = resolveVersion(req.store, VersionQuery.parse(req.query).version);
  sendJson(req, res, req.store.doc('taxonomy_families', v.msl)!, v.scope);
}

const HierarchyQuery = VersionQuery.extend({ depth: z.coerce.number().int().min(1).max(15).optional() });

// GET /hierarchy?version=&depth= <- taxonomy_hierarchy, one keyed query. The trees stay in the database: they
// are 132 documents of up to 1.2 MB (32 MB in all), asked for rarely, and a query costs little next to
// sending one. A cut at or below the tree's own depth is stored once, as 'all'.
async function hierarchy(req: Request, res: Response): Promise<void> {
  const q = HierarchyQuery.parse(req.query);
  const v = resolveVersion(req.store, q.version);
  const [tree] = await req.store.query<{ doc: string }>(`
    SELECT doc FROM main.taxonomy_hierarchy WHERE msl = $1 AND depth_key IN ($2, 'all')
    ORDER BY depth_key = 'all' LIMIT 1`, [v.msl, String(q.depth ?? 'all')]);
  sendJson(req, res, Buffer.from(tree!.doc), v.scope);
}

const ValidateBody = z.object({
  scientific_name: z.string().min(1).max(500),
  taxonomy: z.partialRecord(z.enum(RANKS), z.string().max(200).nullable()).optional(),
});

interface FieldCheck {
  given: string;
  valid: boolean;
  expected: string | null;
  message: string;
}

/** What is wrong with a value given for a rank on its own: unknown, former, or a taxon of another rank. */
function describeTaxon(taxon: TaxonDoc | undefined, given: string, rank: Rank): string | null {
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
function checkRank(store: Store, rank: Rank, given: string, species: SpeciesA | null, ranks: Partial<Record<Rank, string | null>>): FieldCheck {
  const taxon = lookupTaxon(store, given);
  const wrong = describeTaxon(taxon, given, rank);
  if (species) {
    const expected = species.taxonomy[rank];
    if (same(expected, given)) return { given, valid: true, expected, message: expected === given ? 'correct' : `correct (ICTV writes '${expected}')` };
    const should = expected === null ? `'${species.scientific_name}' has no ${rank}` : `the ${rank} of '${species.scientific_name}' is '${expected}'`;
    // a real taxon of that rank in the wrong place: say where it is
    const family = taxon?.classification.family;
    const where = wrong ?? (RANKS.indexOf(rank) > RANKS.indexOf('family') && family ? `'${taxon!.name}' is in family '${family}'` : null);
    return { given, valid: false, expected, message: `${should}, not '${given}'${where ? ` (${where})` : ''}` };
  }
  if (wrong) return { given, valid: false, expected: null, message: wrong };
  const placed = taxon!;
  for (const higher of RANKS.slice(0, RANKS.indexOf(rank))) {
    const want = ranks[higher];
    if (want && !same(placed.classification[higher], want)) {
      const actual = placed.classification[higher];
      return { given, valid: false, expected: null, message: `${rank} '${placed.name}' is ${actual ? `in ${higher} '${actual}'` : `in no ${higher}`}, not in '${want}'` };
    }
  }
  return { given, valid: true, expected: placed.name, message: `${rank} '${placed.name}' exists in the latest release` };
}

type NameCheck = FieldCheck & { status: NameStatus | 'abolished' | 'merged' | 'split' | 'unknown'; renamed_in: string | null };

function checkName(store: Store, given: string, r: Awaited<ReturnType<typeof resolveSpecies>>, v: ResolvedVersion): NameCheck {
  if ('species' in r) {
    const { name_status: status, renamed_in, matched_name } = r.match;
    const current = r.species.scientific_name;
    const message = status === 'current' ? (current === given ? 'correct' : `correct (ICTV writes '${current}')`)
      : status === 'former' ? `'${matched_name}' is a former name; the species has been '${current}' since ${renamed_in ?? v.version}`
        : `'${matched_name}' is ${status === 'virus_name' ? 'the name of a virus' : 'the abbreviation of a virus name'} of species '${current}', not a species name`;
    return { given, valid: status === 'current', expected: current, message, status, renamed_in };
  }
  if ('gone' in r) {
    const { change, current_names, detail } = r.gone.fate;
    return { given, valid: false, expected: current_names.length === 1 ? current_names[0]! : null, message: detail,
      status: change as NameCheck['status'], renamed_in: null };
  }
  const hint = r.unknown.length > 0 ? `; did you mean ${r.unknown.map((s) => `'${s}'`).join(', ')}?` : '';
  return { given, valid: false, expected: null, message: `'${given}' is not the name of any species in ${releaseSpan(store)}${hint}`, status: 'unknown', renamed_in: null };
}

// POST /validate <- taxonomy_name, taxonomy_species, taxonomy_taxon (in memory)
async function validate(req: Request, res: Response): Promise<void> {
  const body = ValidateBody.parse(req.body);
  const v = latest(req.store);
  const ranks = body.taxonomy ?? {};
  const r = await resolveSpecies(req.store, body.scientific_name, 422);
  const species = 'species' in r ? r.species : null;
  const name = checkName(req.store, body.scientific_name, r, v);
  const taxonomy: Partial<Record<Rank, FieldCheck>> = {};
  for (const rank of RANKS) {
    const value = ranks[rank];
    if (typeof value === 'string') taxonomy[rank] = checkRank(req.store, rank, value, species, ranks);
  }
  const errors = [name, ...Object.values(taxonomy)].filter((c) => !c.valid).map((c) => c.message);
  // a check of the client's own input: nothing to cache
  res.set('Cache-Control', 'no-store').json({
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
