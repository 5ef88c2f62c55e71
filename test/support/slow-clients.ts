// Slow and idle clients, in a process of their own so that their sockets do not share an event loop with
// the client being measured. Opens `idle` connections that send nothing and `drip` connections that send a
// request's headers one byte every `everyMs`, and reports as JSON lines: `{"open": n}` once all are
// connected, then `{"closed": ..}` once the server has closed every one, with what it answered and when.
// Usage: node slow-clients.js <port> <idle> <drip> <everyMs>
import { connect, type Socket } from 'node:net';

const [port, idle, drip, everyMs] = process.argv.slice(2).map(Number) as [number, number, number, number];
const HEADERS = `GET /api/v1/species/latest/Tobamovirus%20tabaci HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow-client\r\n${'X-Padding: x\r\n'.repeat(40)}\r\n`;
const t0 = Date.now();
const answers: Record<string, number> = {};
const closedAt: number[] = [];
let open = 0;

function client(dripping: boolean): Promise<void> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let sent = 0;
    let timer: NodeJS.Timeout | null = null;
    let answer = 'none (closed silently)';
    socket.on('connect', () => {
      open += 1;
      if (dripping) timer = setInterval(() => { if (sent < HEADERS.length) socket.write(HEADERS[sent++]!); }, everyMs);
      resolve();
    });
    socket.on('data', (d) => { answer = d.toString('latin1').split('\r\n')[0]!; });
    socket.on('error', () => { /* reset by the server: counted on close */ });
    socket.on('close', () => {
      if (timer) clearInterval(timer);
      answers[answer] = (answers[answer] ?? 0) + 1;
      closedAt.push(Date.now() - t0);
      if (closedAt.length === idle + drip) {
        console.log(JSON.stringify({ closed: closedAt.length, answers, first_ms: Math.min(...closedAt), last_ms: Math.max(...closedAt) }));
        process.exit(0);
      }
      resolve(); // a connection refused never connected
    });
  });
}

// In batches, so the server's accept queue (backlog 511) is never the limit being measured.
for (let i = 0; i < idle + drip; i += 100) {
  await Promise.all(Array.from({ length: Math.min(100, idle + drip - i) }, (_, j) => client(i + j >= idle)));
}
console.log(JSON.stringify({ open, ms: Date.now() - t0 }));
