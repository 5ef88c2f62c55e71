// The answer cache of POST /ai/query: an LRU keyed by the build id and the normalised question, so a rebuilt data
// set never serves an answer computed from the previous one, and "What is TMV?" and "what is tmv" share an entry.
// A Map keeps insertion order, so re-inserting on every hit makes its first key the least recently used. (The
// lru-cache package in node_modules is only a dev dependency of mocha's glob: a production install lacks it.)

export class AnswerCache<V> {
  private readonly entries = new Map<string, V>();
  private hits = 0;
  private misses = 0;

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`answer cache: max must be a positive integer, got ${max}`);
  }

  private static key(buildId: string, question: string): string {
    return `${buildId}\u0000${question}`;
  }

  get(buildId: string, question: string): V | undefined {
    const key = AnswerCache.key(buildId, question);
    const value = this.entries.get(key);
    if (value === undefined) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(buildId: string, question: string, value: V): void {
    const key = AnswerCache.key(buildId, question);
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  stats(): { size: number; max: number; hits: number; misses: number; hit_rate: number | null } {
    const asked = this.hits + this.misses;
    return { size: this.entries.size, max: this.max, hits: this.hits, misses: this.misses, hit_rate: asked ? Number((this.hits / asked).toFixed(4)) : null };
  }
}
