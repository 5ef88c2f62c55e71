// A plain static file server over a folder, as a bundle store is served (any web server or object store
// would do): GET with Content-Length, 404 for a missing file. A test can have it cut a file's transfer short
// after part of it (the connection dropped, the length announced in full), or stop answering.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';

export interface StaticFiles {
  base: string;
  /** Paths asked for so far, in order. */
  asked: string[];
  /** Cuts every transfer of a path ending with `suffix` after `bytes` bytes (null: no more cuts). */
  cut(suffix: string | null, bytes?: number): void;
  close(): Promise<void>;
}

export async function serveFiles(root: string, host = '127.0.0.1', port = 0): Promise<StaticFiles> {
  let cutting: { suffix: string; bytes: number } | null = null;
  const asked: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?', 1)[0]!);
    asked.push(path);
    const file = join(root, normalize(path));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const size = statSync(file).size;
    res.writeHead(200, { 'Content-Length': size, 'Content-Type': 'application/octet-stream' });
    if (cutting && path.endsWith(cutting.suffix)) {
      createReadStream(file, { start: 0, end: Math.min(size, cutting.bytes) - 1 })
        .on('end', () => res.socket?.destroy())
        .pipe(res, { end: false });
      return;
    }
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return {
    base: `http://${host}:${(server.address() as AddressInfo).port}`,
    asked,
    cut(suffix, bytes = 0) {
      cutting = suffix === null ? null : { suffix, bytes };
    },
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
