/** A poll run every `intervalMs` once started; calls while one runs share it. */
export abstract class Poller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<boolean> | undefined;

  protected abstract poll(): Promise<boolean>;

  constructor(private readonly intervalMs: number) {}

  /** Polls once; true when what it follows changed. */
  refresh(): Promise<boolean> {
    this.running ??= this.poll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.refresh(), this.intervalMs);
    this.timer.unref();
    void this.refresh();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
