import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Check } from 'lucide-react';
import type { GoalId, Onboarding, OnboardingWrite } from '@shared/contract';
import { GOAL_FREE_TEXT_MAX, GUIDANCE_GOALS, SESSION_MINUTES } from '@shared/contract/portal-plain';
import { typedTextRefusal } from '@shared/contract/plain';
import { Button } from '@web/components/ui/button';
import { SubmitButton } from '@web/components/ui/submit-button';
import { CharacterCount, characterLimit } from '@web/components/ui/character-count';
import { FieldError } from '@web/components/ui/input';
import { PlanLock } from '@web/components/plan-lock';
import { usePlan } from '@web/lib/plan';
import { clsx } from 'clsx';
import { useQuery } from '@tanstack/react-query';
import { programsQuery } from '../api/guidance';
import { goalsWithAProgram } from './hub-guidance';
import { ONBOARDING_STEP_COUNT, type OnboardingAnswers, type OnboardingDraft } from '../lib/onboarding-draft';

// The onboarding's three short steps (docs/product/screens.md#welcome): goals, headphones, session
// length. Every answer is optional; "Skip for now" saves nothing but the wish to skip.

export const answersOf = (onboarding: Onboarding | undefined): OnboardingAnswers => ({
  goals: onboarding?.goals ?? [],
  free_text: onboarding?.free_text ?? '',
  headphones: onboarding?.headphones ?? null,
  session_minutes: onboarding?.session_minutes ?? null,
});

const STEPS = ['What would you like from Innerwave?', 'Do you listen with headphones?', 'How long is a good session?'];
if (STEPS.length !== ONBOARDING_STEP_COUNT) throw new Error('ONBOARDING_STEP_COUNT must count the steps');

function Choice({
  pressed,
  onClick,
  children,
  role,
  tabbable = true,
}: {
  pressed: boolean;
  /** In a radio group only the chosen option (or the first) is in the Tab order. */
  tabbable?: boolean;
  onClick: () => void;
  children: ReactNode;
  /** 'radio' inside a radiogroup; otherwise a toggle button. */
  role?: 'radio';
}) {
  return (
    <button
      type="button"
      role={role}
      tabIndex={tabbable ? 0 : -1}
      {...(role === 'radio' ? { 'aria-checked': pressed } : { 'aria-pressed': pressed })}
      onClick={onClick}
      className={clsx(
        'inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-full border px-4 py-2 text-sm font-medium transition-colors',
        pressed
          ? 'border-accent-strong bg-accent/15 text-fg dark:border-accent'
          : 'border-line bg-surface text-fg-muted hover:border-fg/30 hover:text-fg',
      )}
    >
      {pressed ? <Check aria-hidden className="h-4 w-4 text-link" /> : null}
      {children}
    </button>
  );
}

/**
 * What a goal leads to on a plan without recommendations (Basic, Intermediate): a program about it, and only that,
 * since ranking the library's categories, messages and tracks from one's goals is Pro's recommendation (spec
 * decisions §8, decision 111). Said under the goals once the plan and the programs are known, naming the goals a
 * program is about, so that one chosen for more (Creativity, say) is chosen knowing it leads to none on this plan
 * (docs/decisions/117-a-visitors-returns-finished.md). On Pro, or while it cannot be told, nothing.
 */
function GoalsOnThisPlan() {
  const recommended = usePlan().has('recommendations');
  const programs = useQuery(programsQuery());
  if (recommended !== false || !programs.data) return null;
  const served = goalsWithAProgram(programs.data);
  return (
    <div className="mt-4 flex flex-col items-start gap-3 rounded-2xl border border-dashed border-line p-4 text-sm">
      <p className="text-fg-muted">
        {served.length > 0
          ? `On your plan, a goal leads to a program about it: ${new Intl.ListFormat('en').format(served.map((goal) => goal.label))} ${served.length === 1 ? 'has one' : 'have one'}. `
          : 'On your plan, a goal leads to a program about it, and no program is about one yet. '}
        Pro also recommends affirmations and tracks from your goals and your own words.
      </p>
      <PlanLock feature="recommendations" what="Personal recommendations" label="See recommendations" />
    </div>
  );
}

/** Arrow keys move between a radio group's options (the APG radio pattern, with buttons). */
function onRadioKeys(event: KeyboardEvent<HTMLDivElement>) {
  if (!['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp'].includes(event.key)) return;
  const radios = Array.from(event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="radio"]'));
  const index = radios.indexOf(document.activeElement as HTMLButtonElement);
  if (index < 0) return;
  event.preventDefault();
  const step = event.key === 'ArrowRight' || event.key === 'ArrowDown' ? 1 : -1;
  const next = radios[(index + step + radios.length) % radios.length];
  next?.focus();
  next?.click();
}

export function OnboardingForm({
  initial,
  stored,
  onSave,
  onSkip,
  onChange,
  saving,
  skipping = false,
}: {
  /** Where it starts: the answers saved (step 1), or the draft of this tab's earlier visit. */
  initial: OnboardingDraft;
  /** One's own words as saved: sent back as they are, they are not refused (decision 133). */
  stored?: string;
  onSave: (answers: OnboardingWrite) => void;
  /** Offered on the first visit only; later, Cancel is the way out. */
  onSkip?: () => void;
  /** Each step or answer changed, to keep the draft. */
  onChange?: (draft: OnboardingDraft) => void;
  saving: boolean;
  /** The save under way is the skip's: Skip waits on it (busy, the keyboard on it), Save or Next is unavailable. */
  skipping?: boolean;
}) {
  const [start] = useState(initial);
  const [step, setStep] = useState(start.step);
  const [answers, setAnswers] = useState(start.answers);
  const touched = useRef(false);
  useEffect(() => {
    // Not before the first change: what it shows then is what was saved or kept already.
    if (!touched.current && step === start.step && answers === start.answers) return;
    touched.current = true;
    onChange?.({ step, answers });
  }, [step, answers, start, onChange]);
  const headingId = useId();
  const freeTextId = useId();
  const freeText = useRef<HTMLTextAreaElement>(null);
  // The server reads one's own words as any typed text (docs/decisions/063-typed-text-shows-what-it-holds.md):
  // its refusal is said under the field, and the form goes no further until it is put right. Words saved before
  // that rule, sent back as they are beside new goals, are not refused, as the server does not refuse them
  // (docs/decisions/133-an-undo-keeps-to-the-limits-an-old-name-updates-offline-reads-as-waiting.md).
  const freeTextRefused = typedTextRefusal(answers.free_text, stored);
  // Counted as the server counts (an emoji is one character), where the field's maxLength cut a paste at half as
  // many emoji: a text over the limit stays whole, and the count says how much to take out.
  const freeTextLimit = characterLimit(freeTextId, answers.free_text, GOAL_FREE_TEXT_MAX);
  const last = step === STEPS.length - 1;
  const heading = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(step);
  // After Next or Back, the new question is read out: focus goes to its heading.
  useEffect(() => {
    if (shownStep.current !== step) heading.current?.focus();
    shownStep.current = step;
  }, [step]);

  const toggleGoal = (goal: GoalId) =>
    setAnswers((current) => ({
      ...current,
      goals: current.goals.includes(goal) ? current.goals.filter((g) => g !== goal) : [...current.goals, goal],
    }));

  return (
    <form
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        if (freeTextRefused || freeTextLimit.over) {
          setStep(0);
          return freeText.current?.focus();
        }
        if (!last) return setStep(step + 1);
        onSave({ ...answers, free_text: answers.free_text.trim(), skipped: false });
      }}
      className="flex flex-col gap-6"
    >
      <div className="flex flex-col gap-2">
        <p className="text-sm font-medium text-fg-muted">
          Step {step + 1} of {STEPS.length}
        </p>
        <div aria-hidden className="flex gap-1.5">
          {STEPS.map((title, index) => (
            <span key={title} className={clsx('h-1.5 flex-1 rounded-full', index <= step ? 'bg-accent' : 'bg-line')} />
          ))}
        </div>
        <h2 ref={heading} id={headingId} tabIndex={-1} className="mt-2 card-heading outline-none">
          {STEPS[step]}
        </h2>
      </div>

      {step === 0 ? (
        <div className="flex flex-col gap-5">
          <fieldset>
            <legend className="text-fg-muted">
              Choose as many as you like. They shape what we suggest, nothing else.
            </legend>
            <div className="mt-4 flex flex-wrap gap-2">
              {GUIDANCE_GOALS.map((goal) => (
                <Choice key={goal.id} pressed={answers.goals.includes(goal.id)} onClick={() => toggleGoal(goal.id)}>
                  {goal.label}
                </Choice>
              ))}
            </div>
            <GoalsOnThisPlan />
          </fieldset>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={freeTextId} className="text-sm font-medium">
              In your own words <span className="font-normal text-fg-muted">(optional)</span>
            </label>
            <textarea
              ref={freeText}
              id={freeTextId}
              value={answers.free_text}
              aria-invalid={freeTextRefused || freeTextLimit.over ? true : undefined}
              aria-describedby={
                [freeTextRefused ? `${freeTextId}-error` : '', freeTextLimit.describedBy ?? '']
                  .filter(Boolean)
                  .join(' ') || undefined
              }
              rows={2}
              placeholder="For example: winding down after work"
              onChange={(event) => setAnswers({ ...answers, free_text: event.target.value })}
              className="input min-h-20 resize-y py-2"
            />
            <FieldError id={freeTextId} error={freeTextRefused} announce />
            <CharacterCount id={freeTextId} limit={freeTextLimit} max={GOAL_FREE_TEXT_MAX} />
          </div>
        </div>
      ) : null}

      {step === 1 ? (
        <div className="flex flex-col gap-4">
          <p className="text-fg-muted">
            Binaural beats need headphones; everything else works on speakers too. Without headphones, programs leave
            the binaural layer out.
          </p>
          <div role="radiogroup" aria-labelledby={headingId} onKeyDown={onRadioKeys} className="flex flex-wrap gap-2">
            <Choice
              role="radio"
              tabbable={answers.headphones !== false}
              pressed={answers.headphones === true}
              onClick={() => setAnswers({ ...answers, headphones: true })}
            >
              Yes, usually
            </Choice>
            <Choice
              role="radio"
              tabbable={answers.headphones === false}
              pressed={answers.headphones === false}
              onClick={() => setAnswers({ ...answers, headphones: false })}
            >
              No, speakers
            </Choice>
          </div>
        </div>
      ) : null}

      {step === 2 ? (
        <div className="flex flex-col gap-4">
          <p className="text-fg-muted">
            Of the programs about your goals, the portal suggests the one whose days come closest to it. Any session can
            be stopped whenever you like.
          </p>
          <div role="radiogroup" aria-labelledby={headingId} onKeyDown={onRadioKeys} className="flex flex-wrap gap-2">
            {SESSION_MINUTES.map((minutes, index) => (
              <Choice
                key={minutes}
                role="radio"
                tabbable={answers.session_minutes === minutes || (answers.session_minutes === null && index === 0)}
                pressed={answers.session_minutes === minutes}
                onClick={() => setAnswers({ ...answers, session_minutes: minutes })}
              >
                {minutes === 60 ? '1 hour' : `${minutes} minutes`}
              </Choice>
            ))}
          </div>
        </div>
      ) : null}

      {/* One line from 360 px up: on a phone the buttons keep less room beside their words, where at 390 px
          "Skip for now" went under Back and Next (docs/decisions/079-a-phone-shows-the-whole-text.md). */}
      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-line pt-5">
        <div className="flex gap-2">
          {step > 0 ? (
            <Button
              type="button"
              variant="secondary"
              className="max-sm:px-4"
              onClick={() => setStep(step - 1)}
              disabled={saving}
            >
              Back
            </Button>
          ) : null}
          <SubmitButton
            pending={saving && !skipping}
            disabled={skipping}
            pendingLabel="Saving your answers"
            className="max-sm:px-4"
          >
            {last ? 'Save' : 'Next'}
          </SubmitButton>
        </div>
        {onSkip ? (
          <Button
            type="button"
            variant="ghost"
            className="max-sm:px-3"
            onClick={onSkip}
            busy={skipping}
            disabled={saving && !skipping}
          >
            Skip for now
          </Button>
        ) : null}
      </div>
    </form>
  );
}
