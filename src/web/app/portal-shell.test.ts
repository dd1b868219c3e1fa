import { describe, expect, it } from 'vitest';
import { guidanceKeys } from '@web/features/guidance/api/guidance';
import { paths } from '@web/lib/paths';
import { pageQueries } from './portal-shell';

describe('the portal shell’s page data', () => {
  it('asks for the onboarding answer on a member’s page, not on an admin page, which never shows it', () => {
    const keys = (pathname: string) => pageQueries({ pathname }).map((query) => query.queryKey);
    expect(keys(paths.music)).toContainEqual(guidanceKeys.onboarding);
    expect(keys(paths.adminMessages)).not.toContainEqual(guidanceKeys.onboarding);
    expect(keys(paths.admin)).not.toContainEqual(guidanceKeys.onboarding);
  });
});
