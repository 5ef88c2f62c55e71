// Everything the soak measured: every request (class, when, how long, whether it failed, whether it ran in
// a heavy phase), the server's RSS over time and the events (swaps, SIGHUP, heavy phases); and the tables
// and verdict made of them.
import type { TrafficClass } from './traffic.js';
import { percentile } from '../../test/support/measure.js';
import { CLASSES } from './traffic.js';

export interface Sample { t: number; ms: number; ok: boolean; heavy: boolean }
export interface Failure { t: number; cls: TrafficClass; what: string; status: number; error?: string }
export interface Event { t: number; what: string }


const ms = (x: number) => (Number.isNaN(x) ? '' : x < 10 ? x.toFixed(1) : x.toFixed(0));
export const clock = (t: number) => `${Math.floor(t / 60_000)}:${String(Math.floor((t % 60_000) / 1000)).padStart(2, '0')}`;

export class Recorder {
  readonly samples = new Map<TrafficClass, Sample[]>(CLASSES.map((c) => [c, []]));
  readonly failures: Failure[] = [];
  readonly rss: Array<{ t: number; mb: number }> = [];
  readonly events: Event[] = [];

  constructor(private readonly t0: number) {}

  now(): number {
    return performance.now() - this.t0;
  }

  request(cls: TrafficClass, what: string, start: number, answer: { status: number; ms: number; error?: string }, expected: number, heavy: boolean): void {
    const ok = answer.status === expected && !answer.error;
    this.samples.get(cls)!.push({ t: start, ms: answer.ms, ok, heavy });
    if (!ok) this.failures.push({ t: start, cls, what, status: answer.status, ...(answer.error ? { error: answer.error } : {}) });
  }

  event(what: string): void {
    this.events.push({ t: this.now(), what });
  }

  minutes(): number {
    const last = Math.max(this.now(), ...this.rss.map((r) => r.t));
    return Math.max(1, Math.ceil(last / 60_000));
  }

  private inMinute<T extends { t: number }>(xs: readonly T[], m: number): T[] {
    return xs.filter((x) => x.t >= (m - 1) * 60_000 && x.t < m * 60_000);
  }

  /** minute | requests | failures | lookup p50 | lookup p99 | heavy-phase lookup p99 | RSS max | events */
  overTime(): string {
    const rows = ['| minute | requests | failures | lookup p50 ms | lookup p99 ms | heavy-phase lookup p99 ms | RSS max MB | events |', '|---|---|---|---|---|---|---|---|'];
    for (let m = 1; m <= this.minutes(); m++) {
      const all = CLASSES.flatMap((c) => this.inMinute(this.samples.get(c)!, m));
      const lookups = this.inMinute(this.samples.get('lookup')!, m);
      const heavy = lookups.filter((s) => s.heavy);
      const rss = this.inMinute(this.rss, m).map((r) => r.mb);
      const events = this.inMinute(this.events, m).map((e) => `${clock(e.t)} ${e.what}`).join('; ');
      rows.push(`| ${m} | ${all.length} | ${all.filter((s) => !s.ok).length} | ${ms(percentile(lookups.map((s) => s.ms), 50))} | ${ms(percentile(lookups.map((s) => s.ms), 99))} | ${ms(percentile(heavy.map((s) => s.ms), 99))} | ${rss.length ? Math.max(...rss).toFixed(0) : ''} | ${events} |`);
    }
    return rows.join('\n');
  }

  /** p50 / p99 in ms of each class, minute by minute (n: requests of the class in the minute). */
  byClass(): string {
    const rows = [`| minute | ${CLASSES.join(' | ')} |`, `|---|${CLASSES.map(() => '---').join('|')}|`];
    for (let m = 1; m <= this.minutes(); m++) {
      const cells = CLASSES.map((c) => {
        const xs = this.inMinute(this.samples.get(c)!, m).map((s) => s.ms);
        return xs.length ? `${ms(percentile(xs, 50))} / ${ms(percentile(xs, 99))} (${xs.length})` : '';
      });
      rows.push(`| ${m} | ${cells.join(' | ')} |`);
    }
    return rows.join('\n');
  }

  heavyLookups(): number[] {
    return this.samples.get('lookup')!.filter((s) => s.heavy).map((s) => s.ms);
  }

  rssMax(from = 0, to = Infinity): number {
    const xs = this.rss.filter((r) => r.t >= from && r.t < to).map((r) => r.mb);
    return xs.length ? Math.max(...xs) : NaN;
  }
}
