// The soak's HTTP client: one keep-alive agent, every body read to its end, nothing retried. A request fails
// when the answer is not the status expected or the connection breaks; both are reported, never hidden.
import http from 'node:http';

export interface Req {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  contentType?: string;
}

export interface Answer {
  status: number;
  ms: number;
  bytes: number;
  /** Set when the connection failed or broke before the body ended. */
  error?: string;
}

// Idle sockets are closed after a second, well before the server's keep-alive timeout (5 s): a request
// never goes out on a socket the server is closing at that moment (that would be a failure of the client).
const agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: 1000 });

export function send(base: string, req: Req): Promise<Answer> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const headers: Record<string, string | number> = {};
    if (req.body !== undefined) {
      headers['content-type'] = req.contentType ?? 'application/json';
      headers['content-length'] = Buffer.byteLength(req.body);
    }
    let bytes = 0;
    let done = false;
    const finish = (status: number, error?: string) => {
      if (done) return;
      done = true;
      resolve({ status, ms: performance.now() - t0, bytes, ...(error ? { error } : {}) });
    };
    const r = http.request(`${base}${req.path}`, { method: req.method, agent, headers }, (res) => {
      res.on('data', (chunk: Buffer) => { bytes += chunk.length; });
      res.on('end', () => finish(res.statusCode ?? 0));
      res.on('error', (err) => finish(res.statusCode ?? 0, err.message));
      res.on('aborted', () => finish(res.statusCode ?? 0, 'response aborted'));
    });
    r.on('error', (err: NodeJS.ErrnoException) => finish(-1, err.code ?? err.message));
    r.end(req.body);
  });
}

export function closeClient(): void {
  agent.destroy();
}
