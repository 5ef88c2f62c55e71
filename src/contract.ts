// The API contract: the hand-written OpenAPI document src/openapi.yaml, as an object. Parsing that YAML
// costs ~250 ms, a tenth of the start-up budget, so `npm run compile` also writes it as JSON beside the
// compiled code (run this module as a script); the JSON is used only while it is newer than the YAML.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { projectRoot } from '../build/paths.js';

const YAML_FILE = join(projectRoot(), 'src', 'openapi.yaml');
const JSON_FILE = join(projectRoot(), 'dist', 'src', 'openapi.json');

type Document = Record<string, unknown>;

let cached: Document | null = null;

const readYaml = (): Document => parseYaml(readFileSync(YAML_FILE, 'utf8')) as Document;

export function openApiDocument(): Document {
  if (!cached) {
    const fresh = existsSync(JSON_FILE) && statSync(JSON_FILE).mtimeMs >= statSync(YAML_FILE).mtimeMs;
    cached = fresh ? (JSON.parse(readFileSync(JSON_FILE, 'utf8')) as Document) : readYaml();
  }
  return cached;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(JSON_FILE, JSON.stringify(readYaml()));
