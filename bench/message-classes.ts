// npm run bench:message-classes: plain Express 5 (bench/ceiling.ts) as its documentation has it listen, against the
// same app in a server that makes its requests and responses with the app's prototypes (src/http/message-classes.ts),
// as the service's does. Each runs with the service's Node options and V8's GC trace, under autocannon (50
// connections over loopback), the two alternating for BENCH_ROUNDS rounds; what a request leaves to the garbage
// collector is read from the trace: the share of the young generation alive at each scavenge, what is promoted to
// the old generation, and how often the old generation is collected.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { projectRoot } from '../src/shared/project-root.js';
import { cpuMicros, mean } from '../test/support/measure.js';
import { waitUntil } from '../test/support/wait.js';
import { writeMeasurement } from './measurement.js';
import { startCommand } from './soak/server.js';

const ROOT = projectRoot();
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 18_711);

const VARIANTS = [
  { name: 'plain Express (`app.listen`)', env: {} },
  { name: 'the same app, requests made with its prototypes', env: { MESSAGE_CLASSES: 'made' } },
];

interface Run { rps: number; cpuPerRequest: number; survived: number; promotedPerRequest: number; fullPer100k: number }

/** The collections V8 traced while `counting` is true: each scavenge's survival rate and bytes promoted; the full ones. */
class GcTrace {
  counting = false;
  survival: number[] = [];
  promoted = 0;
  full = 0;

  constructor(child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!this.counting) return;
      const field = (name: string) => new RegExp(`\\b${name}=([0-9.]+)`).exec(line)?.[1];
      if (/\bgc=s\b/.test(line)) {
        this.survival.push(Number(field('new_space_survive_rate_') ?? 0));
        this.promoted += Number(field('promoted') ?? 0);
      } else if (/\bgc=mc\b/.test(line)) {
        this.full++;
      }
    });
  }
}

async function measure(variant: (typeof VARIANTS)[number], port: number): Promise<Run> {
  const shipped = startCommand(ROOT);
  const child = spawn(process.execPath, [...shipped.args, '--trace-gc-nvp', join(ROOT, 'dist', 'bench', 'ceiling.js')], {
    env: { ...process.env, ...shipped.env, ...variant.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const trace = new GcTrace(child);
  try {
    await waitUntil('the ceiling listening', async () => ((await fetch(`http://127.0.0.1:${port}/`)).ok ? true : undefined));
    const load = (seconds: number) => autocannon({ url: `http://127.0.0.1:${port}/`, connections: 50, duration: seconds });
    await load(2);
    trace.counting = true;
    const cpu0 = cpuMicros(child.pid!);
    const result = await load(DURATION);
    const requests = Math.max(1, result.requests.total);
    const cpuPerRequest = (cpuMicros(child.pid!) - cpu0) / requests;
    trace.counting = false;
    return {
      rps: result.requests.average, cpuPerRequest, survived: mean(trace.survival),
      promotedPerRequest: trace.promoted / requests, fullPer100k: (trace.full / requests) * 100_000,
    };
  } finally {
    child.kill('SIGKILL');
  }
}

async function main(): Promise<void> {
  const runs = VARIANTS.map(() => [] as Run[]);
  for (let round = 0; round < ROUNDS; round++) {
    // alternate which goes first, so that neither always meets the machine as the other left it
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) {
      const run = await measure(VARIANTS[i]!, PORT + i);
      runs[i]!.push(run);
      process.stderr.write(`round ${round + 1}, ${VARIANTS[i]!.name}: ${run.rps.toFixed(0)} req/s, ${run.cpuPerRequest.toFixed(0)} µs/req, ${run.survived.toFixed(1)}% survived\n`);
    }
  }
  const rows = VARIANTS.map((v, i) => {
    const r = runs[i]!;
    const avg = (f: (x: Run) => number) => mean(r.map(f));
    return `| ${v.name} | ${avg((x) => x.rps).toFixed(0)} | ${avg((x) => x.cpuPerRequest).toFixed(0)} | ${avg((x) => x.survived).toFixed(1)}% | ${(avg((x) => x.promotedPerRequest) / 1024).toFixed(1)} | ${avg((x) => x.fullPer100k).toFixed(1)} |`;
  });
  writeMeasurement({
    file: 'message-classes.md',
    title: 'Requests made with the app\'s prototypes, against plain Express',
    command: 'npm run bench:message-classes',
    settings: { BENCH_SECONDS: DURATION, BENCH_ROUNDS: ROUNDS },
    body: [
      `bench/ceiling.ts (a fixed ~300-byte \`res.json\`) under autocannon, 50 connections, ${DURATION} s per run, ${ROUNDS} alternating rounds, with the service's Node options and \`--trace-gc-nvp\`; means over the rounds`,
      '',
      '| server | req/s | CPU µs/req | young generation alive at a scavenge | KB promoted per request | full collections per 100k requests |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
      '- young generation alive at a scavenge: V8\'s `new_space_survive_rate_`, the share of the young generation\'s bytes still reachable when it is collected, averaged over the run\'s scavenges.',
      '- The first row is the ceiling of `npm run bench` ([serving](serving.md)); the service makes its requests as the second does (src/http/message-classes.ts).',
    ].join('\n'),
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
