import type { FastifyInstance } from 'fastify';
import { DAY_MS, formatIstDate } from '../../../../src-shared/domain/ist-time';
import { USAGE_DAYS_MAX, USAGE_DAYS_MIN } from '../../../../src-shared/domain/limits';
import { callerOf } from '../auth';
import { sendFailure } from '../failure';
import type { Hosting } from '../hosting';
import { intParam } from './query';

export const USAGE_DAYS_DEFAULT = 30;

export function registerUsage(api: FastifyInstance, hosting: Hosting): void {
  api.get('/usage', async (request, reply) => {
    const client = callerOf(request);
    const days = intParam(request.query as Record<string, unknown>, 'days', {
      default: USAGE_DAYS_DEFAULT,
      min: USAGE_DAYS_MIN,
      max: USAGE_DAYS_MAX,
      outOfRange: 'refuse',
    });
    if ('code' in days) return sendFailure(request, reply, days);
    // The last `days` IST days before today: today's snapshot is written at the coming midnight.
    const from = formatIstDate(hosting.ctx.clock.now() - days.value * DAY_MS);
    const rows = hosting.snapshots.since(client.id, from);
    return { data: rows, meta: { days: days.value, count: rows.length } };
  });
}
