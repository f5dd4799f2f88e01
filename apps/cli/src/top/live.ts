import { emitKeypressEvents } from 'node:readline';
import type { TopClient } from './client.ts';
import { applyKey, type Keypress } from './keys.ts';
import { type RenderInput, renderScreen, tableRows } from './render.ts';
import { ENTER_SCREEN, LEAVE_SCREEN, plainText, screenSize, terminalFrame } from './screen.ts';
import { initialViewState, type ViewState } from './state.ts';

export interface LiveOptions {
  client: TopClient;
  url: string;
  intervalMs: number;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  /** The view to start with (`--unit`); default initialViewState. */
  initial?: ViewState | undefined;
}

/** What the screen is drawn from, apart from the view state. */
type Answers = Omit<RenderInput, 'url' | 'state' | 'nowMs'>;

/** The interactive view; when stdout is not a terminal, plain screens one after another (as `top -b`). */
export function runLive(options: LiveOptions): Promise<void> {
  const { client, stdin, stdout } = options;
  const tty = stdout.isTTY === true;
  const keys = stdin.isTTY === true;
  let state: ViewState = options.initial ?? initialViewState;
  const answers: Answers = { fabric: null, features: null, snapshot: null, snapshotAtMs: null, error: null };
  let timer: NodeJS.Timeout | undefined;
  let request = 0;
  let stopped = false;

  const size = () => screenSize(stdout, options.env);

  const draw = () => {
    if (stopped) return;
    const input: RenderInput = { url: options.url, state, nowMs: Date.now(), ...answers };
    const lines = renderScreen(input, size());
    stdout.write(tty ? terminalFrame(lines) : `${plainText(lines)}\n`);
  };

  const refresh = async () => {
    clearTimeout(timer);
    const mine = ++request;
    try {
      answers.features ??= await client.features();
      // The fabric's name is a nicety: without it the screen still shows the numbers.
      answers.fabric ??= await client.fabric().catch(() => null);
      const snapshot = await client.snapshot(state, tableRows(size(), answers.features), answers.features);
      // A key pressed meanwhile asked again; only the newest question's answer is drawn.
      if (mine !== request) return;
      Object.assign(answers, { snapshot, snapshotAtMs: Date.now(), error: null });
    } catch (error) {
      if (mine !== request) return;
      answers.error = error instanceof Error ? error.message : String(error);
    }
    draw();
    if (!stopped) timer = setTimeout(refresh, options.intervalMs);
  };

  return new Promise<void>((resolve) => {
    const onResize = () => {
      draw();
      void refresh();
    };
    const stop = () => {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      for (const [emitter, event, listener] of listeners) emitter.off(event, listener);
      if (keys) {
        stdin.setRawMode(false);
        stdin.pause();
      }
      restore();
      resolve();
    };
    const restore = () => {
      if (tty) stdout.write(LEAVE_SCREEN);
    };
    const onKey = (text: string | undefined, key: Keypress | undefined) => {
      const snapshot = answers.snapshot;
      const result = applyKey(state, key ?? { sequence: text }, {
        features: answers.features,
        history: snapshot?.history ?? null,
        shownTime: snapshot?.summary.time ?? null,
        pageRows: tableRows(size(), answers.features),
        moreLinks: snapshot?.moreLinks ?? false,
      });
      if (result.quit) return stop();
      state = result.state;
      draw();
      if (result.refetch) void refresh();
    };

    // Whatever ends the process, the terminal is left usable; a closed pipe (top | head) ends the view quietly.
    type Listener = [NodeJS.EventEmitter, string, Parameters<NodeJS.EventEmitter['on']>[1]];
    const listeners: Listener[] = [
      [process, 'exit', restore],
      [process, 'SIGINT', stop],
      [process, 'SIGTERM', stop],
      [stdout, 'resize', onResize],
      [stdout, 'error', stop],
      ...(keys ? [[stdin, 'keypress', onKey] as Listener] : []),
    ];
    if (tty) stdout.write(ENTER_SCREEN);
    if (keys) emitKeypressEvents(stdin);
    for (const [emitter, event, listener] of listeners) emitter.on(event, listener);
    if (keys) {
      stdin.setRawMode(true);
      stdin.resume();
    }
    // A pipe gets screens with answers only; a terminal shows at once that it is asking.
    if (tty) draw();
    void refresh();
  });
}
