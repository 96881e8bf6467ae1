/** The documented allow-list (file-hosting API, section 8). GET /me `pricing.allowed_extensions` is authoritative when online. */
export const ALLOWED_EXTENSIONS = [
  'pdf',
  'doc',
  'docx',
  'odt',
  'xls',
  'xlsx',
  'ods',
  'ppt',
  'pptx',
  'txt',
  'json',
  'mp3',
  'wav',
  'm4a',
  'aac',
  'mp4',
  'mkv',
  'mov',
  'wmv',
  'avi',
  'webm',
  '3gp',
  'png',
  'jpg',
  'jpeg',
  'gif',
  'ico',
  'webp',
  'tiff',
  'psd',
  'bmp',
  'svg',
  'ai',
  'ttf',
  'eot',
  'otf',
  'woff',
  'woff2',
] as const;

export type AllowedExtension = (typeof ALLOWED_EXTENSIONS)[number];

const MIME_BY_EXTENSION: Record<AllowedExtension, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  odt: 'application/vnd.oasis.opendocument.text',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  txt: 'text/plain',
  json: 'application/json',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  mp4: 'video/mp4',
  mkv: 'video/x-matroska',
  mov: 'video/quicktime',
  wmv: 'video/x-ms-wmv',
  avi: 'video/x-msvideo',
  webm: 'video/webm',
  '3gp': 'video/3gpp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  ico: 'image/vnd.microsoft.icon',
  webp: 'image/webp',
  tiff: 'image/tiff',
  psd: 'image/vnd.adobe.photoshop',
  bmp: 'image/bmp',
  svg: 'image/svg+xml',
  ai: 'application/postscript',
  ttf: 'font/ttf',
  eot: 'application/vnd.ms-fontobject',
  otf: 'font/otf',
  woff: 'font/woff',
  woff2: 'font/woff2',
};

/** The extension of a file name, lower-cased, without the dot; '' when there is none. */
export function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  if (dot <= 0 || dot === base.length - 1) return '';
  return base.slice(dot + 1).toLowerCase();
}

export function isAllowedExtension(ext: string, allowList: readonly string[] = ALLOWED_EXTENSIONS): boolean {
  return allowList.includes(ext.toLowerCase());
}

export function mimeForExtension(ext: string): string {
  return MIME_BY_EXTENSION[ext.toLowerCase() as AllowedExtension] ?? 'application/octet-stream';
}
