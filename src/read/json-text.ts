// JSON made of JSON text already held (stored documents, kept pages of results): what is sent as the bytes
// it is stored as is never parsed to be serialised again. Each function gives the bytes JSON.stringify would.

/** The start of JSON.stringify({ ...head, [key]: value }), up to the value. */
export function openingWith(head: object, key: string): string {
  const opening = JSON.stringify(head);
  return `${opening.slice(0, -1)}${opening === '{}' ? '' : ','}${JSON.stringify(key)}:`;
}

const COMMA = Buffer.from(',');
const CLOSE_OBJECT = Buffer.from('}');

/** JSON.stringify({ ...head, [key]: value }) for a value given as its JSON text. */
export function withJsonField(head: object, key: string, value: Buffer): Buffer {
  return Buffer.concat([Buffer.from(openingWith(head, key)), value, CLOSE_OBJECT]);
}

/** The JSON array of items given as their JSON text. */
export function jsonArray(items: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from('[')];
  items.forEach((item, i) => parts.push(...(i > 0 ? [COMMA, item] : [item])));
  parts.push(Buffer.from(']'));
  return Buffer.concat(parts);
}

/**
 * JSON.stringify({ ...doc, ...extra }) for an object doc given as its JSON text, which has none of extra's
 * fields (else the spread would replace them in place): extra's fields follow the document's.
 */
export function extendedJson(doc: Buffer, extra: object): Buffer {
  const tail = JSON.stringify(extra);
  if (tail === '{}') return doc;
  const fields = doc.length > 2;  // not {}
  return Buffer.concat([doc.subarray(0, doc.lastIndexOf(0x7d)), Buffer.from(fields ? `,${tail.slice(1)}` : tail.slice(1))]);
}
