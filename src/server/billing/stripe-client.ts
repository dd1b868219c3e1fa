import type { FastifyBaseLogger } from 'fastify';
import Stripe from 'stripe';
import { BILLING_MESSAGES } from '@shared/contract';
import type { StripeConfig } from '../config';
import { ApiError } from '../http/errors';

// The Stripe client as configured (Stripe's API, or STRIPE_API_URL's stand-in), and how its failures
// are answered.

export function createStripeClient(config: StripeConfig): Stripe {
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
    appInfo: { name: 'Innerwave' },
    ...(config.api && { host: config.api.host, port: config.api.port, protocol: config.api.protocol }),
  });
}

/** A call to Stripe; its failure is a 503 saying nothing was charged, with the reason in the log. */
export async function callStripe<T>(log: FastifyBaseLogger, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const stripeError = error instanceof Stripe.errors.StripeError ? error : undefined;
    log.error(
      { err: error, stripeType: stripeError?.type, stripeCode: stripeError?.code, requestId: stripeError?.requestId },
      `billing: Stripe refused or did not answer ${what}`,
    );
    throw new ApiError(503, { detail: BILLING_MESSAGES.providerUnavailable });
  }
}
