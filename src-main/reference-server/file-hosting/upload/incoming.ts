import type { UploadFields } from './checks';

/** An upload whose bytes sit in the temp file, not yet checked against the fields or stored. */
export interface Incoming {
  fields: UploadFields;
  /** The file's own name: the part's filename or the URL's last segment. */
  sourceName: string;
  size: number;
  md5: string;
}
