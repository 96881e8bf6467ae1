/** Documented values of the file-hosting API (section 8). The live values come from GET /me `pricing`. */
export const MAX_FILE_BYTES = 209_715_200;
export const MIN_BALANCE_TO_UPLOAD_PAISE = 5_000;
export const PRICE_PER_GB_MONTH_PAISE = 500;
export const GRACE_DAYS = 30;
export const FILE_API_REQUESTS_PER_MINUTE = 120;
/**
 * The app's own request budget for the file API: at most this many requests in any 60 s window (a sliding
 * window, as the service counts), a few under the service's 120 for arrival jitter; the Settings view may
 * raise it to 117, never to the limit itself.
 */
export const FILE_API_BUDGET_DEFAULT_PER_MINUTE = 115;
export const FILE_API_BUDGET_MAX_PER_MINUTE = 117;
export const PER_PAGE_DEFAULT = 25;
export const PER_PAGE_MAX = 100;
export const USAGE_DAYS_MIN = 1;
export const USAGE_DAYS_MAX = 90;

/** Knowledge-entry API (its section 8). */
export const KB_MAX_ENTRIES = 20;
export const KB_TITLE_MAX = 160;
export const KB_DESCRIPTION_MAX = 2_000;
export const KB_REQUESTS_PER_MINUTE = 60;
export const KB_API_BUDGET_DEFAULT_PER_MINUTE = 55;

/** Lead webhook delivery rules. */
export const WEBHOOK_TIMEOUT_MS = 8_000;
export const WEBHOOK_RETRY_DELAYS_SECONDS = [60, 300] as const;
