import { describe, expect, it } from 'vitest';
import { summarizeImport } from './import-summary';

describe('summarizeImport', () => {
  it('takes a category the file names in another case for the one in the library, as the server does', () => {
    const library = [
      { id: 1, name: 'Calm', position: 0, messages: [{ id: 1, message_text: 'I am calm.', position: 0 }] },
    ];
    const summary = summarizeImport({ categories: [{ name: 'CALM', messages: ['I am calm.', 'I rest.'] }] }, library);
    expect(summary).toMatchObject({ added: 0, replaced: 1, messagesBefore: 1, messagesAfter: 2 });
    expect(summary.categories).toEqual([{ name: 'CALM', before: 1, after: 2, unchanged: false }]);
  });
});
