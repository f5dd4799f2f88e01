import type { FabricInfo, Features, Snapshot } from './api-types.ts';
import { padEnd } from './format.ts';
import type { ViewState } from './state.ts';

/** How a line is shown on a colour terminal; ignored when stdout is not a TTY. */
export type LineStyle = 'plain' | 'title' | 'heading' | 'hot' | 'warning' | 'footer';

export interface ScreenLine {
  text: string;
  style: LineStyle;
}

export interface ScreenSize {
  width: number;
  height: number;
}

export interface RenderInput {
  url: string;
  state: ViewState;
  fabric: FabricInfo | null;
  features: Features | null;
  /** The newest answers; kept on screen (marked) while the server does not answer. */
  snapshot: Snapshot | null;
  /** Why the last request failed, when it did. */
  error: string | null;
  snapshotAtMs: number | null;
  nowMs: number;
  /** One screen printed and gone (--once): no key footer. */
  once?: boolean;
}

/** A line of exactly `width` columns. */
export const line = (text: string, width: number, style: LineStyle = 'plain'): ScreenLine => ({
  text: padEnd(text, width),
  style,
});

/** Left text and right text on one line; the left is cut first. */
export function spread(left: string, right: string, width: number): string {
  const room = Math.max(0, width - [...right].length - 1);
  return `${padEnd(left, room)} ${right}`;
}
