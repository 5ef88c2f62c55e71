// The answers last computed, kept for the same question asked again: a search typed again or paged, a
// misspelt name sent again in the next batch. lru-cache keeps them, the least recently used going first.
import { LRUCache } from 'lru-cache';

/**
 * What an entry costs besides its value's bytes (the key, the cache's slot, the value's objects): counted in
 * every entry's weight, so that thousands of small answers are bounded too.
 */
export const ENTRY_BYTES = 256;

/** Answers by key, kept up to `maxBytes` in all: each weighs `bytesOf(answer)` plus ENTRY_BYTES. */
export function recentAnswers<V extends object>(maxBytes: number, bytesOf: (answer: V) => number): LRUCache<string, V> {
  return new LRUCache<string, V>({ maxSize: maxBytes, sizeCalculation: (answer) => bytesOf(answer) + ENTRY_BYTES });
}
