// A fixed set of connections taken in turn: one waiting for a connection gets the next one given back,
// longest waiting first. The store keeps one per lane (store.ts).

export class ConnPool<C> {
  private readonly idle: C[];
  private readonly waiting: Array<(c: C) => void> = [];

  constructor(readonly all: readonly C[]) {
    this.idle = [...all];
  }

  acquire(): Promise<C> {
    const c = this.idle.pop();
    if (c !== undefined) return Promise.resolve(c);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(c: C): void {
    const next = this.waiting.shift();
    if (next) next(c);
    else this.idle.push(c);
  }
}
