import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Code comments and the docs point at docs/ by file and heading (docs/product/README.md): a heading
// renamed or a file moved leaves them pointing nowhere, which no reader notices until they follow one.

const ROOT = path.resolve(import.meta.dirname, '..');
const SEARCHED = ['README.md', 'docs', 'src', 'scripts', 'bench', 'build', 'e2e', 'eslint'];
const TEXT_FILE = /\.(md|ts|tsx|mjs|js|css|html)$/;

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, each space a hyphen. */
function headingAnchor(heading: string): string {
  return heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function filesUnder(relative: string): string[] {
  const absolute = path.join(ROOT, relative);
  if (!statSync(absolute).isDirectory()) return [relative];
  return readdirSync(absolute, { withFileTypes: true }).flatMap((entry) =>
    entry.name === 'node_modules' || entry.name.startsWith('.')
      ? []
      : entry.isDirectory()
        ? filesUnder(path.join(relative, entry.name))
        : TEXT_FILE.test(entry.name)
          ? [path.join(relative, entry.name)]
          : [],
  );
}

const anchorsByFile = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let anchors = anchorsByFile.get(file);
  if (!anchors) {
    anchors = new Set();
    const seen = new Map<string, number>();
    let fenced = false;
    for (const line of readFileSync(path.join(ROOT, file), 'utf8').split('\n')) {
      if (line.startsWith('```')) fenced = !fenced;
      const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
      if (!heading) continue;
      const anchor = headingAnchor(heading[1] ?? '');
      const count = seen.get(anchor) ?? 0;
      seen.set(anchor, count + 1);
      anchors.add(count ? `${anchor}-${count}` : anchor);
    }
    anchorsByFile.set(file, anchors);
  }
  return anchors;
}

/** What is wrong with a reference to `target` (a path from the root) and its `#anchor`, if anything. */
function brokenReference(target: string, anchor: string | undefined): string | undefined {
  const absolute = path.join(ROOT, target);
  if (/^docs\/decisions\/\d{3}$/.test(target))
    return readdirSync(path.dirname(absolute)).some((name) => name.startsWith(`${path.basename(target)}-`))
      ? undefined
      : 'no such decision';
  if (!existsSync(absolute)) return 'no such file';
  if (anchor && target.endsWith('.md') && !anchorsOf(target).has(anchor)) return `no heading #${anchor}`;
  return undefined;
}

/** Every reference to docs/ in the repository that points at no file or no heading. */
function brokenReferences(): string[] {
  const found: string[] = [];
  for (const file of SEARCHED.flatMap(filesUnder)) {
    readFileSync(path.join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        const references: { target: string; anchor: string | undefined }[] = [];
        // docs/product/screens.md#home, docs/decisions/020-….md, docs/decisions/020, from anywhere.
        for (const match of line.matchAll(
          /(?<![\w/.-])(?:\.\.\/)*(docs\/(?:[\w.-]+\/)*(?:\d{3}(?![\w-])|[\w.-]+\.md))(?:#([\w-]+))?/g,
        ))
          references.push({ target: match[1] ?? '', anchor: match[2] });
        // screens.md#home: a page of docs/product, named alone.
        for (const match of line.matchAll(/(?<![\w/.-])([a-z-]+\.md)#([\w-]+)/g))
          references.push({ target: `docs/product/${match[1]}`, anchor: match[2] });
        // A link of a markdown page: [text](../decisions/020-….md#anchor), [text](#anchor).
        if (file.endsWith('.md'))
          for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
            const [target = '', anchor] = (match[1] ?? '').split('#');
            if (/^[a-z]+:/.test(target)) continue;
            references.push({ target: target ? path.join(path.dirname(file), target) : file, anchor });
          }
        for (const { target, anchor } of references) {
          const problem = brokenReference(target, anchor);
          if (problem) found.push(`${file}:${index + 1}: ${target}${anchor ? `#${anchor}` : ''}: ${problem}`);
        }
      });
  }
  return [...new Set(found)];
}

describe('references to the docs', () => {
  it('name headings by GitHub’s anchors', () => {
    expect(headingAnchor('Plan & billing')).toBe('plan--billing');
    expect(headingAnchor("Downloading one's data")).toBe('downloading-ones-data');
    expect(headingAnchor('`npm start` and e-mail')).toBe('npm-start-and-e-mail');
  });

  it('point at files and headings that exist', () => {
    expect(brokenReferences()).toEqual([]);
  });
});
