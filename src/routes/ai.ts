// /ai: questions in plain English (POST /query), classification of an organism by name or by metadata
// (POST /classify), family stability (GET /stability/:family_name), and what the group can do (features,
// health, examples). The language layer is deterministic (src/ai/parse.ts); every answer is read from the
// read models and names them in `sources`.
import { Router, type Request } from 'express';
import { HttpError } from '../read/errors.js';
import { sendJson, sendUncached } from '../http/send-answer.js';
import type { Store } from '../store/store.js';
import { latest, releases } from '../read/releases.js';
import { askQuestion, type QueryResult } from '../ai/query.js';
import { AnswerCache } from '../ai/cache.js';
import { candidates, DEFAULT_PARAMS, evaluationOf, modelOf, type Features } from '../ai/classify.js';
import { EXAMPLE_QUESTIONS, INTENT_GUIDE } from '../ai/examples.js';
import { INTENTS, normaliseQuestion } from '../ai/parse.js';
import { identified } from '../ai/identify.js';
import { resolveName } from '../read/resolve.js';
import { unknownName } from '../read/suggest.js';
import { stabilityReport, STABILITY_FORMULA } from '../ai/stability.js';
import { formatGenomeSize, parseGenomeSize, parseGenomeType, parseHost } from '../ai/vocabulary.js';

// Bodies as the contract declares them, validated and defaulted before a handler runs.
interface QueryBody {
  query: string;
  use_cache: boolean;
}

interface ClassifyBody {
  organism_name?: string;
  metadata?: { genome_type?: string; genome_size?: string | number; host?: string };
}

/** The answers of POST /query, kept by build id and question: one per app. */
export type AiAnswers = AnswerCache<QueryResult>;

export const aiAnswers = (): AiAnswers => new AnswerCache<QueryResult>(1000);

// POST /query <- parse.ts, then one answer function per reading (ai/answers/) over in-memory documents
async function queryAnswer(store: Store, cache: AiAnswers, body: QueryBody): Promise<object> {
  const key = normaliseQuestion(body.query);
  let result = body.use_cache ? cache.get(store.buildId, key) : undefined;
  const cached = result !== undefined;
  if (!result) {
    result = await askQuestion(store, body.query);
    cache.set(store.buildId, key, result);
  }
  return { query: body.query, ...result, cached };
}

export function aiRouter(cache: AiAnswers): Router {
  const router = Router();
  const started = Date.now();

  router.post('/query', async (req, res) => {
    sendUncached(req, res, await queryAnswer(req.store, cache, req.body as QueryBody));
  });

  // POST /classify: a known name -> its species' classification; else metadata -> the likeliest families
  router.post('/classify', async (req, res) => {
    const body = req.body as ClassifyBody;
    const name = body.organism_name?.trim() ?? '';
    const meta = body.metadata ?? {};
    const resolution = name ? await resolveName(req.store, name, null, latest(req.store)) : null;
    const known = resolution ? identified(req.store, resolution, latest(req.store)) : null;
    if (known) {
      sendUncached(req, res, { method: 'name', organism_name: name, ...known, metadata_check: metadataCheck(meta, known) });
      return;
    }
    // a name of a higher taxon says too little to stand for an organism: its metadata decides, as for an unknown name
    const rank = resolution?.rank ?? 'taxon';
    const taxon = resolution && resolution.status !== 'unknown'
      ? `'${name}' is ${/^[aeiou]/.test(rank) ? 'an' : 'a'} ${rank} name, not a species, virus name or identifier` : null;
    const features = readMetadata(meta);
    const given = features.compositions.length > 0 || features.hosts.length > 0 || features.sizeBp !== null;
    if (!given) {
      // The contract lets no request through without a name or a metadata field; a taxon's name alone
      // classifies nothing (404: no classification, as for an unknown name).
      if (taxon || !name) throw new HttpError(404, `nothing to classify: ${taxon ?? 'no name'}, and no metadata was given to classify it by`);
      throw await unknownName(req.store, name);
    }
    const model = await modelOf(req.store);
    const top = candidates(model, features, 5);
    const suggestions = resolution?.suggestions ?? [];
    sendUncached(req, res, {
      method: 'metadata',
      organism_name: name || null,
      name_note: name ? `${taxon ?? `'${name}' is not a known species, virus name, abbreviation or identifier`}, so the metadata was used` : null,
      suggestions,
      version: latest(req.store).version,
      features: {
        genome_type: meta.genome_type === undefined ? null : { given: meta.genome_type, compositions: features.compositions },
        host: meta.host === undefined ? null : { given: meta.host, categories: features.hosts },
        genome_size: meta.genome_size === undefined ? null : { given: String(meta.genome_size), bp: features.sizeBp, text: features.sizeBp ? formatGenomeSize(features.sizeBp) : null },
      },
      candidates: top,
      note: `Metadata narrows the candidates to families of ${latest(req.store).version}; many species share the same genome type, host and length, so it cannot identify a species. Scores are the model's probabilities over all ${model.families.length} families.`,
    });
  });

  // GET /stability/:family_name <- family_stability, one query
  router.get('/stability/:family_name', async (req, res) => {
    const name = String(req.params.family_name).replaceAll('+', ' ').trim();
    sendJson(req, res, await stabilityReport(req.store, name), 'latest');
  });

  router.get('/features', async (req, res) => {
    const evaluation = await evaluationOf(req.store);
    sendJson(req, res, features(req, evaluation), 'latest');
  });

  router.get('/health', async (req, res) => {
    const all = releases(req.store);
    sendUncached(req, res, {
      status: 'ok',
      build_id: req.store.buildId,
      releases_loaded: all.length,
      first_release: all[0]?.version ?? null,
      latest_release: all[all.length - 1]?.version ?? null,
      taxon_names_loaded: req.store.docCount('taxon_profile'),
      intents: INTENTS,
      cache: cache.stats(),
      uptime_s: Math.round((Date.now() - started) / 1000),
    });
  });

  router.get('/examples', (req, res) => {
    sendJson(req, res, { count: EXAMPLE_QUESTIONS.length, examples: EXAMPLE_QUESTIONS }, 'latest');
  });

  return router;
}

type Metadata = NonNullable<ClassifyBody['metadata']>;

/**
 * The metadata as model features. A value given but not understood answers no classification (404) naming
 * it, never one from the other values alone: a description is classified only when all of it was read.
 */
function readMetadata(meta: Metadata): Features {
  const compositions = meta.genome_type ? parseGenomeType(meta.genome_type) : [];
  if (meta.genome_type && compositions.length === 0) {
    throw new HttpError(404, `nothing classified: metadata.genome_type '${meta.genome_type}' is not a genome type; use e.g. dsDNA, ssDNA, dsRNA, ssRNA(+), ssRNA(-), ssRNA-RT, dsDNA-RT or words such as 'positive-sense RNA'`);
  }
  const hosts = meta.host ? parseHost(meta.host) : [];
  if (meta.host && hosts.length === 0) {
    throw new HttpError(404, `nothing classified: metadata.host '${meta.host}' names no host group; use e.g. bacteria, archaea, plants, fungi, invertebrates, vertebrates, protists or words such as 'human' or 'mosquito'`);
  }
  const sizeBp = meta.genome_size === undefined ? null : typeof meta.genome_size === 'number' ? parseGenomeSize(String(meta.genome_size)) : parseGenomeSize(meta.genome_size);
  if (meta.genome_size !== undefined && sizeBp === null) {
    throw new HttpError(404, `nothing classified: metadata.genome_size '${meta.genome_size}' is not a genome length; use e.g. '48.5 kb', '48500' or '1.2 Mb' (100 bp to 10 Mb)`);
  }
  return { compositions, hosts, sizeBp };
}

/** For a known name given with metadata: does the metadata agree with the species' own record? */
function metadataCheck(meta: Metadata, known: NonNullable<ReturnType<typeof identified>>): Record<string, unknown> | null {
  if (!meta.genome_type && !meta.host && meta.genome_size === undefined) return null;
  const out: Record<string, unknown> = {};
  if (meta.genome_type) {
    const wanted = parseGenomeType(meta.genome_type);
    out.genome_type = { given: meta.genome_type, species: known.genome.type, agrees: known.genome.type ? wanted.includes(known.genome.type) : null };
  }
  if (meta.host) {
    const wanted = parseHost(meta.host);
    out.host = { given: meta.host, species: known.hosts, agrees: known.hosts.length ? known.hosts.some((h) => wanted.includes(h)) : null };
  }
  if (meta.genome_size !== undefined) {
    const bp = parseGenomeSize(String(meta.genome_size));
    const own = known.genome.size_bp;
    // within a quarter of the exemplar's length: a partial or segmented genome is often reported a bit differently
    out.genome_size = { given: String(meta.genome_size), species: known.genome.size, agrees: bp && own ? Math.abs(bp - own) / own <= 0.25 : null };
  }
  return out;
}

function features(req: Request, evaluation: Awaited<ReturnType<typeof evaluationOf>>) {
  const all = releases(req.store);
  return {
    query: {
      method: 'deterministic parsing: release patterns, name lookup over every species name, VMR virus name and abbreviation ever used, higher-taxon lookup, everyday group names (src/ai/group-names.yaml), host, genome, change and rank vocabularies, then ordered intent rules; no generative model',
      intents: Object.entries(INTENT_GUIDE).map(([intent, g]) => ({ intent, ...g })),
      releases: `${all[0]?.version}..${all[all.length - 1]?.version}, written MSL39, msl 39, release 39, a year (2019) or label (2018b), a place (the tenth release), latest/current/now, or two at once (MSL30 (2015)); two that disagree are declined, a year of several releases asked back`,
      cache: 'LRU of 1,000 answers keyed by build id and normalised question; use_cache: false recomputes',
    },
    classify: {
      by_name: 'a species name of any release, a VMR virus name or abbreviation gives the species and its full classification in the latest release (method "name")',
      by_metadata: 'otherwise genome_type, host and genome_size rank the families of the latest release with a naive Bayes model fitted on family_profile (method "metadata")',
      features: ['genome composition (exact, or the same Baltimore group at a lower weight)', 'host source category', 'genome length against each family\'s exemplar lengths (log-normal)'],
      params: DEFAULT_PARAMS,
      leave_one_out: { species: evaluation.evaluated, families: evaluation.families, top1_accuracy: Number(evaluation.top1.toFixed(4)), top5_accuracy: Number(evaluation.top5.toFixed(4)) },
    },
    stability: { formula: STABILITY_FORMULA },
    endpoints: ['POST /ai/query', 'POST /ai/classify', 'GET /ai/stability/{family_name}', 'GET /ai/features', 'GET /ai/health', 'GET /ai/examples'],
  };
}

