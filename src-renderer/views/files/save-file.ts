/**
 * Saves text as a file through the page's own download: the headless shell's browser saves it to its
 * downloads, and Electron, which has no download handler set, asks where with its save dialog. One
 * path for both shells, so the platform needs no new ability.
 */
export function saveText(fileName: string, mime: string, text: string): void {
  saveBlob(fileName, new Blob([text], { type: `${mime};charset=utf-8` }));
}

/** Saves bytes (the statement's PDF) the same way. */
export function saveBytes(fileName: string, mime: string, bytes: Uint8Array): void {
  saveBlob(fileName, new Blob([bytes as BlobPart], { type: mime }));
}

function saveBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // The download has its own copy once started; the URL can go on the next turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
