// Progress bars on a terminal, one plain line per step elsewhere (CI logs, pipes), nothing in tests.
import cliProgress from 'cli-progress';

export interface Bar {
  tick(what: string): void;
  done(): void;
}
export interface Progress {
  bar(title: string, total: number): Bar;
  log(line: string): void;
}

export const silent: Progress = { bar: () => ({ tick() {}, done() {} }), log() {} };

export function consoleProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) {
    return {
      bar: (title) => ({ tick: () => {}, done: () => stream.write(`${title}: done\n`) }),
      log: (line) => stream.write(`${line}\n`),
    };
  }
  return {
    bar(title, total) {
      const bar = new cliProgress.SingleBar(
        { format: `${title.padEnd(20)} {bar} {value}/{total} {what}`, stream, clearOnComplete: false, hideCursor: true },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0, { what: '' });
      return { tick: (what) => bar.increment(1, { what }), done: () => bar.stop() };
    },
    log: (line) => stream.write(`${line}\n`),
  };
}
