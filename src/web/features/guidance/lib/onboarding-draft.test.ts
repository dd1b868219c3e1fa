import { afterEach, describe, expect, it } from 'vitest';
import { dropDraftsOf } from '@web/lib/form-draft';
import { sessionStore } from '@web/lib/session';
import { readOnboardingDraft, writeOnboardingDraft, type OnboardingDraft } from './onboarding-draft';

const signInAs = (userId: number) =>
  sessionStore.setTokens(
    { access: `h.${btoa(JSON.stringify({ user_id: userId })).replace(/=+$/, '')}.s`, refresh: `r${userId}` },
    `${userId}@example.com`,
  );

const draft: OnboardingDraft = {
  step: 1,
  answers: { goals: ['sleep'], free_text: 'I wake at night.', headphones: true, session_minutes: 10 },
};

describe('the onboarding draft', () => {
  afterEach(() => {
    sessionStore.clear();
    sessionStorage.clear();
  });

  it('goes with the person’s other drafts when they sign out in the tab, and another person’s stays', () => {
    signInAs(8);
    writeOnboardingDraft(draft);
    signInAs(7);
    writeOnboardingDraft(draft);
    expect(readOnboardingDraft()).toEqual(draft);
    dropDraftsOf(7, 'logout');
    expect(readOnboardingDraft()).toBeNull();
    signInAs(8);
    expect(readOnboardingDraft()).toEqual(draft);
  });
});
