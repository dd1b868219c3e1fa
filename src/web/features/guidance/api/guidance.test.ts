import type { QueryFunctionContext } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { API } from '@shared/contract/paths';
import { ApiError, type QueryMeta } from '@web/lib/api-client';
import { sessionStore } from '@web/lib/session';
import { fakeApi, jsonResponse } from '@web/test/render';
import { hubGuidanceQueries, recommendationsQuery } from './guidance';

const access = `h.${btoa(JSON.stringify({ user_id: 3, exp: Math.floor(Date.now() / 1000) + 290 })).replace(/=+$/, '')}.s`;

afterEach(() => sessionStore.clear());

describe('the hub’s first reads', () => {
  it('leave a 401 to their caller when their query’s meta says so, as a page’s early reads do (decision 104)', async () => {
    sessionStore.setTokens({ access, refresh: 'r1' }, 'member@example.com');
    const refused = () => jsonResponse(401, { detail: 'Token is invalid' });
    const api = fakeApi({
      [`GET ${API.onboarding}`]: refused,
      [`GET ${API.programs}`]: refused,
      [`GET ${API.practice}`]: refused,
      [`GET ${API.plan}`]: refused,
      [`GET ${API.recommendations}`]: refused,
      [`POST ${API.tokenRefresh}`]: () => ({ access }),
    });
    const meta: QueryMeta = { onUnauthorized: 'throw' };
    for (const query of [...hubGuidanceQueries(), recommendationsQuery(true)]) {
      const read = query.queryFn as (context: QueryFunctionContext) => Promise<unknown>;
      const context = { queryKey: query.queryKey, signal: new AbortController().signal, meta };
      await expect(read(context as QueryFunctionContext)).rejects.toSatisfy(
        (error) => error instanceof ApiError && error.status === 401,
      );
    }
    // Asked once each, and neither renewed nor ended here.
    expect(api.calls.map(({ method, path }) => `${method} ${path}`)).toEqual(
      [API.onboarding, API.programs, API.practice, API.plan, API.recommendations].map((path) => `GET ${path}`),
    );
    expect(sessionStore.get()).toMatchObject({ isAuthenticated: true, access });
  });
});
