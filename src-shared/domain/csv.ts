/**
 * RFC 4180 CSV cells that stay text when a spreadsheet opens them: a cell starting with = + - @
 * (or a tab or carriage return) would run as a formula ("CSV injection"), so it gets a leading
 * apostrophe; a phone number like +91 98... is left as is. Used by every export (leads, files).
 */
const PHONE_LIKE = /^[+-]?[\d\s().-]+$/;

export function neutraliseFormula(value: string): string {
  if (/^[=+\-@\t\r]/.test(value) && !PHONE_LIKE.test(value)) return `'${value}`;
  return value;
}

/** One cell: neutralised, then quoted when it holds a quote, a comma or a line break. */
export function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const v = neutraliseFormula(value);
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** One line of cells, ended by CRLF. */
export function csvLine(cells: readonly (string | number)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * The cells of one CSV line (RFC 4180 quoting: "a,b" and "say ""hi"""); null when a quote is left
 * open. Cells are not trimmed and no formula guard is undone: this reads what csvLine wrote, and
 * hand-made lists of URLs.
 */
export function parseCsvLine(line: string): string[] | null {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let cell = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) return null;
        cell += line.slice(i, q);
        if (line[q + 1] === '"') {
          cell += '"';
          i = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      // Text after a closing quote up to the comma belongs to the cell (lenient, as spreadsheets are).
      const comma = line.indexOf(',', i);
      cell += comma < 0 ? line.slice(i) : line.slice(i, comma);
      cells.push(cell);
      if (comma < 0) return cells;
      i = comma + 1;
    } else {
      const comma = line.indexOf(',', i);
      if (comma < 0) {
        cells.push(line.slice(i));
        return cells;
      }
      cells.push(line.slice(i, comma));
      i = comma + 1;
    }
  }
}
