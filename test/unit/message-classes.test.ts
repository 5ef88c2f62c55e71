// The server makes its requests and responses with the app's prototypes (http/message-classes.ts), so that
// Express has none to change; what they can do is Node's and Express's as before.
import { expect } from 'chai';
import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { messageClasses } from '../../src/http/message-classes.js';

describe('requests and responses made with the app\'s prototypes', function () {
  const app = express();
  let server: Server;
  let arrived: { request: boolean; response: boolean } | null = null;
  let base: string;
  let classes: ReturnType<typeof messageClasses>;

  before(async () => {
    app.get('/echo', (req, res) => {
      res.status(201).json({ query: req.query, ip: typeof req.ip, body: req.readable, instance: req instanceof IncomingMessage && res instanceof ServerResponse });
    });
    classes = messageClasses(app);
    server = createServer(classes, (req, res) => {
      arrived = { request: Object.getPrototypeOf(req) === app.request, response: Object.getPrototypeOf(res) === app.response };
      void app(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('are subclasses of Node\'s classes, whose prototypes stand for the app\'s own', () => {
    expect(Object.getPrototypeOf(classes.IncomingMessage)).to.equal(IncomingMessage);
    expect(Object.getPrototypeOf(classes.ServerResponse)).to.equal(ServerResponse);
    expect(app.request).to.equal(classes.IncomingMessage.prototype);
    expect(app.response).to.equal(classes.ServerResponse.prototype);
    // what Express's own prototypes carried: the app, and its request and response methods beneath
    expect(app.response.app).to.equal(app);
    expect(app.response.json).to.equal(express.response.json);
    expect(Object.getPrototypeOf(app.request)).to.equal(express.request);
  });

  it('arrive with them already, before Express sees them', async () => {
    await fetch(`${base}/echo`);
    expect(arrived).to.deep.equal({ request: true, response: true });
  });

  it('work as Node\'s and Express\'s own: query, status, JSON, streams, instanceof', async () => {
    const res = await fetch(`${base}/echo?a=1`);
    expect(res.status).to.equal(201);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    expect(await res.json()).to.deep.equal({ query: { a: '1' }, ip: 'string', body: true, instance: true });
  });

  it('answer a request with a body and keep the connection for the next', async () => {
    const first = await fetch(`${base}/echo`, { method: 'POST', body: 'x'.repeat(100_000) });
    expect(first.status).to.equal(404);
    await first.arrayBuffer();
    expect((await fetch(`${base}/echo`)).status).to.equal(201);
  });
});
