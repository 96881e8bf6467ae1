/** The service's bucket rule, `[a-z0-9][a-z0-9.-]{0,49}`, anchored. */
export const BUCKET_PATTERN = /^[a-z0-9][a-z0-9.-]{0,49}$/;

export function isValidBucket(value: string): boolean {
  return BUCKET_PATTERN.test(value);
}
