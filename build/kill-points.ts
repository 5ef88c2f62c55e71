// A seam for the fault drills (test/fault-drills.test.ts): a build started with BUILD_KILL_AT=<point> sends
// itself SIGKILL at that point, as abruptly as a power cut. A kill sent from outside lands wherever the
// build has got to by then, which depends on the machine: from inside, the drills kill a build at the same
// step every time, on a record small enough to build in seconds. Unset, none of this does anything.
import type { Progress } from './progress.js';

export function killPoint(point: string): void {
  if (process.env.BUILD_KILL_AT === point) process.kill(process.pid, 'SIGKILL');
}

/**
 * The build's progress, which with BUILD_KILL_AT=line:<text> also kills the build right after it reports a
 * line beginning with <text>: a step inside a stage ("fetched MSL3/", "building read models 28/"). A
 * step's line is its bar's line without the clock ("<title> <n>/<total>: <what>"), whatever the terminal.
 */
export function killableProgress(progress: Progress): Progress {
  const at = process.env.BUILD_KILL_AT;
  if (!at?.startsWith('line:')) return progress;
  const prefix = at.slice('line:'.length);
  const after = (line: string) => { if (line.startsWith(prefix)) process.kill(process.pid, 'SIGKILL'); };
  return {
    log(line) {
      progress.log(line);
      after(line);
    },
    bar(title, total) {
      const bar = progress.bar(title, total);
      let n = 0;
      return {
        tick(what) {
          bar.tick(what);
          n += 1;
          after(`${title} ${n}/${total}: ${what}`);
        },
        done: () => bar.done(),
      };
    },
  };
}
