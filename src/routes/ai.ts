// /ai: not built yet. Every operation of the group is in the contract (src/openapi.yaml); until its
// handlers land they answer 501 in the documented error shape.
import { Router } from 'express';
import { HttpError } from '../errors.js';
import type { DocSpec } from '../store.js';

/** Pre-rendered documents this group reads from memory. */
export const documents: DocSpec[] = [];

export function aiRouter(): Router {
  const router = Router();
  router.use((req) => {
    throw new HttpError(501, `${req.method} /ai${req.path} is not implemented yet`);
  });
  return router;
}
