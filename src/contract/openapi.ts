// The API contract: the hand-written OpenAPI document src/contract/openapi.yaml, as an object. Parsing that YAML
// costs ~250 ms, a tenth of the start-up budget, so `npm run compile` also writes it as JSON beside the
// compiled code (run this module as a script); the JSON is used only while it is newer than the YAML.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { projectRoot } from '../shared/project-root.js';

const YAML_FILE = join(projectRoot(), 'src', 'contract', 'openapi.yaml');
/** The response examples taken from real answers (src/cli/contract-examples.ts writes them). */
const EXAMPLES_FILE = join(projectRoot(), 'src', 'contract', 'openapi-examples.json');
const JSON_FILE = join(projectRoot(), 'dist', 'src', 'contract', 'openapi.json');

type Document = Record<string, unknown>;

let cached: Document | null = null;

const readYaml = (): Document => withExamples(withPreflights(parseYaml(readFileSync(YAML_FILE, 'utf8')) as Document));

type Response = { $ref?: string; content?: Record<string, { example?: unknown; examples?: Record<string, unknown> }> };

/**
 * Every response gets its real example, by operation, status and media type. A response the YAML shares
 * between operations ($ref) becomes the operation's own copy, so each carries the answer to its own request.
 */
function withExamples(doc: Document): Document {
  if (!existsSync(EXAMPLES_FILE)) return doc;
  const examples = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Record<string, Record<string, Record<string, unknown>>>;
  const paths = doc.paths as Record<string, Record<string, { responses?: Record<string, Response> }>>;
  const lookup = (ref: string): Response => ref.slice(2).split('/').reduce((n: unknown, k) => (n as Record<string, unknown>)[k], doc) as Response;
  for (const [key, statuses] of Object.entries(examples)) {
    const [method, path] = key.split(' ') as [string, string];
    const responses = paths[path]?.[method.toLowerCase()]?.responses;
    if (!responses) continue;
    for (const [status, types] of Object.entries(statuses)) {
      const given = responses[status];
      if (!given) continue;
      const shared = given.$ref ? lookup(given.$ref) : given;
      const own: Response = { ...shared, content: { ...shared.content } };
      for (const [type, example] of Object.entries(types)) {
        const media = own.content![type];
        if (!media) continue;
        // the answer replaces any example written by hand
        const rest = { ...media };
        delete rest.example;
        own.content![type] = { ...rest, examples: { real: example } };
      }
      responses[status] = own;
    }
  }
  return doc;
}

type Operation = { operationId?: string; parameters?: Array<{ in?: string; name?: string; $ref?: string }> };

/**
 * Every path answers OPTIONS the same way (a CORS preflight: operations.ts), so its operation is declared
 * here once for each path rather than written out beside every operation of the YAML. Its path parameters
 * take any text but none (an empty one makes another path): a preflight is answered before anything is
 * validated.
 */
function withPreflights(doc: Document): Document {
  const paths = doc.paths as Record<string, Record<string, Operation>>;
  for (const [template, item] of Object.entries(paths)) {
    const op = item.get ?? item.post;
    if (!op || item.options) continue;
    const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    item.options = {
      tags: ['service'],
      operationId: `${op.operationId ?? 'path'}Preflight`,
      summary: 'CORS preflight: the methods of this path, and the headers a page on another origin may send and read.',
      parameters: names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string', minLength: 1 } })),
      responses: { 204: { $ref: '#/components/responses/Preflight' } },
    } as Operation;
  }
  return doc;
}

export function openApiDocument(): Document {
  if (!cached) {
    const fresh = existsSync(JSON_FILE) && statSync(JSON_FILE).mtimeMs >= statSync(YAML_FILE).mtimeMs
      && (!existsSync(EXAMPLES_FILE) || statSync(JSON_FILE).mtimeMs >= statSync(EXAMPLES_FILE).mtimeMs);
    cached = fresh ? (JSON.parse(readFileSync(JSON_FILE, 'utf8')) as Document) : readYaml();
  }
  return cached;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(JSON_FILE, JSON.stringify(readYaml()));
