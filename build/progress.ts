// What a build says while it runs: a progress bar per step on a terminal; elsewhere (CI, cron, a pipe) one plain
// line per step done, each with the time of day and the time since the build began, so a log read later says
// when each stage and release was reached and how long it took. Nothing in tests (silent).
import cliProgress from 'cli-progress';

export interface Bar {
  /** One step of the bar done; `what` names it (a release, a read model). */
  tick(what: string): void;
  done(): void;
}
export interface Progress {
  bar(title: string, total: number): Bar;
  log(line: string): void;
}

export const silent: Progress = { bar: () => ({ tick() {}, done() {} }), log() {} };

/** Seconds, as the lines and the summary write them: "3.4 s". */
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/**
 * Progress on `stream`: bars on a terminal, timestamped lines elsewhere. `now` is the clock (tests give
 * their own).
 */
export function consoleProgress(stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now): Progress {
  const began = now();
  const since = () => `+${seconds(now() - began).replace(' ', '')}`;
  if (!stream.isTTY) {
    // ISO time of day to the second: a cron log holds the lines of many builds, days apart.
    const line = (text: string) => stream.write(`${new Date(now()).toISOString().slice(0, 19)}Z ${since()} ${text}\n`);
    return {
      bar(title, total) {
        const start = now();
        let last = start;
        let n = 0;
        return {
          tick(what) {
            n += 1;
            line(`${title} ${n}/${total}: ${what} (${seconds(now() - last)})`);
            last = now();
          },
          done: () => line(`${title}: done in ${seconds(now() - start)}`),
        };
      },
      log: line,
    };
  }
  return {
    bar(title, total) {
      const bar = new cliProgress.SingleBar({
        format: `${since()} ${title.padEnd(20)} {bar} {value}/{total} {duration_formatted} {what}`,
        stream, clearOnComplete: false, hideCursor: true,
      }, cliProgress.Presets.shades_classic);
      bar.start(total, 0, { what: '' });
      return { tick: (what) => bar.increment(1, { what }), done: () => bar.stop() };
    },
    log: (text) => stream.write(`${since()} ${text}\n`),
  };
}
