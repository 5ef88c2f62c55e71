// The fault drills' kill seam (src/store/kill-points.ts) for steps inside a stage: a build started with
// BUILD_KILL_AT=line:<text> kills itself right after its progress reports a line beginning with <text>.
import type { Progress } from './progress.js';

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
