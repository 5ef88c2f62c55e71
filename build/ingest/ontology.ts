// Reader for the EVORA ICTV ontology `ictv_<year>.owl.ttl` (MSL1-MSL38). Its value to the build is
// the stable ictv_id of every taxon and the "replaced by" links into the next release, which bridge
// the releases where ICTV renumbered its nodes.
//
// Synchronous on purpose: n3's Parser without a callback parses a string in one pass (about 0.1-0.3 s
// for the largest, 3 MB, file), and a synchronous reader keeps the build stages simple.
import { readFileSync } from 'node:fs';
import { Parser, type Quad } from 'n3';
import { InputError, type OntologyTaxon } from './types.js';

const TAXON_IRI = 'https://ictv.global/taxonomy/taxondetails?taxnode_id=';
const ICTV_ID = 'http://ictv.global/ictv_id';
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const SUBCLASS_OF = 'http://www.w3.org/2000/01/rdf-schema#subClassOf';
const REPLACED_BY = 'http://purl.obolibrary.org/obo/IAO_0100001';
const OBSOLESCENCE = 'http://purl.obolibrary.org/obo/IAO_0000225';
const OBSOLESCENCE_REASONS: ReadonlyMap<string, 'merged' | 'split'> = new Map([
  ['http://purl.obolibrary.org/obo/IAO_0000227', 'merged'],
  ['http://purl.obolibrary.org/obo/IAO_0000229', 'split'],
]);
const SYNONYM = 'http://www.geneontology.org/formats/oboInOwl#hasExactSynonym';

/** Everything said about one subject, kept as written so that repeated or conflicting statements can be reported. */
interface Statements {
  ictvIds: string[];
  labels: string[];
  superClasses: string[];
  replacedBy: string[];
  obsolescence: string[];
  synonyms: string[];
}

/** The taxnode_id in a taxon IRI, or null for any other IRI (molecule classes, the ontology itself). */
function taxonId(iri: string): number | null {
  if (!iri.startsWith(TAXON_IRI)) return null;
  const id = iri.slice(TAXON_IRI.length);
  return /^\d+$/.test(id) ? Number(id) : null;
}

function parseTurtle(path: string): Quad[] {
  const text = readFileSync(path, 'utf8');
  try {
    return new Parser({ format: 'text/turtle' }).parse(text);
  } catch (e) {
    // n3 reports the line in e.context.line (and in the message); lift it into the InputError.
    const line = (e as { context?: { line?: unknown } }).context?.line;
    const message = e instanceof Error ? e.message : String(e);
    throw new InputError(`Turtle syntax error: ${message}`, path, typeof line === 'number' ? { row: line } : {});
  }
}

function single(values: string[], what: string, subject: string, path: string): string {
  if (values.length !== 1) {
    throw new InputError(`<${subject}> has ${values.length} ${what} values${values.length ? ` (${values.join(', ')})` : ''}, expected one`, path);
  }
  return values[0];
}

export function readOntology(path: string): OntologyTaxon[] {
  const bySubject = new Map<string, Statements>();
  for (const quad of parseTurtle(path)) {
    const subject = quad.subject.value;
    let s = bySubject.get(subject);
    if (s === undefined) {
      s = { ictvIds: [], labels: [], superClasses: [], replacedBy: [], obsolescence: [], synonyms: [] };
      bySubject.set(subject, s);
    }
    const object = quad.object.value;
    switch (quad.predicate.value) {
      case ICTV_ID: s.ictvIds.push(object); break;
      case LABEL: s.labels.push(object); break;
      case SUBCLASS_OF: s.superClasses.push(object); break;
      case REPLACED_BY: s.replacedBy.push(object); break;
      case OBSOLESCENCE: s.obsolescence.push(object); break;
      case SYNONYM: s.synonyms.push(object); break;
    }
  }

  const taxa: OntologyTaxon[] = [];
  for (const [subject, s] of bySubject) {
    // Only taxa carry an ictv_id; the molecule-type vocabulary and the ontology header do not.
    if (s.ictvIds.length === 0) continue;
    const idText = single(s.ictvIds, 'ictv_id', subject, path);
    // The IRI is built from the ictv_id; a disagreement would make parent links point at the wrong taxon.
    if (!/^\d+$/.test(idText) || taxonId(subject) !== Number(idText)) {
      throw new InputError(`<${subject}> has ictv_id "${idText}", which does not match its IRI`, path);
    }
    // subClassOf also points into the molecule vocabulary on some classes; only a taxon IRI is a parent.
    const parents = s.superClasses.filter((iri) => taxonId(iri) !== null);
    if (parents.length > 1) throw new InputError(`<${subject}> has ${parents.length} parent taxa (${parents.join(', ')})`, path);
    const replacedBy = s.replacedBy.map((iri) => {
      const id = taxonId(iri);
      if (id === null) throw new InputError(`<${subject}> is replaced by <${iri}>, which is not a taxon IRI`, path);
      return id;
    });
    const reasons = s.obsolescence.map((iri) => {
      const reason = OBSOLESCENCE_REASONS.get(iri);
      if (reason === undefined) throw new InputError(`<${subject}> has obsolescence reason <${iri}>, expected IAO_0000227 (merged) or IAO_0000229 (split)`, path);
      return reason;
    });
    if (new Set(reasons).size > 1) throw new InputError(`<${subject}> is marked both merged and split`, path);
    // Names are joined on text with the other sources, where surrounding whitespace is dropped too;
    // some abbreviations carry a trailing space ("AgaMooV ").
    const name = single(s.labels, 'rdfs:label', subject, path).trim();
    if (name === '') throw new InputError(`<${subject}> has an empty rdfs:label`, path);
    taxa.push({
      ictvId: Number(idText),
      name,
      parentIctvId: parents.length ? taxonId(parents[0]) : null,
      replacedBy,
      obsolescence: reasons[0] ?? null,
      synonyms: s.synonyms.map((synonym) => synonym.trim()).filter((synonym) => synonym !== ''),
    });
  }
  return taxa;
}
