// Figures of measured times the tests and the benchmarks share (bench/ imports test/support/, never the
// other way). A wait is node:timers/promises' setTimeout.
import { readFileSync } from 'node:fs';

/** Nearest-rank percentile of unsorted values (NaN for none). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The arithmetic mean (NaN for none). */
export const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

/** The middle value (the upper of the two middle ones for an even count). */
export const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A process's resident memory now and its high-water mark, in bytes, as the kernel keeps them (NaN if it has none: a zombie). */
export function residentMemory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const bytes = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) * 1024;
  return { rss: bytes('VmRSS'), peak: bytes('VmHWM') };
}

/** CPU time (user + system) a process has used so far, in µs, as the kernel keeps it (/proc ticks are 10 ms). */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
