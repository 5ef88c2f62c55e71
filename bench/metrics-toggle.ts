// Loaded by `npm run bench` (node --import) into a server started with METRICS=off: it wraps the server's
// request listener in http/metrics.ts's `metered`, switched on and off between runs, so that metrics on and
// off are measured in one process. Two server processes differ in throughput from one start to the next by
// more than the metrics cost (docs/measurements/serving.md); within one process that difference is gone.
// The bench switches with a request to $METERING_SWITCH + 'on' or 'off', answered here and never counted.
import http, { type RequestListener } from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import { metered } from '../src/http/metrics.js';

const SWITCH_PATH = process.env.METERING_SWITCH;
if (!SWITCH_PATH) throw new Error('bench/metrics-toggle: METERING_SWITCH (the path that switches metering) is not set');

const createServer = http.createServer;
http.createServer = ((options: http.ServerOptions, listener: RequestListener) => {
  const counted = metered(listener);
  let on = false;
  return createServer(options, (req, res) => {
    if (req.url?.startsWith(SWITCH_PATH)) {
      on = req.url === `${SWITCH_PATH}on`;
      res.writeHead(204).end();
    } else if (on) {
      counted(req, res);
    } else {
      listener(req, res);
    }
  });
}) as typeof http.createServer;
// server.ts imports createServer by name: this makes that binding see the wrapper
syncBuiltinESMExports();
