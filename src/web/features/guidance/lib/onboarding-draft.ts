import { GUIDANCE_GOALS, SESSION_MINUTES, type GoalId, type SessionMinutes } from '@shared/contract/portal-plain';
import { draftKey } from '@web/lib/form-draft';
import { sessionStore } from '@web/lib/session';

// The onboarding as the person is answering it, kept for the tab (sessionStorage) so a reload resumes at
// the same step with the same answers (docs/product/guidance.md#onboarding). Cleared once the answers
// are saved or the onboarding is skipped, or the person logs out; one draft per person, so another account in the
// tab never finds it. Read without a schema: the welcome page loads no zod.

export interface OnboardingAnswers {
  goals: GoalId[];
  free_text: string;
  headphones: boolean | null;
  session_minutes: SessionMinutes | null;
}

export interface OnboardingDraft {
  step: number;
  answers: OnboardingAnswers;
}

export const ONBOARDING_STEP_COUNT = 3;

const key = () => draftKey('onboarding', sessionStore.get().id ?? 'anonymous');

const GOAL_IDS = new Set<string>(GUIDANCE_GOALS.map((goal) => goal.id));

/** The draft kept for this tab, or null when there is none or it is not one this page wrote. */
export function readOnboardingDraft(): OnboardingDraft | null {
  let raw: unknown;
  try {
    raw = JSON.parse(sessionStorage.getItem(key()) ?? 'null');
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object') return null;
  const { step, answers } = raw as Partial<Record<keyof OnboardingDraft, unknown>>;
  if (typeof step !== 'number' || !Number.isInteger(step) || step < 0 || step >= ONBOARDING_STEP_COUNT) return null;
  if (!answers || typeof answers !== 'object') return null;
  const { goals, free_text, headphones, session_minutes } = answers as Record<string, unknown>;
  if (!Array.isArray(goals) || !goals.every((goal) => typeof goal === 'string' && GOAL_IDS.has(goal))) return null;
  // Any length: the form keeps a text over its limit whole and says so there (its length in UTF-16 units here
  // dropped the draft of a text of emoji well within it).
  if (typeof free_text !== 'string') return null;
  if (headphones !== null && typeof headphones !== 'boolean') return null;
  if (session_minutes !== null && !(SESSION_MINUTES as readonly unknown[]).includes(session_minutes)) return null;
  return {
    step,
    answers: {
      goals: [...new Set(goals as GoalId[])],
      free_text,
      headphones,
      session_minutes: session_minutes as SessionMinutes | null,
    },
  };
}

export function writeOnboardingDraft(draft: OnboardingDraft): void {
  try {
    sessionStorage.setItem(key(), JSON.stringify(draft));
  } catch {
    // Storage full or refused (private mode): the onboarding still works, a reload starts it over.
  }
}

export function clearOnboardingDraft(): void {
  try {
    sessionStorage.removeItem(key());
  } catch {
    // Nothing was kept.
  }
}
