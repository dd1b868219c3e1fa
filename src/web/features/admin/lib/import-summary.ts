import type { AdminCategory, MessagesFile } from '@shared/contract';
import { formatInteger } from '@shared/numbers';

/** One category of an import file against the library as it is: new, or replacing the messages it has. */
export interface ImportedCategory {
  name: string;
  /** Messages the category has now; null for a category the import adds. */
  before: number | null;
  after: number;
  /** A replaced category whose messages stay exactly as they are. */
  unchanged: boolean;
}

/** What an import will do, shown to staff before it does it (docs/product/content.md#admin-screens). */
export interface ImportSummary {
  categories: ImportedCategory[];
  added: number;
  replaced: number;
  /** Replaced categories that end with fewer messages than they have. */
  losing: ImportedCategory[];
  /** Messages of the replaced categories before and after. */
  messagesBefore: number;
  messagesAfter: number;
}

export function summarizeImport(file: MessagesFile, library: readonly AdminCategory[]): ImportSummary {
  // A name is one whatever its case, as the server matches it.
  const byName = new Map(library.map((category) => [category.name.toLowerCase(), category]));
  const categories = file.categories.map(({ name, messages }): ImportedCategory => {
    const current = byName.get(name.toLowerCase());
    const texts = current?.messages.map((message) => message.message_text);
    return {
      name,
      before: texts ? texts.length : null,
      after: messages.length,
      unchanged: !!texts && texts.length === messages.length && texts.every((text, i) => text === messages[i]),
    };
  });
  const replaced = categories.filter((category) => category.before !== null);
  return {
    categories,
    added: categories.length - replaced.length,
    replaced: replaced.length,
    losing: replaced.filter((category) => category.after < (category.before ?? 0)),
    messagesBefore: replaced.reduce((n, category) => n + (category.before ?? 0), 0),
    messagesAfter: replaced.reduce((n, category) => n + category.after, 0),
  };
}

const count = (n: number, one: string, many = `${one}s`) => `${formatInteger(n)} ${n === 1 ? one : many}`;
export const countCategories = (n: number) => count(n, 'category', 'categories');
export const countMessages = (n: number) => count(n, 'message');

/**
 * The first problem of a file the contract refuses, in words: a category's own names it ("Category 2 ("Calm"), …"),
 * as the list's own checks do ("Category names must be unique."); any other is said with its field, as the CLI
 * says it ("categories: This field is required.").
 */
export function describeFileIssues(
  issues: ReadonlyArray<{ code: string; path: readonly PropertyKey[]; message: string }>,
): string {
  const [first] = issues;
  if (!first) return '';
  const where = first.path.map(String).join('.');
  const text = where === '' || first.code === 'custom' ? first.message : `${where}: ${first.message}`;
  return issues.length > 1 ? `${text} (${count(issues.length - 1, 'more problem')})` : text;
}
