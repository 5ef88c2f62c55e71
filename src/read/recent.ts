// The answers last computed, kept for the same question asked again: a search typed again or paged, a
// misspelt name sent again in the next batch.

/**
 * What an entry costs besides its value's bytes (the key, the map's slot, the value's objects): a weight in
 * bytes counts it, so that thousands of small answers are bounded too.
 */
export const ENTRY_BYTES = 256;

/**
 * Values by key, the last used kept up to about `capacity` in weight (the bytes a ranking or a page holds
 * plus ENTRY_BYTES, or 1 a list of suggestions). Two generations: when the young one holds half the capacity
 * it becomes the old one and the old one goes, and a value used from the old one moves to the young one; so
 * the last capacity / 2 to capacity of weight used are kept, and a get or a set costs a map operation or two.
 * (One map with its least recently used entry deleted past the cap finds that entry by iterating from the
 * map's start, over every slot deleted before it: in a batch of unknown names that cost as much as resolving
 * the rest.)
 */
export class Recent<V> {
  private young = new Map<string, V>();
  private old = new Map<string, V>();
  private youngWeight = 0;

  constructor(private readonly capacity: number, private readonly weigh: (value: V) => number = () => 1) {}

  get(key: string): V | undefined {
    const known = this.young.get(key);
    if (known !== undefined) return known;
    const older = this.old.get(key);
    if (older !== undefined) this.set(key, older);
    return older;
  }

  set(key: string, value: V): void {
    const weight = this.weigh(value);
    if (this.young.size > 0 && this.youngWeight + weight > this.capacity / 2) {
      this.old = this.young;
      this.young = new Map();
      this.youngWeight = 0;
    }
    this.young.set(key, value);
    this.youngWeight += weight;
  }
}
