// Running a question's patterns cheaply. String.prototype.matchAll copies its pattern (through the
// pattern's species constructor) on every call, which costs several times the search itself over a
// question's few words, and reading one question runs a score of patterns; and most questions match none
// of a list of patterns, which one pass of them all together says.

/** Every match of a global pattern in a text. */
export function matches(re: RegExp, text: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.push(m);
    // an empty match would be found again at the same place
    if (m[0] === '') re.lastIndex += 1;
  }
  return out;
}

/** A pattern that matches where any of the patterns does (flags aside): whether any of them is worth running. */
export function anyOf(patterns: readonly RegExp[]): RegExp {
  return new RegExp(patterns.map((re) => `(?:${re.source})`).join('|'));
}
