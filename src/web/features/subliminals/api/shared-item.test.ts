import { afterEach, describe, expect, it } from 'vitest';
import { releaseServedShared, servedSharedForPage, SHARED_DATA_ID } from './shared-item';

const item = {
  kind: 'messages' as const,
  name: 'Steady mornings',
  messages: ['I trust my own judgement.'],
  shared_at: '2026-12-01T08:00:00Z',
};

function putDataBlock(served: unknown) {
  const block = document.createElement('script');
  block.type = 'application/json';
  block.id = SHARED_DATA_ID;
  block.textContent = JSON.stringify(served);
  document.body.append(block);
}

afterEach(() => {
  releaseServedShared();
  document.body.replaceChildren();
});

// The SPA's first render is a transition that React starts over when an update comes first: the page's
// state is then made again, and must start from the same data, not read the link.
describe('what the document held, for the SPA page', () => {
  it('is the same for a render started over, and gone once the page is on screen', () => {
    putDataBlock({ status: 'ready', item });
    expect(servedSharedForPage()).toEqual({ status: 'ready', item });
    expect(document.getElementById(SHARED_DATA_ID)).toBeNull();
    expect(servedSharedForPage()).toEqual({ status: 'ready', item });
    releaseServedShared();
    expect(servedSharedForPage()).toBeUndefined();
  });

  it('is what a new document holds, not what an earlier one did', () => {
    putDataBlock({ status: 'ready', item });
    servedSharedForPage();
    putDataBlock({ status: 'gone' });
    expect(servedSharedForPage()).toEqual({ status: 'gone' });
  });
});
