// What the update job (build/update.ts) did, kept beside what it publishes (update-status.json) so that the
// servers, which scrape nothing else, can show it among their metrics: the outcome of its last run and how
// many runs ended each way.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

export const UPDATE_OUTCOMES = ['published', 'unchanged', 'refused', 'failed'] as const;
export type UpdateOutcome = typeof UPDATE_OUTCOMES[number];

const UpdateStatus = z.object({
  last: z.object({
    outcome: z.enum(UPDATE_OUTCOMES),
    at: z.string(),
    source: z.string(),
    release: z.string().nullable(),
    build_id: z.string().nullable(),
    /** One line: what was published, or why nothing was. */
    detail: z.string(),
  }),
  runs: z.record(z.enum(UPDATE_OUTCOMES), z.number().int().min(0)),
  /** The time of the last run that published, if any did. */
  last_published_at: z.string().nullable(),
});
export type UpdateStatus = z.infer<typeof UpdateStatus>;

/** The status from its text, or null when it is not one (a half-written or foreign file). */
export function parseUpdateStatus(text: string): UpdateStatus | null {
  try {
    const parsed = UpdateStatus.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function readUpdateStatus(path: string): UpdateStatus | null {
  try {
    return parseUpdateStatus(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}
