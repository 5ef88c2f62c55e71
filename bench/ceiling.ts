// The benchmark's ceiling: plain Express 5 answering a fixed ~300-byte JSON body, nothing else.
import express from 'express';

const body = {
  scientific_name: 'Tobamovirus tabaci',
  msl_version: 'MSL40',
  classification: { realm: 'Riboviria', kingdom: 'Orthornavirae', phylum: 'Kitrinoviricota', class: 'Alsuviricetes', order: 'Martellivirales', family: 'Virgaviridae', genus: 'Tobamovirus' },
  genome: { type: 'ssRNA(+)', size: '6.4 kb' },
  hosts: ['plants'],
};
const app = express();
app.get('/', (_req, res) => { res.json(body); });
app.listen(Number(process.env.PORT ?? 18701), process.env.HOST ?? '127.0.0.1');
