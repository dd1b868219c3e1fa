import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

// On a failure, prints what CI's log otherwise leaves out: the page as the test last saw it (the
// error-context attachment, an ARIA snapshot), and the server's warnings, errors and refused requests
// (4xx, 5xx) during the test: a page that ended up signed out shows which call was refused.
// CI keeps only its log, not test-results/.

const SNAPSHOT_LINES = 80;
const SERVER_LINES = 30;
const WARN = 40;

export default class FailureContextReporter implements Reporter {
  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === 'passed' || result.status === 'skipped') return;
    const lines = [`── failure context: ${test.titlePath().slice(1).join(' › ')} (attempt ${result.retry + 1})`];
    const context = result.attachments.find((attachment) => attachment.name === 'error-context' && attachment.path);
    if (context?.path) lines.push(...pageSnapshot(readLines(context.path)));
    lines.push(...serverTrouble(result.startTime.getTime(), result.startTime.getTime() + result.duration));
    console.log(lines.join('\n'));
  }
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n');
  } catch {
    return [];
  }
}

/** The page's ARIA snapshot: the attachment's YAML block, without the advice around it. */
function pageSnapshot(lines: string[]): string[] {
  const start = lines.indexOf('```yaml');
  if (start < 0) return [];
  const end = lines.indexOf('```', start + 1);
  return ['page:', ...lines.slice(start + 1, end < 0 ? undefined : end).slice(0, SNAPSHOT_LINES)];
}

interface LogEntry {
  level?: number;
  time?: number;
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
}

/**
 * The server's log lines at warn or above, and its requests answered 4xx or 5xx, between `from` and
 * `to` (pino: one JSON object a line; other tests' requests are among them, the server is shared).
 */
function serverTrouble(from: number, to: number): string[] {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) return [];
  const found: string[] = [];
  for (const line of readLines(path.join(dataDir, 'server.log'))) {
    let entry: LogEntry;
    try {
      entry = JSON.parse(line) as LogEntry;
    } catch {
      continue;
    }
    if ((entry.time ?? 0) < from || (entry.time ?? 0) > to) continue;
    const status = entry.res?.statusCode ?? 0;
    if ((entry.level ?? 0) >= WARN) found.push(line);
    else if (status >= 400)
      found.push(`${new Date(entry.time!).toISOString()} ${status} ${entry.req?.method} ${entry.req?.url}`);
  }
  return [
    `server warnings, errors and refused requests during the test: ${found.length}`,
    ...found.slice(-SERVER_LINES),
  ];
}
