import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { draftKey, dropDraftsOf, followDraftsOfOtherTabs, keepDraft, keptDraft } from './form-draft';
import { sessionStore } from './session';

const signInAs = (userId: number) =>
  sessionStore.setTokens(
    { access: `h.${btoa(JSON.stringify({ user_id: userId })).replace(/=+$/, '')}.s`, refresh: `r${userId}` },
    `${userId}@example.com`,
  );

// Another tab of the browser, as the channel sees it (decision 088).
const otherTab = new BroadcastChannel('innerwave.session-ended');
const heard: unknown[] = [];
otherTab.addEventListener('message', ({ data }) => heard.push(data));

const supportDraft = (person: number) => sessionStorage.getItem(draftKey('support', person));

describe('drafts across the tabs of a browser', () => {
  let stop: () => void;
  beforeAll(() => (stop = followDraftsOfOtherTabs()));
  afterAll(() => {
    stop();
    otherTab.close();
  });
  afterEach(() => {
    sessionStore.clear();
    sessionStorage.clear();
    heard.length = 0;
  });

  it('go from this tab when the person logs out in another, and another person’s stay', async () => {
    signInAs(8);
    keepDraft('support', { subject: 'Eight' });
    signInAs(7);
    keepDraft('support', { subject: 'Seven' });
    keepDraft('own-message.new.3', { message: 'I am calm.' });

    otherTab.postMessage({ person: 7, why: 'logout' });

    await vi.waitFor(() => expect(supportDraft(7)).toBeNull());
    expect(keptDraft('own-message.new.3', (kept) => kept)).toBeNull();
    expect(supportDraft(8)).not.toBeNull();
  });

  it('go too when the person deletes their account in another tab', async () => {
    signInAs(7);
    keepDraft('support', { subject: 'Seven' });
    otherTab.postMessage({ person: 7, why: 'account-deleted' });
    await vi.waitFor(() => expect(supportDraft(7)).toBeNull());
  });

  it('stay for any other end, or a message that is not one of ours', async () => {
    signInAs(9);
    keepDraft('support', { subject: 'Nine' });
    signInAs(7);
    keepDraft('support', { subject: 'Seven' });
    for (const message of [{ person: 7, why: 'expired' }, { person: '7', why: 'logout' }, 'signing-out', null])
      otherTab.postMessage(message);
    // Heard in the order told: once the last is, so were the others.
    otherTab.postMessage({ person: 9, why: 'logout' });
    await vi.waitFor(() => expect(supportDraft(9)).toBeNull());
    expect(keptDraft('support', (kept) => kept)).toEqual({ subject: 'Seven' });
  });

  it('are told to the other tabs, with why, when the person logs out here', async () => {
    signInAs(7);
    keepDraft('support', { subject: 'Seven' });
    dropDraftsOf(7, 'logout');
    expect(supportDraft(7)).toBeNull();
    await vi.waitFor(() => expect(heard).toEqual([{ person: 7, why: 'logout' }]));
  });
});
