import { join } from 'node:path';
import { LINK, linkUnavailable, withLinkServer } from '../../shared/link';
import { fmtS, type Row } from '../../shared/table';
import { receivedText } from '../uploads';
import { bestUploads } from './big-upload';

const SIZE = 200 * 1024 * 1024;
export const LINK_LABEL = `${LINK.rateMbit} Mbit/s + ${LINK.oneWayMs} ms`;

/** Round trips an upload on a new connection needs at the least: the connection, then the request's answer. */
const ROUND_TRIPS = 2;

/**
 * What the link itself allows for `bytes`: their time at its rate, plus the round trips. TCP/IP and
 * Ethernet headers (~4.5% of a full segment, counted by tbf) are not in it, so no sender reaches 1.00.
 */
export const linkFloorMs = (bytes: number) =>
  ((bytes * 8) / (LINK.rateMbit * 1_000_000)) * 1000 + ROUND_TRIPS * 2 * LINK.oneWayMs;

/**
 * The 200 MB upload over a shaped link (shared/link.ts: tbf at 200 Mbit/s each way, 20 ms each way):
 * the engine (hash + upload, in its child process) against `curl -F` of the same file through the same
 * link to the same server, best of 2 each, alternated, each run into a bucket of its own and its upload
 * counted by the server; and both against the link's own floor (bytes / rate + round trips).
 */
export async function linkBigUploadFigure(dir: string): Promise<Row[]> {
  const figure = `200 MB upload over ${LINK_LABEL}: engine time`;
  const why = linkUnavailable();
  if (why) return [skippedRow(figure, why)];
  return withLinkServer(join(dir, 'server'), 0, async (server) => {
    const { curl, engine } = await bestUploads(server, dir, SIZE, 2, (i) => `bench-${i}`);
    const ratio = engine.ms / curl.ms;
    const floorMs = linkFloorMs(engine.served.bytes);
    return [
      {
        figure,
        measured: `${fmtS(engine.ms)} (${receivedText(engine.served)})`,
        baseline: `curl -F ${fmtS(curl.ms)} (${receivedText(curl.served)})`,
        ratio: `${ratio.toFixed(3)}x curl's time`,
        target: '<= 1.05x',
        pass: ratio <= 1.05,
      },
      {
        figure: `200 MB upload over ${LINK_LABEL}: against the link's floor`,
        measured: `engine ${fmtS(engine.ms)}, curl ${fmtS(curl.ms)}`,
        baseline: `floor ${fmtS(floorMs)} (bytes received / ${LINK.rateMbit} Mbit/s + ${ROUND_TRIPS} round trips)`,
        ratio: `${(floorMs / engine.ms).toFixed(3)} of the floor's speed (curl ${(linkFloorMs(curl.served.bytes) / curl.ms).toFixed(3)})`,
        target: '-',
        pass: true,
      },
    ];
  });
}

/** A figure that cannot be measured on this machine, and why (one clear line in the table). */
export function skippedRow(figure: string, why: string): Row {
  return {
    figure,
    measured: `skipped: no shaped link (${why})`,
    baseline: '-',
    ratio: '-',
    target: '-',
    pass: true,
    skipped: true,
  };
}
