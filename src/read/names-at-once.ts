// How many names the batches of POST /api/v1/resolve hold between them. A batch holds its answer's text until
// it is sent, and its resolutions, suggestions and their garbage meanwhile; fifty batches of 1,000 names
// resolved side by side (npm run bench:memory) held all of that at once, for no more names resolved a second:
// resolving is work on the main thread, and the batches only took turns. So a batch
// waits, first come first served, until the names in progress leave room for its own; one larger than the
// room runs when it is alone. Nothing is refused: a waiting batch holds only its request's names.

export class NamesAtOnce {
  private inProgress = 0;
  private readonly waiting: Array<{ names: number; start: () => void }> = [];

  constructor(readonly room: number) {}

  /** Waits for room for `names` names; the function it gives frees that room (call it once, in a finally). */
  async enter(names: number): Promise<() => void> {
    if (this.waiting.length === 0 && this.fits(names)) this.inProgress += names;
    // counted by startNext when its turn comes
    else await new Promise<void>((start) => this.waiting.push({ names, start }));
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.inProgress -= names;
      this.startNext();
    };
  }

  /** Batches waiting for room. */
  get queued(): number {
    return this.waiting.length;
  }

  private fits(names: number): boolean {
    return this.inProgress === 0 || this.inProgress + names <= this.room;
  }

  private startNext(): void {
    // in order of arrival: a large batch is not passed over for ever by small ones behind it
    while (this.waiting.length > 0 && this.fits(this.waiting[0]!.names)) {
      const next = this.waiting.shift()!;
      // counted now, so that the ones behind it see its names as in progress
      this.inProgress += next.names;
      next.start();
    }
  }
}
