import { describe, expect, it } from 'vitest';
import { connectWsCore, type LinkState, WS_RECONNECT_BACKOFF } from '../../src-renderer/api/ws-core';
import { backoffDelayMs } from '../../src-shared/domain/backoff';

// The renderer's WebSocket reconnect waits by the core's own delay function (src-shared), on a socket and
// timer the test drives: no browser, no server, no wall clock.

class FakeSocket {
  static made: FakeSocket[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((m: { data: unknown }) => void) | null = null;
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {
    FakeSocket.made.push(this);
  }
  send(): void {}
  open(): void {
    this.readyState = 1;
    this.onopen?.();
  }
  drop(): void {
    this.readyState = 3;
    this.onclose?.();
  }
}

describe('WebSocket reconnect', () => {
  it('waits by the shared backoff (jittered, growing, capped) and starts over once a socket opens', () => {
    FakeSocket.made = [];
    const timers: { run: () => void; ms: number }[] = [];
    const draws = [0, 1, 0.5, 0, 1, 1, 1, 0.25];
    let d = 0;
    const random = () => draws[d++ % draws.length]!;
    const links: LinkState[] = [];
    connectWsCore('http://127.0.0.1:9', 'tok', (s) => links.push(s), {
      WebSocket: FakeSocket as unknown as new (url: string, protocols: string[]) => WebSocket,
      setTimeout: (run, ms) => timers.push({ run, ms }),
      random,
    });
    expect(FakeSocket.made[0]!.url).toBe('ws://127.0.0.1:9/ws');

    // Seven drops in a row, each reconnect scheduled by the timer the test then runs.
    for (let i = 0; i < 7; i++) {
      FakeSocket.made.at(-1)!.drop();
      timers.at(-1)!.run();
    }
    const waits = timers.map((t) => t.ms);
    // 250 ms doubling to the 5 s cap, each between half and all of it as the draw says.
    expect(waits).toEqual([125, 500, 750, 1_000, 4_000, 5_000, 5_000]);
    d = 0;
    expect(waits).toEqual(
      waits.map((_, i) => backoffDelayMs(i + 1, WS_RECONNECT_BACKOFF, undefined, random)),
    );

    // Open again: the next drop waits the first interval, not the capped one.
    FakeSocket.made.at(-1)!.open();
    d = 0;
    FakeSocket.made.at(-1)!.drop();
    expect(timers.at(-1)!.ms).toBe(125);
    expect(links.slice(-3)).toEqual(['connecting', 'open', 'closed']);
    expect(FakeSocket.made).toHaveLength(8);
  });
});
