/** The service's bucket rule, `[a-z0-9][a-z0-9.-]{0,49}`, anchored. */
export const BUCKET_PATTERN = /^[a-z0-9][a-z0-9.-]{0,49}$/;

/** The rule in words: every message that refuses a bucket name says it this way. */
export const BUCKET_RULE_MESSAGE =
  'A bucket name uses a-z, 0-9, dots and dashes, starts with a letter or digit, and has 50 characters at most.';

export function isValidBucket(value: string): boolean {
  return BUCKET_PATTERN.test(value);
}

/** The refusal of one name: the name, then the rule. */
export function invalidBucketMessage(name: string): string {
  return `"${name}" is not a bucket name. ${BUCKET_RULE_MESSAGE}`;
}
