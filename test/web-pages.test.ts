// The web pages in a real browser (Debian's Chromium, test/support/browser.ts) against the real data set, the
// app checking every API answer against the contract. Expected values are read from the source tables or the
// API the page reads, never from the page. Screenshots are written to test-artifacts/.
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { PAGE_POLICY } from '../src/routes/web.js';
import { CHROMIUM, launchBrowser, listen, screenshot, type Browser, type WatchedPage } from './support/browser.js';
import { onRealApp } from './support/http.js';

interface Release { version: string; msl: number; year: number }

describe('web pages in Chromium', function () {
  const real = onRealApp();
  let site: Awaited<ReturnType<typeof listen>>;
  let browser: Browser;
  let watched: WatchedPage | null = null;

  before(async function () {
    if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: .ci/run installs it (apt-get install chromium)`);
    site = await listen(real.app);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });
  const open = async (path: string): Promise<WatchedPage> => {
    watched = await browser.page();
    await watched.page.goto(site.base + path);
    return watched;
  };
  afterEach(async () => {
    if (!watched) return;
    const { page, problems } = watched;
    watched = null;
    await page.close();
    expect(problems, 'console errors, exceptions and failed requests').to.deep.equal([]);
  });
  const release = async (where: string, values: unknown[]): Promise<Release> =>
    (await real.db.all<Release>(`SELECT version, msl, year FROM src.releases WHERE ${where}`, values))[0]!;

  it('/ draws the three plots of the record, under a policy that allows only its own origin', async () => {
    const { page } = await open('/');
    for (const id of ['plot-realms', 'plot-changes', 'plot-orders']) {
      await page.locator(`#${id} svg[aria-label]`).first().waitFor();
    }
    const response = await page.request.get(`${site.base}/`);
    expect(response.headers()['content-security-policy']).to.equal(PAGE_POLICY);
    expect(PAGE_POLICY).to.not.match(/unsafe|\*|https?:/);
    const releases = await real.db.count('SELECT count(*) AS n FROM src.releases');
    // one bar per release per realm: at least one per release
    expect(await page.locator('#plot-realms svg[aria-label] rect').count()).to.be.at.least(releases);
    expect(await page.locator('#realms-table tr').count()).to.equal(releases);
    const firstSpecies = await real.db.count('SELECT count(*) AS n FROM src.species WHERE msl = $1', [real.first.msl]);
    const lead = await page.locator('#lead').textContent();
    expect(lead).to.contain(`${firstSpecies} species in ${real.first.year}`).and.contain(real.latest.version);
    expect(await page.locator('h1').count()).to.equal(1);
    await screenshot(page, 'home');
  });

  it('searching "tobaco mosaic" with the keyboard lands on Tobamovirus tabaci, its timeline back to the first release', async () => {
    const { page } = await open('/');
    // the focus order: the skip link, the site's name, the search box
    const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.className);
    const order: Array<string | undefined> = [];
    for (let i = 0; i < 3; i++) { await page.keyboard.press('Tab'); order.push(await focused()); }
    expect(order).to.deep.equal(['skip', 'brand', 'q']);
    await page.keyboard.type('tobaco mosaic');
    const option = page.getByRole('option', { name: /^Tobacco mosaic virus \(/ });
    await option.waitFor();
    const options = await page.getByRole('option').allTextContents();
    const at = options.findIndex((t) => t.startsWith('Tobacco mosaic virus ('));
    for (let i = 0; i <= at; i++) await page.keyboard.press('ArrowDown');
    expect(await page.locator('#q').getAttribute('aria-activedescendant')).to.equal(`suggestion-${at}`);
    await Promise.all([page.waitForURL('**/taxon/**'), page.keyboard.press('Enter')]);
    await page.locator('table.changes tbody tr').first().waitFor();
    expect(await page.locator('h1').textContent()).to.equal('Tobamovirus tabaci');
    const first = await release('msl = (SELECT min(msl) FROM src.species WHERE species IN ($1, $2))', ['Tobacco mosaic virus', 'Tobamovirus tabaci']);
    expect(first.year).to.equal(1971);
    expect(await page.locator('table.changes tbody tr th').first().textContent()).to.equal(`${first.version} (${first.year})`);
    // the rename to the binomial name is a row with its proposal
    const renamed = await release('msl = (SELECT min(msl) FROM src.species WHERE species = $1)', ['Tobamovirus tabaci']);
    const row = page.locator('table.changes tbody tr', { hasText: `${renamed.version} (${renamed.year})` });
    expect(await row.locator('td').first().textContent()).to.equal('renamed');
    expect(await row.locator('a[href*="proposals"]').count()).to.equal(1);
    // the strip has a cell per release
    const releases = await real.db.count('SELECT count(*) AS n FROM src.releases');
    expect(await page.locator('.strip svg[aria-label] rect').count()).to.be.at.least(releases);
    await page.locator('.cite pre').waitFor();
    await screenshot(page, 'taxon-tobamovirus-tabaci');
  });

  it('the Caudovirales page shows its abolition', async () => {
    const { page } = await open('/taxon/Caudovirales');
    await page.locator('.ended-note').waitFor();
    const end = await release(`msl = (SELECT min(msl) FROM src.releases WHERE msl > (SELECT max(msl) FROM src.taxa WHERE rank = 'order' AND name = 'Caudovirales'))`, []);
    expect(await page.locator('h1').textContent()).to.equal('Caudovirales');
    expect(await page.locator('.ended-note').textContent()).to.match(new RegExp(`^Abolished in ${end.version}\\.`));
    expect(await page.locator('table.changes tr.ended th').textContent()).to.equal(end.version);
    await screenshot(page, 'taxon-caudovirales');
  });

  it('compares MSL36 and MSL37 from the home page and pages through the table', async () => {
    const { page } = await open('/');
    await page.locator('#compare-from option').first().waitFor({ state: 'attached' });
    await page.getByLabel('From').selectOption('MSL36');
    await page.getByLabel('to', { exact: true }).selectOption('MSL37');
    await Promise.all([page.waitForURL('**/compare/MSL36/MSL37'), page.getByRole('button', { name: 'Compare' }).click()]);
    await page.locator('#rows tr').first().waitFor();
    const total = await real.db.count('SELECT count(*) AS n FROM main.release_diff_change WHERE from_msl = 36 AND to_msl = 37');
    const pages = Math.ceil(total / 50);
    expect(await page.locator('#page-info').textContent()).to.match(new RegExp(`^Page 1 of ${pages} `));
    expect(await page.locator('#rows tr').count()).to.equal(50);
    expect(await page.getByRole('button', { name: 'Previous page' }).isDisabled()).to.equal(true);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.locator('#page-info', { hasText: `Page 2 of ${pages}` }).waitFor();
    const api = await (await page.request.get(`${site.base}/api/v1/compare/MSL36/MSL37/details?limit=50&offset=50`)).json() as { changes: Array<{ new_name: string | null; old_name: string | null }> };
    const shown = await page.locator('#rows tr').evaluateAll((trs) => trs.map((tr) => [tr.children[1]!.textContent, tr.children[2]!.textContent]));
    expect(shown).to.deep.equal(api.changes.map((c) => [c.old_name ?? '—', c.new_name ?? '—']));
    await screenshot(page, 'compare-msl36-msl37');
    // a filter by kind starts again at its first page
    await page.getByLabel('Show').selectOption('renamed');
    const renamed = await real.db.count("SELECT count(*) AS n FROM main.release_diff_change WHERE from_msl = 36 AND to_msl = 37 AND change_type = 'renamed'");
    await page.locator('#page-info', { hasText: `of ${Math.ceil(renamed / 50)} ` }).waitFor();
    expect(await page.locator('#rows td:first-child').allTextContents()).to.satisfy((t: string[]) => t.length === 50 && t.every((x) => x === 'renamed'));
    await screenshot(page, 'compare-msl36-msl37-renamed');
    // the CSV holds every row of the kind shown, not only the page
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download as CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8').trimEnd().split('\r\n');
    expect(csv[0]).to.equal('change_type,old_name,new_name,old_family,new_family,old_genus,new_genus,old_lineage,new_lineage,proposal');
    expect(csv.length - 1).to.equal(renamed);
    expect(csv.slice(1).every((line) => line.startsWith('renamed,'))).to.equal(true);
  });

  it("a family's page plots its species and genera release by release", async () => {
    const { page } = await open('/taxon/Virgaviridae');
    await page.locator('svg[aria-label="Virgaviridae: species and genera per release"]').waitFor();
    const [first] = await real.db.all<{ version: string; species: number }>(`
      SELECT r.version, count(*)::INTEGER AS species FROM src.species s JOIN src.releases r USING (msl)
      WHERE s.family = 'Virgaviridae' GROUP BY r.version, r.msl ORDER BY r.msl LIMIT 1`);
    expect(await page.locator('svg[aria-label="Virgaviridae: species and genera per release"]').getAttribute('aria-description'))
      .to.match(new RegExp(`^From ${first!.version} \\(${first!.species.toLocaleString('en')} species\\)`));
    await page.locator('.cite pre').waitFor();
  });

  it('a name that matches nothing says so on the taxon page, with suggestions', async () => {
    const { page, problems } = await open('/taxon/Tobamovirus%20tabacci');
    await page.locator('p.error').waitFor();
    expect(await page.locator('p', { hasText: 'Did you mean' }).locator('a').first().textContent()).to.equal('Tobamovirus tabaci');
    // the API's 404 is the one expected problem
    expect(problems.filter((p) => !/^404: .*\/api\/v1\/history\/|status of 404/.test(p))).to.deep.equal([]);
    problems.length = 0;
  });
});

describe('web pages on a phone in the dark', function () {
  const real = onRealApp();

  it('/ fits a phone-width window in the dark scheme', async () => {
    const site = await listen(real.app);
    const browser = await launchBrowser({ viewport: { width: 375, height: 800 }, colorScheme: 'dark' });
    try {
      const { page, problems } = await browser.page();
      await page.goto(`${site.base}/`);
      await page.locator('#plot-orders svg[aria-label]').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(375);
      const [bg, fg] = await page.evaluate(() => [getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.body).color]);
      expect(bg).to.equal('rgb(21, 24, 28)');
      expect(fg).to.equal('rgb(230, 232, 235)');
      await screenshot(page, 'home-phone-dark');
      expect(problems).to.deep.equal([]);
    } finally {
      await browser.close();
      await site.close();
    }
  });
});
