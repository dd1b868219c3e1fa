import type { ExportFormat } from '@shared/contract';

// The export of one's own messages (Pro; docs/product/api.md#saved-and-shared) as a file to keep or
// open elsewhere: TXT to read, CSV for spreadsheets, JSON for programs.

export interface ExportedCategory {
  name: string;
  messages: string[];
}

export interface ExportFile {
  body: string;
  contentType: string;
  fileName: string;
}

/** Line breaks within a text, as TXT keeps one message a line. */
const LINE_BREAKS = /\r\n|\r|\n/g;

/** TXT: one block a category, its name then its messages one a line; blocks apart by an empty line. */
function toText(categories: readonly ExportedCategory[]): string {
  return categories
    .map((category) =>
      [category.name, ...category.messages].map((line) => `${line.replace(LINE_BREAKS, ' ')}\n`).join(''),
    )
    .join('\n');
}

/**
 * A CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break, quotes doubled. A cell
 * a spreadsheet would read as a formula (starting with = + - @, a tab or a carriage return) gets a
 * leading apostrophe, so opening the file never runs what a message says.
 */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** CSV: a header, then one row a message (an empty category has no row); CRLF lines, a UTF-8 BOM for spreadsheets. */
function toCsv(categories: readonly ExportedCategory[]): string {
  const rows = [['category', 'message'], ...categories.flatMap((c) => c.messages.map((m) => [c.name, m]))];
  return `\uFEFF${rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('')}`;
}

const toJson = (categories: readonly ExportedCategory[]) =>
  `${JSON.stringify(
    categories.map(({ name, messages }) => ({ name, messages })),
    null,
    2,
  )}\n`;

const FORMATS: Record<ExportFormat, { write: (categories: readonly ExportedCategory[]) => string; type: string }> = {
  txt: { write: toText, type: 'text/plain' },
  csv: { write: toCsv, type: 'text/csv' },
  json: { write: toJson, type: 'application/json' },
};

/** The file of the person's categories in a format, named for the day (UTC) it was made. */
export function exportFile(
  categories: readonly ExportedCategory[],
  format: ExportFormat,
  now = new Date(),
): ExportFile {
  const { write, type } = FORMATS[format];
  return {
    body: write(categories),
    contentType: `${type}; charset=utf-8`,
    fileName: `innerwave-my-messages-${now.toISOString().slice(0, 10)}.${format}`,
  };
}
