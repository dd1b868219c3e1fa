import { HOME } from '@shared/constants';

const AVATAR_TINTS = ['#6366f1', '#0f766e', '#a855f7', '#0ea5e9'];

/** The fixed claim of the home page, with a row of abstract avatars (no faces we do not own). */
export function MeditatingClaim() {
  return (
    <p className="mt-4 flex items-center gap-3 text-sm text-white/85">
      <span aria-hidden className="flex -space-x-2">
        {AVATAR_TINTS.map((tint) => (
          <span
            key={tint}
            className="h-7 w-7 rounded-full border-2 border-night-900"
            style={{ background: `linear-gradient(135deg, ${tint}, #00dc82)` }}
          />
        ))}
      </span>
      <span className="font-medium">{HOME.meditatingClaim}</span>
    </p>
  );
}
