import { describe, expect, it } from 'vitest';
import { JOB_KIND_LABELS } from '@shared/contract/jobs';
import { CUSTOMER_EMAIL_JOB } from '../billing/customer-email';
import { EXPIRE_CHECKOUTS_JOB } from '../billing/checkout-expiry';
import { MAIL_JOB_KINDS } from './mail-jobs';
import { SESSION_PURGE_JOB, WAITING_ACCOUNT_PURGE_JOB } from './server-jobs';
import { SEED_AUDIO_JOB } from './seed-audio-job';

describe('the kinds of job', () => {
  it('each have a name staff read on the Support tab', () => {
    const kinds = [
      ...MAIL_JOB_KINDS,
      CUSTOMER_EMAIL_JOB,
      EXPIRE_CHECKOUTS_JOB,
      SEED_AUDIO_JOB,
      SESSION_PURGE_JOB,
      WAITING_ACCOUNT_PURGE_JOB,
    ];
    expect(kinds.filter((kind) => !(kind in JOB_KIND_LABELS))).toEqual([]);
  });
});
