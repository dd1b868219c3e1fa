import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API,
  apiErrorSchema,
  detailErrorSchema,
  historyEntrySchema,
  historyListSchema,
  historyQuerySchema,
  historyWriteSchema,
  onboardingSchema,
  onboardingWriteSchema,
  onboardingWriteSchemaOf,
  planRequiredErrorSchema,
  practiceSchema,
  programDayParamsSchema,
  programListSchema,
  programParamsSchema,
  programProgressSchema,
  programSchema,
  PAGES,
  recommendationsSchema,
  reminderSchema,
} from '@shared/contract';
import type { AppContext } from '../context';
import { tooManyRequests } from '../http/errors';
import { bodyLettingStoredTextThrough } from '../http/request-body';
import { personKey } from '../cluster/rate-limit-store';
import { registerLookedUpPage, type WebPages } from '../http/web';
import { errors, noContent, routeKit, userOf } from '../own/route-kit';
import * as practice from './practice';
import * as programs from './programs';
import { assertRecommendations, recommendationsFor } from './recommendations';

// Guidance (docs/product/api.md#guidance): onboarding, programs and progress, history and the
// practice view, reminders and recommendations. Every call needs sign-in and touches only the
// signed-in person's rows; programs themselves are shared content.

const signedIn = { 400: apiErrorSchema, 401: detailErrorSchema };

/**
 * Sessions a person may record in an hour. One practising records a few an hour, and a playing tab sends
 * what it plays so far once a minute (decision 090); a browser back after an outage sends its whole
 * backlog at once, at most 200 (PENDING_RECORDS_MAX in the web app), so two browsers' full backlogs and a
 * busy hour besides stay under it; a script writing history does not.
 */
export const HISTORY_WRITES_PER_HOUR = 600;
/**
 * Marks of a program's days done, and starts over, a person may send in an hour. A day is marked done
 * once its session has been recorded, as part of the same record (a backlog of them too), so the history's
 * bound fits it as well; a script marking days over and over does not.
 */
export const PROGRAM_PROGRESS_WRITES_PER_HOUR = 600;
const HOUR_MS = 60 * 60 * 1000;

export const guidanceRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;
  const { described } = routeKit(app, db, 'guidance');
  app.addHook('onRequest', ctx.authenticate);
  // Counted per person in the shared rate-limit store (Redis, or the primary's for its workers).
  const historyWrites = app.createRateLimit({
    max: HISTORY_WRITES_PER_HOUR,
    timeWindow: HOUR_MS,
    keyGenerator: (request) => personKey('history', userOf(request)),
  });
  const programProgressWrites = app.createRateLimit({
    max: PROGRAM_PROGRESS_WRITES_PER_HOUR,
    timeWindow: HOUR_MS,
    keyGenerator: (request) => personKey('program-progress', userOf(request)),
  });
  /** Counts the call against the person's limit of it; 429 with Retry-After once they are past it. */
  const counted = async (limit: typeof historyWrites, request: FastifyRequest) => {
    const verdict = await limit(request);
    if (!verdict.isAllowed && verdict.isExceeded) throw tooManyRequests(verdict.ttlInSeconds);
  };

  app.get(
    API.onboarding,
    described('The onboarding answers (completed_at null until answered or skipped)', {
      response: { 200: onboardingSchema, 401: detailErrorSchema },
    }),
    async (request) => practice.readOnboarding(db, userOf(request)),
  );
  app.put(
    API.onboarding,
    {
      ...described('Answer (or skip) the onboarding; also how the profile changes the answers', {
        body: onboardingWriteSchema,
        response: { 200: onboardingSchema, ...signedIn },
      }),
      // A refused body reaches the handler, which checks it again against the words stored.
      attachValidation: true,
    },
    async (request) => {
      const user = userOf(request);
      // A change of the goals sends one's own words back as they are stored (decision 133).
      const answers = await bodyLettingStoredTextThrough(request, async () =>
        onboardingWriteSchemaOf(await practice.readOnboarding(db, user)),
      );
      return practice.saveOnboarding(db, user, answers);
    },
  );

  app.get(
    API.programs,
    described('Every program with the person’s progress', {
      response: { 200: programListSchema, 401: detailErrorSchema },
    }),
    async (request) => programs.listPrograms(db, userOf(request)),
  );
  app.get(
    API.program,
    described('One program with its days and the person’s progress', {
      params: programParamsSchema,
      response: { 200: programSchema, ...errors },
    }),
    async (request) => programs.getProgram(db, userOf(request), request.params.slug),
  );
  app.post(
    API.programDayComplete,
    described(
      `Mark a day of a program done (again is harmless); answers the progress (429 past ${PROGRAM_PROGRESS_WRITES_PER_HOUR} marks and starts over an hour)`,
      {
        params: programDayParamsSchema,
        response: { 200: programProgressSchema, ...errors, 429: detailErrorSchema },
      },
    ),
    async (request) => {
      await counted(programProgressWrites, request);
      return programs.completeDay(db, userOf(request), request.params.slug, request.params.day);
    },
  );
  app.delete(
    API.programProgress,
    described('Start a program over: forget the person’s completed days of it (counted with the marks of days done)', {
      params: programParamsSchema,
      response: { ...noContent, ...errors, 429: detailErrorSchema },
    }),
    async (request, reply) => {
      await counted(programProgressWrites, request);
      await programs.resetProgress(db, userOf(request), request.params.slug);
      return reply.code(204).send(null);
    },
  );

  app.get(
    API.history,
    described('The last sessions, newest first', {
      querystring: historyQuerySchema,
      response: { 200: historyListSchema, ...signedIn },
    }),
    async (request) => practice.listHistory(db, userOf(request), request.query.limit),
  );
  app.post(
    API.history,
    described(
      `Record a finished or stopped session, or one under way so far (200: its record_key was recorded already, the entry replaced when this record is longer; 409 history_deleted: it began before the person last deleted their history, and nothing is added; 429 past ${HISTORY_WRITES_PER_HOUR} an hour)`,
      {
        body: historyWriteSchema,
        response: {
          200: historyEntrySchema,
          201: historyEntrySchema,
          ...signedIn,
          409: detailErrorSchema,
          429: detailErrorSchema,
        },
      },
    ),
    async (request, reply) => {
      await counted(historyWrites, request);
      const { entry, created } = await practice.recordSession(db, userOf(request), request.body);
      return reply.code(created ? 201 : 200).send(entry);
    },
  );
  app.delete(
    API.history,
    described('Delete the whole listening history; sessions begun before now are not added later (409)', {
      response: { ...noContent, 401: detailErrorSchema },
    }),
    async (request, reply) => {
      await practice.deleteHistory(db, userOf(request));
      return reply.code(204).send(null);
    },
  );
  app.get(
    API.practice,
    described('Your practice: the last seven days, the last sessions and the reminder', {
      response: { 200: practiceSchema, 401: detailErrorSchema },
    }),
    async (request) => practice.readPractice(db, userOf(request)),
  );
  app.get(
    API.reminders,
    described('The in-portal daily reminder (off unless chosen)', {
      response: { 200: reminderSchema, 401: detailErrorSchema },
    }),
    async (request) => practice.readReminder(db, userOf(request)),
  );
  app.put(
    API.reminders,
    described('Turn the in-portal daily reminder on at a time of day, or off', {
      body: reminderSchema,
      response: { 200: reminderSchema, ...signedIn },
    }),
    async (request) => practice.saveReminder(db, userOf(request), request.body),
  );

  app.get(
    API.recommendations,
    {
      ...described('Categories, messages, tracks and programs ranked for the person, each with a reason (Pro)', {
        response: { 200: recommendationsSchema, 401: detailErrorSchema, 403: planRequiredErrorSchema },
      }),
      preValidation: async (request) => assertRecommendations(db, userOf(request)),
    },
    async (request) => recommendationsFor(db, userOf(request)),
  );
};

/**
 * The program page, `/programs/{slug}`: a page's document, so no sign-in (the app asks for one), with
 * 404 when no program has the slug, as a path that is no page has.
 */
export const guidancePages: FastifyPluginAsync<AppContext & { pages?: WebPages | undefined }> = async (
  app,
  { pages, ...ctx },
) => {
  if (!pages) return;
  registerLookedUpPage<{ slug: string }>(app, pages, PAGES.program, ({ slug }) =>
    programs.programExists(ctx.database.db, slug),
  );
};
