// What a build prints: timestamped progress lines when its output is no terminal (CI, cron), and the summary
// (build-report.txt) with a legend for each table and every warning of the real build.
import { expect } from 'chai';
import { consoleProgress } from '../build/progress.js';
import { summary } from '../build/summary.js';
import { realBuild } from './support/data.js';
import { PROGRESS_STAMP } from './support/faults.js';

/** A stream that is no terminal, and a clock that moves only when told. */
function pipe(): { stream: NodeJS.WriteStream; text: () => string; clock: { ms: number } } {
  let text = '';
  const stream = { isTTY: false, write: (s: string) => { text += s; return true; } } as unknown as NodeJS.WriteStream;
  return { stream, text: () => text, clock: { ms: Date.UTC(2026, 10, 26, 3, 17, 0) } };
}

describe('build output', function () {

  describe('on a stream that is no terminal', () => {
    it('writes each line with the time of day and the time since the build began', () => {
      const { stream, text, clock } = pipe();
      const progress = consoleProgress(stream, () => clock.ms);
      progress.log('stage fetch started');
      clock.ms += 12_345;
      progress.log('stage fetch done in 12.3 s');
      expect(text()).to.equal('2026-11-26T03:17:00Z +0.0s stage fetch started\n2026-11-26T03:17:12Z +12.3s stage fetch done in 12.3 s\n');
      expect(text().split('\n').filter(Boolean).every((l) => PROGRESS_STAMP.test(l))).to.equal(true);
    });

    it('writes a line per step of a bar, with the step\'s own time, and the whole bar\'s when done', () => {
      const { stream, text, clock } = pipe();
      const progress = consoleProgress(stream, () => clock.ms);
      const bar = progress.bar('reading raw files', 2);
      clock.ms += 1500;
      bar.tick('MSL1 (1971): taxonomy_1971.json');
      clock.ms += 2500;
      bar.tick('MSL2 (1976): taxonomy_1976.json');
      bar.done();
      expect(text().split('\n').filter(Boolean).map((l) => l.replace(PROGRESS_STAMP, ''))).to.deep.equal([
        'reading raw files 1/2: MSL1 (1971): taxonomy_1971.json (1.5 s)',
        'reading raw files 2/2: MSL2 (1976): taxonomy_1976.json (2.5 s)',
        'reading raw files: done in 4.0 s',
      ]);
    });
  });

  describe('the summary of the real build', () => {
    it('lists every warning the readers raised, with its release, and says where the rest is', async () => {
      const report = await realBuild();
      const text = summary(report);
      const warnings = [...report.warnings, ...report.releases.flatMap((r) => r.warnings.map((w) => `${r.version}: ${w}`))];
      expect(warnings.length).to.be.greaterThan(0);
      const tail = text.slice(text.indexOf('\nwarnings: '));
      expect(tail.split('\n').filter(Boolean)).to.deep.equal([`warnings: ${warnings.length} (also in build-report.json)`, ...warnings.map((w) => `  ${w}`)]);
    });

    it('explains the columns of both tables in a legend under each, and names every stage with its time', async () => {
      const report = await realBuild();
      const lines = summary(report).split('\n');
      for (const header of ['release  species', 'step          linked forward']) {
        const at = lines.findIndex((l) => l.startsWith(header));
        const legend = lines.findIndex((l, i) => i > at && l.startsWith('legend: '));
        // the legend follows the table's rows: one per release, or per step between releases
        expect(legend - at - 1).to.equal(header.startsWith('release') ? report.releases.length : report.releases.length - 1);
      }
      for (const column of ['join rate', 'ictv ids', 'against ICTV', 'linked forward', 'abolished', 'ICTV Last Change agreement']) {
        expect(lines.filter((l) => l.startsWith('legend: ') || l.startsWith('  ')).join(' ')).to.contain(`${column}:`);
      }
      for (const stage of Object.keys(report.stages)) expect(lines[0]).to.match(new RegExp(`[(, ]${stage} \\d+\\.\\d s`));
    });
  });
});
