// Every match of a global pattern in a text. String.prototype.matchAll copies its pattern (through the
// pattern's species constructor) on every call, which costs several times the search itself over a
// question's few words, and reading one question runs a score of patterns.
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
