import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/** Reads of at least 1 MiB: fewer syscalls and chunks for the same bytes (the hasher reads the same way). */
export const UPLOAD_CHUNK_BYTES = 1024 * 1024;

export interface MultipartFile {
  path: string;
  /** Bytes to send; the file must still have exactly this many, or the body fails with FileChangedError. */
  size: number;
  /** The filename in the part header; the service takes the extension from it. */
  filename: string;
  /** Read from this open file instead of opening `path` (the caller checked what it opened); not closed here. */
  handle?: FileHandle;
  /**
   * Read into a few buffers taken in turn (with `handle`), not a new one per read: for 200 MB, 200 fresh
   * MiB the kernel must fault in and zero, and the collector free, about half of what sending cost in CPU
   * (docs/benchmarks.md). Only for a body whose bytes the service checks against an md5 sent with them:
   * a consumer that held more chunks than RECYCLED_CHUNKS - 1 would send overwritten bytes, which the
   * service then refuses (HASH-MISMATCH) rather than store.
   */
  recycle?: boolean;
}

/**
 * Buffers taken in turn by a recycled read. What holds a chunk after it was handed on: undici's write
 * until the socket drains (it asks for the next chunk only then, a chunk being larger than the socket's
 * high-water mark), and Readable.from's one chunk ahead (http-json.ts): two; the third is margin.
 */
export const RECYCLED_CHUNKS = 4;

export interface MultipartBody {
  contentType: string;
  /** Known before a byte is read, so the server can refuse an oversized body early. */
  contentLength: number;
  /** Preamble, the file in chunks straight from disk, epilogue: never the whole file in memory. */
  stream(onFileBytes?: (sent: number) => void, pace?: Pace): AsyncGenerator<Uint8Array>;
}

/**
 * A rate limit in front of the socket (sync/engine/bandwidth.ts): the file's bytes are handed on in
 * slices of `sliceBytes`, each after `take` allows it, so what is written is what the limit allows.
 */
export interface Pace {
  sliceBytes(): number;
  take(bytes: number, signal?: AbortSignal): Promise<void>;
  signal?: AbortSignal;
}

const MD5_HEX_LENGTH = 32;

/**
 * The first `size` bytes of an open file, by positional reads. Not a stream of the handle: destroying
 * one closes the handle even with autoClose off (Node 20), and the caller still checks the handle after
 * the last read (upload-one.ts).
 */
async function* readHandle(handle: FileHandle, size: number, recycle: boolean): AsyncGenerator<Buffer> {
  const ring: Buffer[] = [];
  const ringBytes = Math.min(UPLOAD_CHUNK_BYTES, size);
  for (let turn = 0, position = 0; position < size; turn++) {
    const want = Math.min(UPLOAD_CHUNK_BYTES, size - position);
    let buffer: Buffer;
    if (recycle) {
      const slot = turn % RECYCLED_CHUNKS;
      ring[slot] ??= Buffer.allocUnsafeSlow(ringBytes);
      buffer = ring[slot].subarray(0, want);
    } else buffer = Buffer.allocUnsafe(want);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
  }
}

export class FileChangedError extends Error {
  readonly code = 'FILE-CHANGED';
}

/**
 * The md5 of the file's bytes as this body read them, sent after the file part: hashed on the way out,
 * not by a second read of the file (that read and its thread were ~12% of the engine's CPU in a loopback
 * upload, docs/benchmarks.md).
 */
export interface TrailingMd5 {
  field: string;
  /**
   * Told the md5 once every byte of the file was read, before the md5 (the body's last bytes) is sent:
   * a rejection fails the body (FILE-CHANGED), so the service never receives a whole body the caller
   * has disowned (a file written while it was read).
   */
  confirm(md5: string): Promise<void>;
}

/**
 * multipart/form-data of text fields (in order), one file part streamed from disk, and optionally an
 * md5 field after the file: its length is fixed (32 hex digits), so the Content-Length is still known.
 */
export function multipartBody(
  fields: ReadonlyArray<[string, string]>,
  file: MultipartFile,
  trailing?: TrailingMd5,
): MultipartBody {
  const boundary = `----AssetsSync${randomBytes(12).toString('hex')}`;
  let head = '';
  for (const [name, value] of fields) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  head +=
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; ${filenameParams(file.filename)}\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n';
  const preamble = Buffer.from(head, 'utf8');
  const trailingHead = trailing
    ? `\r\n--${boundary}\r\nContent-Disposition: form-data; name="${trailing.field}"\r\n\r\n`
    : '';
  const end = `\r\n--${boundary}--\r\n`;
  const epilogueLength = Buffer.byteLength(trailingHead + end) + (trailing ? MD5_HEX_LENGTH : 0);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength: preamble.length + file.size + epilogueLength,
    async *stream(onFileBytes, pace) {
      yield preamble;
      let sent = 0;
      // Each chunk is hashed before it is handed on: a recycled buffer overwritten while still unsent
      // (MultipartFile.recycle) then differs from the md5, and the service refuses it.
      const hash = trailing ? createHash('md5') : null;
      if (file.size > 0) {
        // Read up to the announced size; a file that shrank is caught below, one that grew by the md5
        // (or, hashed while sending, by the caller's look at the open file).
        const reader = file.handle
          ? readHandle(file.handle, file.size, file.recycle === true)
          : createReadStream(file.path, { start: 0, end: file.size - 1, highWaterMark: UPLOAD_CHUNK_BYTES });
        try {
          for await (const chunk of reader as AsyncIterable<Buffer>) {
            hash?.update(chunk);
            if (!pace) {
              sent += chunk.length;
              yield chunk;
              onFileBytes?.(sent);
              continue;
            }
            for (let at = 0; at < chunk.length; ) {
              const slice = chunk.subarray(at, at + pace.sliceBytes());
              await pace.take(slice.length, pace.signal);
              at += slice.length;
              sent += slice.length;
              yield slice;
              onFileBytes?.(sent);
            }
          }
        } finally {
          if (!file.handle) (reader as ReturnType<typeof createReadStream>).destroy();
        }
      }
      if (sent !== file.size) {
        throw new FileChangedError(`${file.path} has ${sent} bytes now, ${file.size} were announced`);
      }
      let md5 = '';
      if (trailing && hash) {
        md5 = hash.digest('hex');
        try {
          await trailing.confirm(md5);
        } catch (e) {
          throw new FileChangedError(e instanceof Error ? e.message : String(e));
        }
      }
      yield Buffer.from(trailingHead + md5 + end, 'utf8');
    },
  };
}

/**
 * The part's `filename` as browsers send it (RFC 7578 section 4.2, WHATWG HTML): the name in UTF-8, with
 * only `"`, CR and LF percent-escaped. No ASCII fallback and no `filename*`: RFC 7578 forbids `filename*`
 * in form data, and a parser that reads `filename` first (busboy, PHP) would keep the fallback, so
 * "Résumé.pdf" became "R_sum_.pdf" in the URL (docs/service-client.md, "File names").
 */
export function filenameParams(filename: string): string {
  const quoted = filename.replace(/[\r\n"]/g, (c) => (c === '"' ? '%22' : c === '\r' ? '%0D' : '%0A'));
  return `filename="${quoted}"`;
}
