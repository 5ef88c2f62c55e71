// The contract as a document: it lints clean as YAML and as OpenAPI 3.1, holds no stray keys, describes
// every tag, and every response of every operation carries a real example, the answer of the real data set
// to the request named in the example's summary.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig, lint } from '@redocly/openapi-core';
import { expect } from 'chai';
import { isDeepStrictEqual } from 'node:util';
import { parseDocument, parse as parseYaml, stringify } from 'yaml';
import { projectRoot } from '../src/shared/project-root.js';
import { EXAMPLES_FILE, realExamples, type Examples } from '../src/cli/contract-examples.js';
import { openApiDocument } from '../src/contract/openapi.js';
import { testApp } from './support/http.js';

const YAML_FILE = join(projectRoot(), 'src', 'contract', 'openapi.yaml');
type Node = Record<string, unknown>;

/** Keys whose value may be null in an OpenAPI document: values, never structure. */
const VALUE_KEYS = new Set(['example', 'examples', 'default', 'const', 'enum', 'value']);

function strayKeys(node: unknown, path: string, out: string[]): string[] {
  if (!node || typeof node !== 'object') return out;
  for (const [k, v] of Object.entries(node)) {
    if (VALUE_KEYS.has(k)) continue;
    if (v === null) out.push(`${path}/${k}`);
    strayKeys(v, `${path}/${k}`, out);
  }
  return out;
}

/** The values a generated example must never be: what a tool shows when it has none. */
const PLACEHOLDER = /^(string|text|example|value|\.\.\.|todo|tbd|lorem.*|foo|bar)$/i;

function placeholders(node: unknown, path: string, out: string[], inExample = false): string[] {
  if (inExample && typeof node === 'string' && PLACEHOLDER.test(node.trim())) out.push(`${path}: '${node}'`);
  if (node && typeof node === 'object') {
    // an example's values, not a property that happens to be named `examples` (under `properties`)
    const isProperties = path.endsWith('/properties');
    for (const [k, v] of Object.entries(node)) placeholders(v, `${path}/${k}`, out, inExample || (!isProperties && (k === 'example' || k === 'examples')));
  }
  return out;
}

/**
 * What differs from run to run (the build id, uptime, cache counters, a float's last digits, the samples of
 * the metrics, whose names and help stay); the rest is the data's.
 */
const VOLATILE = new Set(['build_id', 'uptime_s', 'cache']);
const withoutVolatile = (x: unknown): unknown => JSON.parse(JSON.stringify(x ?? null, (k, v: unknown) => (VOLATILE.has(k) ? 'VOLATILE'
  : typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(12))
    : typeof v === 'string' && v.startsWith('# HELP ') ? v.split('\n').filter((l) => l.startsWith('#')).join('\n') : v)));

describe('the contract document', function () {
  const served = openApiDocument() as Node & { paths: Record<string, Record<string, Node>>; tags: Array<{ name: string; description?: string }> };

  it('parses as YAML 1.2 with no error or warning, and reads the same after a round trip', () => {
    // eemeli/yaml is the YAML 1.2 reference implementation for JavaScript (the project's parser already): it
    // reports duplicate keys, bad indentation and tags as errors or warnings rather than guessing.
    const text = readFileSync(YAML_FILE, 'utf8');
    const document = parseDocument(text, { prettyErrors: true, strict: true, uniqueKeys: true });
    expect(document.errors.map(String)).to.deep.equal([]);
    expect(document.warnings.map(String)).to.deep.equal([]);
    expect(parseYaml(stringify(document.toJS()))).to.deep.equal(document.toJS());
  });

  it('is valid OpenAPI 3.1 with zero problems, examples included, as the YAML and as served', async () => {
    // Redocly's openapi-core: a maintained OpenAPI 3.1 validator and linter (the engine of Redocly CLI). Its
    // `spec` rules check the structure of 3.1 (an unexpected key in an object of the spec is a problem), and
    // the rules below check every example against its schema, tags described and defined, unique ids.
    const config = await createConfig({
      extends: ['spec'],
      rules: {
        'no-invalid-media-type-examples': { severity: 'error', allowAdditionalProperties: false },
        'no-invalid-parameter-examples': 'error',
        'no-invalid-schema-examples': 'error',
        'no-unresolved-refs': 'error',
        'operation-operationId-unique': 'error',
        'operation-tag-defined': 'error',
        'tag-description': 'error',
        'path-parameters-defined': 'error',
        'no-identical-paths': 'error',
        'no-ambiguous-paths': 'error',
        'no-server-trailing-slash': 'error',
        'operation-2xx-response': 'error',
        // a preflight (OPTIONS) has no failure of its own; every other operation declares its 4xx (below)
        'operation-4xx-response': 'off',
      },
    });
    const dir = mkdtempSync(join(tmpdir(), 'vtqs-contract-'));
    try {
      writeFileSync(join(dir, 'served.json'), JSON.stringify(served));
      for (const ref of [YAML_FILE, join(dir, 'served.json')]) {
        const problems = await lint({ ref, config });
        expect(problems.map((p) => `${ref}: ${p.ruleId} ${p.message} at ${p.location[0]?.pointer ?? ''}`)).to.deep.equal([]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('holds no stray keys (a key with no value is an unquoted comma or colon in the YAML)', () => {
    expect(strayKeys(parseYaml(readFileSync(YAML_FILE, 'utf8')), '', [])).to.deep.equal([]);
  });

  it('lets no parameter hold reserved characters raw: a value with & = # in it would be read as another parameter', () => {
    const raw: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      if ((node as { allowReserved?: unknown }).allowReserved !== undefined) raw.push(at);
      for (const [k, v] of Object.entries(node)) walk(v, `${at}/${k}`);
    };
    walk(openApiDocument(), '#');
    expect(raw).to.deep.equal([]);
  });

  it('declares a 4xx for every operation but the preflights', () => {
    for (const [template, item] of Object.entries(served.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (method === 'options' || !op.responses) continue;
        expect(Object.keys(op.responses as object).some((s) => s.startsWith('4')), `${method} ${template}`).to.equal(true);
      }
    }
  });

  it('describes every tag an operation uses', () => {
    const used = new Set(Object.values(served.paths).flatMap((item) => Object.values(item).flatMap((op) => (op.tags as string[] | undefined) ?? [])));
    for (const tag of used) expect(served.tags.find((t) => t.name === tag)?.description, tag).to.be.a('string').and.have.length.above(20);
  });

  it('gives every response of every operation a real example, and no placeholder anywhere', () => {
    const missing: string[] = [];
    for (const [template, item] of Object.entries(served.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Node>)) {
          for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, Node>)) {
            // A binary file (Parquet) has no example a JSON document can hold: its schema says what it is.
            const schema = media.schema as Node | undefined;
            if (schema?.format === 'binary' || (typeof schema?.contentMediaType === 'string' && !/json|text|csv/.test(schema.contentMediaType))) continue;
            const real = (media.examples as Record<string, { summary?: string; value?: unknown }> | undefined)?.real;
            if (!real?.summary || real.value === undefined) missing.push(`${method.toUpperCase()} ${template} ${status} ${type}`);
          }
        }
      }
    }
    expect(missing).to.deep.equal([]);
    expect(placeholders(served, '', [])).to.deep.equal([]);
  });

  it('holds each example equal to the real answer to its request (run `npm run examples` after a change)', async () => {
    const { store } = await testApp();
    const { examples, mismatches } = await realExamples(store);
    expect(mismatches).to.deep.equal([]);
    const committed = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Examples;
    const differing = Object.keys({ ...examples, ...committed })
      .filter((key) => !isDeepStrictEqual(withoutVolatile(examples[key]), withoutVolatile(committed[key])));
    expect(differing).to.deep.equal([]);
  });
});
