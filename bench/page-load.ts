// npm run bench:page: the home page as a first visit sees it, on this machine. The server runs as shipped
// (dist/src/server.js over data/); each of the visits is a fresh Chromium profile (an empty cache) at a
// desktop width. Reported: the median time to the first contentful paint and until all three plots are
// drawn (every API answer in), and the bytes transferred (compressed, as Chromium asks for them).
import { defaultPaths } from '../build/paths.js';
import { launchBrowser } from '../test/support/browser.js';
import { startServer } from '../test/support/server-process.js';
import { median } from '../test/support/measure.js';
import { Figures, verbatim, writeMeasurement } from './measurement.js';

const VISITS = Number(process.env.VISITS ?? 7);

interface Visit { fcp: number; plots: number; bytes: number; assets: Array<{ name: string; bytes: number }> }

async function visit(base: string): Promise<Visit> {
  const browser = await launchBrowser();
  try {
    const { page, problems } = await browser.page();
    const t0 = Date.now();
    await page.goto(`${base}/`);
    await page.locator('#plot-orders svg[aria-label]').first().waitFor();
    const plots = Date.now() - t0;
    if (problems.length) throw new Error(problems.join('\n'));
    return await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const res = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
      const assets = [nav, ...res].map((e) => ({ name: new URL(e.name).pathname, bytes: e.transferSize }));
      return { fcp, plots: 0, bytes: assets.reduce((n, a) => n + a.bytes, 0), assets };
    }).then((v) => ({ ...v, plots }));
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const server = await startServer(defaultPaths().dataDir, { timeoutMs: 120_000 });
  try {
    await visit(server.base); // the server's first answers warm its caches
    const visits: Visit[] = [];
    for (let i = 0; i < VISITS; i++) visits.push(await visit(server.base));
    const last = visits[visits.length - 1]!;
    const out = new Figures();
    out.log(`home page, ${VISITS} first visits: first contentful paint ${Math.round(median(visits.map((v) => v.fcp)))} ms (median), ` +
      `plots drawn ${median(visits.map((v) => v.plots))} ms (median, from navigation start to the last plot in the DOM)`);
    out.log(`transferred: ${(last.bytes / 1024).toFixed(1)} KB in ${last.assets.length} responses`);
    for (const a of last.assets.sort((x, y) => y.bytes - x.bytes)) out.log(`  ${(a.bytes / 1024).toFixed(1).padStart(7)} KB  ${a.name}`);
    writeMeasurement({
      file: 'page-load.md', title: 'The home page, first visits in Chromium', command: 'npm run bench:page',
      settings: { VISITS }, body: verbatim(out.text()),
    });
  } finally {
    server.kill();
  }
}

await main();
