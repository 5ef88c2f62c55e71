// POST /api/v1/citation: how to cite a species or a taxon of a given release, as text, BibTeX or RIS.
// The release is cited as ICTV's Master Species List, with the Archives of Virology article that reported
// its changes where one is on record (data/citations.json), else ICTV's database article.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Router, type Request, type Response } from 'express';
import { projectRoot } from '../shared/project-root.js';
import { HttpError } from '../read/errors.js';
import { RANKS } from '../read/lineages.js';
import { resolveVersion } from '../read/releases.js';
import { sendUncached } from '../http/send-answer.js';

/** The body as the contract declares it (exactly one subject), validated and defaulted before the handler runs. */
interface Body {
  species_name?: string;
  taxonomic_group?: { rank: (typeof RANKS)[number]; name: string };
  version?: string;
  format: 'standard' | 'bibtex' | 'ris';
}

interface Article {
  authors: string[];
  title: string;
  journal: string;
  year: number;
  volume: string;
  issue?: string;
  pages: string;
  doi: string;
}

interface Citations {
  database: Article;
  releases: Record<string, Article>;
}

let citations: Citations | null = null;
const loadCitations = (): Citations =>
  (citations ??= JSON.parse(readFileSync(join(projectRoot(), 'data', 'citations.json'), 'utf8')) as Citations);

const ICTV = 'International Committee on Taxonomy of Viruses (ICTV)';
const MSL_URL = 'https://ictv.global/msl';

async function citation(req: Request, res: Response): Promise<void> {
  const body = req.body as Body;
  const v = resolveVersion(req.store, body.version);
  let subject: { type: 'species' | 'taxonomic_group'; rank: string; name: string };
  if (body.species_name !== undefined) {
    const doc = req.store.docJson<{ scientific_name: string }>('species_doc', v.msl, body.species_name.toLowerCase());
    if (!doc) throw new HttpError(404, `species '${body.species_name}' not found in ${v.version}`);
    subject = { type: 'species', rank: 'species', name: doc.scientific_name };
  } else {
    const g = body.taxonomic_group!;
    const [row] = await req.store.query<{ name: string }>(
      'SELECT name FROM src.taxa WHERE msl = $1 AND rank = $2 AND lower(name) = lower($3) LIMIT 1', [v.msl, g.rank, g.name]);
    if (!row) throw new HttpError(404, `${g.rank} '${g.name}' not found in ${v.version}`);
    subject = { type: 'taxonomic_group', rank: g.rank, name: row.name };
  }

  const { database, releases } = loadCitations();
  const article = releases[v.version] ?? null;
  const text = render(body.format, subject, v.version, v.year, article ?? database, article !== null);
  sendUncached(req, res, {
    citation: text, format: body.format, version: v.version, year: v.year, subject,
    article: article ? { ...article, url: `https://doi.org/${article.doi}` } : null,
    database_article: { ...database, url: `https://doi.org/${database.doi}` },
    licence: 'ICTV data are licensed under CC BY 4.0; attribute the International Committee on Taxonomy of Viruses (ICTV).',
  });
}

function render(format: 'standard' | 'bibtex' | 'ris', s: { rank: string; name: string }, version: string, year: number, a: Article, isReleaseArticle: boolean): string {
  const ref = `${a.authors.join(', ')} (${a.year}) ${a.title}. ${a.journal} ${a.volume}${a.issue ? `(${a.issue})` : ''}:${a.pages}. https://doi.org/${a.doi}`;
  const key = `ictv_${version.toLowerCase()}_${s.name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`;
  switch (format) {
    case 'standard':
      return `${ICTV}. ${s.name} (${s.rank}). Master Species List ${version} (${year}). ${MSL_URL}. ${isReleaseArticle ? 'Changes reported in' : 'See'}: ${ref}.`;
    case 'bibtex':
      return [
        `@misc{${key},`,
        `  author = {{International Committee on Taxonomy of Viruses (ICTV)}},`,
        `  title = {{${s.name}} (${s.rank}), {ICTV} Master Species List ${version}},`,
        `  year = {${year}},`,
        `  howpublished = {\\url{${MSL_URL}}},`,
        `  note = {${isReleaseArticle ? 'Changes reported in' : 'See'} doi:${a.doi}}`,
        '}',
        '',
        `@article{${key}_article,`,
        `  author = {${a.authors.filter((x) => x !== 'et al.').join(' and ')}${a.authors.includes('et al.') ? ' and others' : ''}},`,
        `  title = {${a.title}},`,
        `  journal = {${a.journal}},`,
        `  year = {${a.year}},`,
        `  volume = {${a.volume}},`,
        ...(a.issue ? [`  number = {${a.issue}},`] : []),
        `  pages = {${a.pages.replace('-', '--')}},`,
        `  doi = {${a.doi}}`,
        '}',
      ].join('\n');
    case 'ris':
      return [
        'TY  - DATA',
        `AU  - ${ICTV}`,
        `TI  - ${s.name} (${s.rank}), ICTV Master Species List ${version}`,
        `PY  - ${year}`,
        `UR  - ${MSL_URL}`,
        `N1  - ${isReleaseArticle ? 'Changes reported in' : 'See'} doi:${a.doi}`,
        'ER  - ',
        'TY  - JOUR',
        ...a.authors.filter((x) => x !== 'et al.').map((x) => `AU  - ${x}`),
        `TI  - ${a.title}`,
        `JO  - ${a.journal}`,
        `PY  - ${a.year}`,
        `VL  - ${a.volume}`,
        ...(a.issue ? [`IS  - ${a.issue}`] : []),
        `SP  - ${a.pages.split('-')[0]}`,
        `EP  - ${a.pages.split('-')[1] ?? ''}`,
        `DO  - ${a.doi}`,
        'ER  - ',
      ].join('\n');
  }
}

export function citationRouter(): Router {
  return Router().post('/citation', citation);
}
