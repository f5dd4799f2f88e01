/**
 * Changes sent to the API one after another, each to its end: a stop-then-start is never cut in
 * half by the next change, and a failed change does not hold back the ones after it. `onBusy`
 * hears true when the first change is queued and false when the last one has finished.
 */
export class ChangeQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  constructor(private readonly onBusy: (busy: boolean) => void) {}

  get busy(): boolean {
    return this.pending > 0;
  }

  run<T>(change: () => Promise<T>): Promise<T> {
    if (this.pending++ === 0) this.onBusy(true);
    const result = this.tail.then(change);
    this.tail = result.then(
      () => this.settle(),
      () => this.settle(),
    );
    return result;
  }

  private settle(): void {
    if (--this.pending === 0) this.onBusy(false);
  }
}
