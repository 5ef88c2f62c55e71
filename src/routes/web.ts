// The web pages: three HTML pages (home, taxon, compare) whose scripts read the public API from the browser,
// and their assets (the compiled page scripts, the style sheet, the plotting library's own dist files). Pages
// and assets get a policy of their own: scripts, styles, data and images from this origin only, nothing inline.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router, type RequestHandler } from 'express';
import { notFound } from '../http/errors.js';

/** The repository root: this module runs as dist/src/routes/web.js. */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PAGES_DIR = join(ROOT, 'src', 'web');
const SCRIPTS_DIR = join(ROOT, 'dist', 'src', 'web');

export const PAGE_POLICY = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
].join('; ');

/** The plotting library and the d3 it runs on, as their packages ship them (the files of the pinned versions). */
const VENDOR: Record<string, string> = {
  'd3.min.js': join(ROOT, 'node_modules', 'd3', 'dist', 'd3.min.js'),
  'plot.umd.min.js': join(ROOT, 'node_modules', '@observablehq', 'plot', 'dist', 'plot.umd.min.js'),
};

const pagePolicy: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', PAGE_POLICY);
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
};

/** /assets: static files, outside the contract like /docs. Mounted before the contract's gate. */
export function assetsRouter(): Router {
  const router = Router();
  const options = { index: false, maxAge: '5m' } as const;
  router.use(pagePolicy);
  router.get('/vendor/:file', (req, res, next) => {
    const file = VENDOR[req.params.file];
    if (!file) return next();
    res.sendFile(file, { maxAge: '1d' });
  });
  // only the compiled page scripts (their source maps name files not served)
  router.use('/scripts', (req, _res, next) => (req.path.endsWith('.js') ? next() : notFound(req, _res, next)), express.static(SCRIPTS_DIR, options));
  router.use(express.static(join(PAGES_DIR, 'static'), options));
  router.use(notFound);
  return router;
}

/**
 * A page as served: the frame every page shares (shell.html: head, site header with the search box, footer)
 * with the page's own title and scripts at {{head}} and its content at {{main}}, which its file holds parted by
 * a line `<!-- main -->`.
 */
function pageHtml(file: string): string {
  const [head, main] = readFileSync(join(PAGES_DIR, file), 'utf8').split('\n<!-- main -->\n');
  if (head === undefined || main === undefined) throw new Error(`${file}: no line <!-- main --> between its head and its content`);
  return readFileSync(join(PAGES_DIR, 'shell.html'), 'utf8').replace('{{head}}', () => head).replace('{{main}}\n', () => main);
}

/** The HTML pages, operations of the contract (text/html); a page's script finds out whether its name exists. */
export function pagesRouter(): Router {
  const router = Router();
  const page = (file: string): RequestHandler => {
    const html = Buffer.from(pageHtml(file));
    return (_req, res) => {
      res.setHeader('Content-Security-Policy', PAGE_POLICY);
      res.setHeader('Referrer-Policy', 'no-referrer');
      res.setHeader('Cache-Control', 'no-cache');
      res.type('html').send(html);
    };
  };
  router.get('/', page('home.html'));
  router.get('/taxon/:name', page('taxon.html'));
  router.get('/compare/:from_version/:to_version', page('compare.html'));
  return router;
}
