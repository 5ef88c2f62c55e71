// Where a bench writes what it measured: one Markdown file per bench in docs/measurements/, the latest run
// replacing the one before (git keeps the older ones), headed by when it ran, on which machine, on which code
// and with which settings. Figures live there and nowhere else: not in the README, not in comments.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { projectRoot } from '../src/shared/project-root.js';

const ROOT = projectRoot();
export const MEASUREMENTS_DIR = join(ROOT, 'docs', 'measurements');

/** When the bench started and how loaded the machine was then (taken as the bench imports this module). */
const STARTED = { at: new Date(), load: loadavg() };

/** The CPU's model as the kernel names it; Node's name where /proc/cpuinfo has no `model name` (ARM). */
function cpuModel(): string {
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) return m[1]!.trim();
  } catch {
    // not Linux
  }
  return cpus()[0]?.model.trim() || 'unknown CPU';
}

/** The machine in one line: the figures of a 2-core shared machine and of a quiet 16-core one differ twofold. */
export function machine(): string {
  return `${availableParallelism()} cores (${cpuModel()}), ${(totalmem() / 2 ** 30).toFixed(0)} GB of memory, Linux ${release()}, Node ${process.version}`;
}

/** The code measured: the commit, and whether the working tree differed from it. */
function code(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return `commit ${git('rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes' : ''}`;
  } catch {
    return 'code outside git';
  }
}

const utc = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export interface Measurement {
  /** File name under docs/measurements/, e.g. `serving.md`. */
  file: string;
  /** What was measured, as the file's title. */
  title: string;
  /** The command that measured it, e.g. `npm run bench`. */
  command: string;
  /** The settings that shape the figures (environment variables, arguments), as they were in effect. */
  settings?: Record<string, string | number | boolean>;
  /** The figures, as Markdown. */
  body: string;
}

/** Writes a measurement file with its header (date, machine, code, settings); returns its path. */
export function writeMeasurement(m: Measurement): string {
  const ended = new Date();
  const minutes = (ended.getTime() - STARTED.at.getTime()) / 60_000;
  const settings = Object.entries(m.settings ?? {}).map(([k, v]) => `${k}=${v}`);
  const header = [
    `# ${m.title}`,
    '',
    `<!-- written by \`${m.command}\`: rerun it rather than edit this file -->`,
    `- **Run**: \`${m.command}\`, started ${utc(STARTED.at)}, ${minutes < 1 ? 'under a minute' : `${minutes.toFixed(0)} min`}`,
    `- **Machine**: ${machine()}; load average ${STARTED.load.map((x) => x.toFixed(1)).join(' / ')} (1 / 5 / 15 min) when it started`,
    `- **Code**: ${code()}`,
    ...(settings.length ? [`- **Settings**: ${settings.join(', ')}`] : []),
    '',
  ];
  mkdirSync(MEASUREMENTS_DIR, { recursive: true });
  const path = join(MEASUREMENTS_DIR, m.file);
  writeFileSync(path, `${header.join('\n')}\n${m.body.trim()}\n`);
  process.stderr.write(`figures written to ${relative(ROOT, path)}\n`);
  return path;
}

/** Output lines printed as they come and kept for the measurement file. */
export class Figures {
  readonly lines: string[] = [];

  log(...lines: string[]): void {
    for (const line of lines) {
      console.log(line);
      this.lines.push(line);
    }
  }

  text(): string {
    return this.lines.join('\n');
  }
}

/** Plain output (no tables) kept as it was printed, in a fenced block. */
export const verbatim = (text: string): string => `\`\`\`text\n${text.trim()}\n\`\`\``;
