import type { FastifyInstance } from 'fastify';
import type { Account } from '../../../../src-shared/api/file-hosting';
import { ALLOWED_EXTENSIONS } from '../../../../src-shared/domain/extensions';
import { formatIstMinute } from '../../../../src-shared/domain/ist-time';
import { MAX_FILE_BYTES, MIN_BALANCE_TO_UPLOAD_PAISE } from '../../../../src-shared/domain/limits';
import { callerOf } from '../auth';
import type { Hosting } from '../hosting';
import { dailyRentPaise, GRACE_DAYS, GRACE_MS, monthlyEstimatePaise } from '../rent';

export function registerMe(api: FastifyInstance, hosting: Hosting): void {
  api.get('/me', async (request) => {
    const client = callerOf(request);
    const price = hosting.ctx.options.pricePerGbMonthPaise;
    const totals = hosting.files.totals(client.id);
    const since = client.arrears_paise > 0 ? client.arrears_since : null;
    const data: Account = {
      client: {
        id: client.id,
        name: client.name,
        status: client.status,
        default_bucket: client.default_bucket,
      },
      usage: {
        files_count: totals.files_count,
        bytes_used: totals.bytes_used,
        daily_rent_paise: dailyRentPaise(totals.bytes_used, price),
        monthly_estimate_paise: monthlyEstimatePaise(totals.bytes_used, price),
      },
      wallet: {
        balance_paise: client.balance_paise,
        min_balance_to_upload_paise: MIN_BALANCE_TO_UPLOAD_PAISE,
      },
      arrears: {
        paise: client.arrears_paise,
        since: since === null ? null : formatIstMinute(since),
        deadline: since === null ? null : formatIstMinute(since + GRACE_MS),
      },
      pricing: {
        per_gb_month_paise: price,
        max_file_bytes: MAX_FILE_BYTES,
        allowed_extensions: [...ALLOWED_EXTENSIONS],
        grace_days: GRACE_DAYS,
      },
    };
    return { data };
  });
}
