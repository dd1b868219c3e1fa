import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import { BILLING_MESSAGES } from '@shared/contract';
import type { StripeConfig } from '../config';
import { ApiError } from '../http/errors';

// The Stripe client as configured (Stripe's API, or STRIPE_API_URL's stand-in), and how its failures
// are answered. The SDK (~20 MB in memory) is loaded only on a server where payments are set up.

const loadStripe = async () => (await import('stripe')).default;

/**
 * How long the client waits for Stripe: `timeout` (ms) for each attempt, and `maxNetworkRetries` more
 * attempts after a network failure or a 5xx. A person's Checkout turn is held longer than one call can
 * take (CHECKOUT_TURN in service.ts; a test holds the two together).
 */
export const STRIPE_CLIENT = { maxNetworkRetries: 2, timeout: 15_000 } as const;

export async function createStripeClient(config: StripeConfig): Promise<Stripe> {
  const Stripe = await loadStripe();
  return new Stripe(config.secretKey, {
    ...STRIPE_CLIENT,
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
    const stripeError = await asStripeError(error);
    log.error(
      { err: error, stripeType: stripeError?.type, stripeCode: stripeError?.code, requestId: stripeError?.requestId },
      `billing: Stripe refused or did not answer ${what}`,
    );
    throw new ApiError(503, { detail: BILLING_MESSAGES.providerUnavailable });
  }
}

/** The error as Stripe's own (its type, code and request id), or undefined for any other failure. */
export async function asStripeError(error: unknown): Promise<Stripe.errors.StripeError | undefined> {
  const Stripe = await loadStripe();
  return error instanceof Stripe.errors.StripeError ? error : undefined;
}
