import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { clsx } from 'clsx';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2, Send } from 'lucide-react';
import type { z } from 'zod';
import type { SupportRequestReceipt } from '@shared/contract';
import { PAID_PLANS, textLength } from '@shared/contract/plain';
import { planName } from '@shared/plans';
import { SUPPORT_MESSAGE_MAX, supportRequestWriteSchema } from '@shared/contract/support';
import { formatInteger } from '@shared/numbers';
import { Button } from '@web/components/ui/button';
import { DraftBack } from '@web/components/ui/draft-back';
import { SubmitButton } from '@web/components/ui/submit-button';
import { CheckboxField, Field, Textarea } from '@web/components/ui/input';
import { describeError, endedTheSession } from '@web/lib/change';
import { dropDraft, keptDraft, useKeepDraft } from '@web/lib/form-draft';
import { CONTACT } from '@web/lib/constants';
import { showServerFieldErrors } from '@web/lib/server-field-errors';
import { usePlan } from '@web/lib/plan';
import { useSendSupportRequest } from '../api/support';
import { useFocusFirstError } from '@web/lib/form-field';

type Values = z.input<typeof supportRequestWriteSchema>;
const FIELDS = ['subject', 'message', 'send_copy'] as const;
const EMPTY: Values = { subject: '', message: '', send_copy: false };

/** The name the form's draft is kept under (lib/form-draft.ts): the request typed, should the session end meanwhile. */
const DRAFT = 'support';
const draftOf = (kept: Record<string, unknown>): Values | null => {
  const { subject, message, send_copy } = kept;
  if (typeof subject !== 'string' || typeof message !== 'string') return null;
  return { subject, message, send_copy: send_copy === true };
};
const nothingTyped = (values: Partial<Values>) => !values.subject?.trim() && !values.message?.trim();

/**
 * The request "Ask for Intermediate" opens (`?plan=`, lib/paths.ts askForPlanPath) on a server that takes no payments:
 * filled in for the person to send, or change first. Anything else in `plan` fills in nothing.
 */
export function planRequest(plan: string | null): Values | null {
  const asked = PAID_PLANS.find((paid) => paid === plan);
  if (!asked) return null;
  const name = planName(asked);
  return {
    subject: `Please move me to ${name}`,
    message: `I would like the ${name} plan. Please move my account to it.`,
    send_copy: false,
  };
}

const answerTime = `We answer within ${CONTACT.supportResponseBusinessHours} business hours (Monday to Friday, excluding public holidays).`;

/** What the sender is told once the request is stored: its number, the answer time, and priority. */
function Received({
  receipt,
  copied,
  onAnother,
}: {
  receipt: SupportRequestReceipt;
  copied: boolean;
  onAnother: () => void;
}) {
  return (
    <div role="status" className="flex flex-col items-start gap-4">
      <div className="flex items-center gap-3">
        <CheckCircle2 aria-hidden className="h-7 w-7 shrink-0 text-accent" />
        <h2 className="card-heading">Thanks — your request #{receipt.id} reached us.</h2>
      </div>
      <p>{answerTime}</p>
      {receipt.priority ? <p>Your plan includes priority support: your request is answered first.</p> : null}
      {copied ? <p className="text-fg-muted">A copy is on its way to your e-mail.</p> : null}
      <Button variant="secondary" onClick={onAnother}>
        Send another request
      </Button>
    </div>
  );
}

/** The support form: subject, message, an optional copy by e-mail; stored, then mailed to the team. */
export function SupportForm() {
  const priority = usePlan().has('prioritySupport') === true;
  const [draft] = useState(() => keptDraft(DRAFT, draftOf));
  const [search] = useSearchParams();
  const form = useForm<Values>({
    resolver: zodResolver(supportRequestWriteSchema),
    // A request typed before comes first: it is the person's own words.
    defaultValues: draft ?? planRequest(search.get('plan')) ?? EMPTY,
    shouldFocusError: false,
  });
  const { formRef, focusFirstError } = useFocusFirstError();
  useKeepDraft(DRAFT, form, nothingTyped);
  // Said until it is sent: the request on screen is one typed before (a session that ended, a reload).
  const [fromDraft, setFromDraft] = useState(draft !== null);
  const { errors } = form.formState;
  const send = useSendSupportRequest();
  const [sent, setSent] = useState<{ receipt: SupportRequestReceipt; copied: boolean }>();
  const [failure, setFailure] = useState<string>();
  // Counted as the server counts (an emoji is one character); no maxLength, which counts an emoji as two and cuts
  // a paste without a word: a text over the limit stays whole, and the count and the form's check say so.
  const messageLength = textLength(useWatch({ control: form.control, name: 'message' }));

  const submit = form.handleSubmit((values) => {
    setFailure(undefined);
    send.mutate(values, {
      onSuccess: (receipt) => {
        setSent({ receipt, copied: values.send_copy === true });
        form.reset(EMPTY);
        dropDraft(DRAFT);
        setFromDraft(false);
      },
      onError: (error) => {
        // A session ended meanwhile has said so already, on its way to login; the request is kept for when they are
        // back (its draft).
        if (endedTheSession(error)) return;
        if (!showServerFieldErrors(error, FIELDS, form.setError, focusFirstError)) setFailure(describeError(error));
      },
    });
  }, focusFirstError);

  if (sent) return <Received {...sent} onAnother={() => setSent(undefined)} />;

  return (
    <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-5">
      <p className="text-fg-muted">
        {answerTime}{' '}
        {priority
          ? 'Your plan includes priority support: your requests are answered first.'
          : 'Requests of the Intermediate and Pro plans are answered first.'}
      </p>
      {fromDraft ? <DraftBack /> : null}
      <Field
        id="support-subject"
        label="Subject"
        autoComplete="off"
        error={errors.subject?.message}
        {...form.register('subject')}
      />
      <div className="flex flex-col gap-1">
        <Textarea
          id="support-message"
          label="Message"
          rows={8}
          error={errors.message?.message}
          {...form.register('message')}
        />
        <p
          className={clsx(
            'text-right text-xs tabular-nums',
            messageLength > SUPPORT_MESSAGE_MAX ? 'font-semibold text-danger' : 'text-fg-muted',
          )}
          aria-live="off"
        >
          {formatInteger(messageLength)} / {formatInteger(SUPPORT_MESSAGE_MAX)}
        </p>
      </div>
      <CheckboxField
        id="support-send-copy"
        label="Send me a copy by e-mail"
        error={errors.send_copy?.message}
        {...form.register('send_copy')}
      />
      {failure ? (
        <p role="alert" className="text-sm text-danger">
          {failure}
        </p>
      ) : null}
      <div>
        <SubmitButton pending={send.isPending} pendingLabel="Sending your request">
          <Send aria-hidden className="h-4 w-4" />
          Send request
        </SubmitButton>
      </div>
    </form>
  );
}
