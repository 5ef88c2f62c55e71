// The answer cache of POST /ai/query: an LRU (lru-cache) keyed by the build id and the normalised question, so a
// rebuilt data set never serves an answer computed from the previous one, and "What is TMV?" and "what is tmv"
// share an entry. It counts its hits and misses for GET /ai/health.
import { LRUCache } from 'lru-cache';

export class AnswerCache<V extends NonNullable<unknown>> {
  private readonly entries: LRUCache<string, V>;
  private hits = 0;
  private misses = 0;

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`answer cache: max must be a positive integer, got ${max}`);
    this.entries = new LRUCache({ max });
  }

  private static key(buildId: string, question: string): string {
    return `${buildId}\u0000${question}`;
  }

  get(buildId: string, question: string): V | undefined {
    const value = this.entries.get(AnswerCache.key(buildId, question));
    if (value === undefined) this.misses += 1;
    else this.hits += 1;
    return value;
  }

  set(buildId: string, question: string, value: V): void {
    this.entries.set(AnswerCache.key(buildId, question), value);
  }

  stats(): { size: number; max: number; hits: number; misses: number; hit_rate: number | null } {
    const asked = this.hits + this.misses;
    return { size: this.entries.size, max: this.max, hits: this.hits, misses: this.misses, hit_rate: asked ? Number((this.hits / asked).toFixed(4)) : null };
  }
}
