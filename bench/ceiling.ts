// The benchmark's ceiling: plain Express 5 answering a fixed ~300-byte JSON body, nothing else, listening as
// Express's documentation has it. MESSAGE_CLASSES=made: the same app in a server that makes its requests and
// responses with the app's prototypes, as the service's does (bench/message-classes.ts compares the two).
import { createServer } from 'node:http';
import express from 'express';
import { messageClasses } from '../src/http/message-classes.js';

const body = {
  scientific_name: 'Tobamovirus tabaci',
  msl_version: 'MSL40',
  classification: { realm: 'Riboviria', kingdom: 'Orthornavirae', phylum: 'Kitrinoviricota', class: 'Alsuviricetes', order: 'Martellivirales', family: 'Virgaviridae', genus: 'Tobamovirus' },
  genome: { type: 'ssRNA(+)', size: '6.4 kb' },
  hosts: ['plants'],
};
const app = express();
app.get('/', (_req, res) => { res.json(body); });
const port = Number(process.env.PORT ?? 18701);
const host = process.env.HOST ?? '127.0.0.1';
if (process.env.MESSAGE_CLASSES === 'made') createServer(messageClasses(app), app).listen(port, host);
else app.listen(port, host);
