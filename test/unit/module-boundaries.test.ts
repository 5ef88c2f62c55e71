// The codebase's ground rules: which modules may import which (the data flows build/ -> projections/ ->
// src/store -> src/read -> src/routes -> src/http, and /ai sits on the read layer beside the routes).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../src/shared/project-root.js';

const root = projectRoot();

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) yield* sources(p);
    else if (p.endsWith('.ts')) yield p;
  }
}

/** Every relative import of every TypeScript file under the given folders, as project-relative paths. */
function imports(tops: readonly string[] = ['build', 'src']): Array<{ from: string; to: string }> {
  const out: Array<{ from: string; to: string }> = [];
  for (const top of tops) {
    for (const file of sources(join(root, top))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*from '(\.[^']+)'/gm)) {
        const target = resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts');
        out.push({ from: relative(root, file), to: relative(root, target) });
      }
    }
  }
  return out;
}

describe('module boundaries', () => {
  const all = imports();
  const from = (prefix: string) => all.filter((i) => i.from.startsWith(prefix));
  const folder = (path: string) => /^src\/[^/]+\//.test(path) ? path.split('/').slice(0, 2).join('/') : path;

  it('reads the imports of every module', () => {
    expect(all.length).to.be.greaterThan(100);
    expect(all).to.deep.include({ from: 'src/http/app.ts', to: 'src/routes/v1.ts' });
  });

  it('keeps src/ itself to its entry point: every other module is in the folder of its layer', () => {
    const loose = readdirSync(join(root, 'src')).filter((f) => f.endsWith('.ts'));
    expect(loose).to.deep.equal(['server.ts']);
  });

  it('lets only the app mount route modules: no route imports another, nothing else imports one', () => {
    const offenders = all.filter((i) => i.to.startsWith('src/routes/') && i.from !== 'src/http/app.ts');
    expect(offenders).to.deep.equal([]);
  });

  it('keeps /ai on the read layer: src/ai never imports src/routes or src/http', () => {
    expect(from('src/ai/').filter((i) => /^src\/(routes|http)\//.test(i.to))).to.deep.equal([]);
  });

  it('keeps the server out of the build: nothing in src/ imports build/', () => {
    expect(from('src/').filter((i) => i.to.startsWith('build/'))).to.deep.equal([]);
  });

  it('lets the build use only what it shares with the server, and the snapshot writer from its entry points', () => {
    const shared = /^src\/(shared|store\/(files|checksum|kill-points|bundle-format|update-status))\.?/;
    const offenders = from('build/').filter((i) => i.to.startsWith('src/') && !shared.test(i.to))
      .filter((i) => !(['build/cli.ts', 'build/update.ts'].includes(i.from) && i.to === 'src/read/documents.ts'));
    expect(offenders).to.deep.equal([]);
  });

  it('shares the tests\' and benchmarks\' helpers from test/support: test/ never imports bench/', () => {
    expect(imports(['test']).filter((i) => i.to.startsWith('bench/'))).to.deep.equal([]);
    expect(imports(['bench']).filter((i) => i.to.startsWith('test/') && !i.to.startsWith('test/support/'))).to.deep.equal([]);
  });

  it('keeps each layer below the ones that use it', () => {
    // folder -> the folders of src/ it may import (besides its own)
    const allowed: Record<string, string[]> = {
      'src/shared': [],
      'src/store': ['src/shared'],
      'src/read': ['src/store', 'src/shared'],
      'src/ai': ['src/read', 'src/store', 'src/shared'],
      'src/contract': ['src/shared'],
      'src/config': ['src/store', 'src/shared'],
      'src/routes': ['src/read', 'src/ai', 'src/http', 'src/store', 'src/shared'],
      'src/http': ['src/routes', 'src/read', 'src/contract', 'src/store', 'src/shared'],
      'src/web': ['src/read'],
    };
    const offenders = from('src/').filter((i) => {
      const [a, b] = [folder(i.from), folder(i.to)];
      return a !== b && b.startsWith('src/') && a in allowed && !allowed[a]!.includes(b);
    });
    expect(offenders).to.deep.equal([]);
    const folders = readdirSync(join(root, 'src')).filter((f) => statSync(join(root, 'src', f)).isDirectory()).map((f) => `src/${f}`);
    // every folder has its rule, but the entry points' (cli/ may use every layer, as server.ts does)
    expect(folders.filter((f) => !(f in allowed) && f !== 'src/cli')).to.deep.equal([]);
  });
});
