import { asc, desc, eq } from 'drizzle-orm';
import { goalLabel, type GoalId, type Recommendations } from '@shared/contract';
import { planIncludes } from '@shared/plans';
import type { Db } from '../db/client';
import { audioItems, guidancePreferences, listeningHistory, ownMessages, programDays, programs } from '../db/schema';
import { listMessageCategories } from '../content/service';
import { planOfSignedIn, planRequired } from '../own/service';
import { categoryText, GOAL_TEXT, rank, type Signal } from './recommender';
import { characterCount, isolated, leadingCharacters } from '@shared/contract/plain';

// The recommendations call (Pro, decisions §8): the person's signals against the library's
// categories, messages and tracks and the programs (docs/decisions/017).

const LIMITS = { categories: 5, messages: 8, tracks: 4, programs: 3 };
const OWN_MESSAGES_USED = 200;
const HISTORY_USED = 50;
const HISTORY_TITLES = 5;
const START_HERE = 'A gentle place to start';

/**
 * A person's text in a reason: cut to 40 characters as the contract counts them, between two that a reader
 * sees (never inside an emoji), and isolated (decision 064) as it sits inside a sentence.
 */
const quote = (text: string) =>
  isolated(characterCount(text) > 40 ? `${leadingCharacters(text, 39).trimEnd()}…` : text);

export async function assertRecommendations(db: Db, userId: number): Promise<void> {
  if (!planIncludes(await planOfSignedIn(db, userId), 'recommendations'))
    throw planRequired('Recommendations are part of the Pro plan.', 'pro');
}

/** What the person told us, each with its weight and the reason it gives. */
async function signalsOf(db: Db, userId: number) {
  const [preferences] = await db.select().from(guidancePreferences).where(eq(guidancePreferences.userId, userId));
  const goals = (preferences?.goals ?? []) as GoalId[];
  const freeText = preferences?.freeText ?? '';
  const own = await db
    .select({ text: ownMessages.messageText })
    .from(ownMessages)
    .where(eq(ownMessages.userId, userId))
    .orderBy(desc(ownMessages.id))
    .limit(OWN_MESSAGES_USED);
  const history = await db
    .select({ title: listeningHistory.title })
    .from(listeningHistory)
    .where(eq(listeningHistory.userId, userId))
    .orderBy(desc(listeningHistory.startedAt))
    .limit(HISTORY_USED);
  const titles = [...new Set(history.map((h) => h.title))].slice(0, HISTORY_TITLES);

  const signals: Signal[] = [
    ...goals.map((goal) => ({ text: GOAL_TEXT[goal], weight: 1, reason: `Because you chose ${goalLabel(goal)}` })),
    ...(freeText ? [{ text: freeText, weight: 1, reason: `Because you wrote “${quote(freeText)}”` }] : []),
    ...(own.length
      ? [{ text: own.map((m) => m.text).join(' '), weight: 0.6, reason: 'Close to the messages you wrote' }]
      : []),
    ...titles.map((title) => ({ text: title, weight: 0.4, reason: `Because you listened to “${quote(title)}”` })),
  ];
  return {
    signals,
    basedOn: { goals, free_text: freeText !== '', own_messages: own.length > 0, history: titles.length > 0 },
  };
}

/** The library to rank: categories and their messages as the content calls list them, tracks, programs. */
async function libraryOf(db: Db) {
  const categories = await listMessageCategories(db);
  const allMessages = categories.flatMap((category) =>
    category.messages.map(({ id, message_text }) => ({ id, text: message_text, categoryId: category.id })),
  );
  const tracks = await db
    .select({ id: audioItems.id, kind: audioItems.kind, name: audioItems.name, description: audioItems.description })
    .from(audioItems)
    .orderBy(asc(audioItems.kind), asc(audioItems.position), asc(audioItems.id));
  const programRows = await db.select().from(programs).orderBy(asc(programs.position), asc(programs.id));
  const days = await db.select({ programId: programDays.programId, title: programDays.title }).from(programDays);
  return { categories, allMessages, tracks, programRows, days };
}

type Library = Awaited<ReturnType<typeof libraryOf>>;

/** With nothing to go on: the library's first items, each said to be a gentle place to start. */
function startHere(
  categories: Library['categories'],
  tracks: Library['tracks'],
  programRows: Library['programRows'],
  basedOn: Recommendations['based_on'],
): Recommendations {
  return {
    categories: categories.slice(0, LIMITS.categories).map(({ id, name }) => ({ id, name, reason: START_HERE })),
    messages: [],
    tracks: tracks.slice(0, LIMITS.tracks).map(({ id, kind, name }) => ({ id, kind, name, reason: START_HERE })),
    programs: programRows.slice(0, LIMITS.programs).map((p) => ({ slug: p.slug, title: p.title, reason: START_HERE })),
    ranked: false,
    based_on: basedOn,
  };
}

export async function recommendationsFor(db: Db, userId: number): Promise<Recommendations> {
  const { signals, basedOn } = await signalsOf(db, userId);
  const { categories, allMessages, tracks, programRows, days } = await libraryOf(db);
  const nameOf = new Map(categories.map((c) => [c.id, c.name]));

  if (signals.length === 0) return startHere(categories, tracks, programRows, basedOn);

  const rankedCategories = rank(
    categories.map((c) => ({
      value: c,
      text: categoryText(
        c.name,
        c.messages.map((m) => m.message_text),
      ),
    })),
    signals,
    LIMITS.categories,
  );
  const rankedMessages = rank(
    allMessages.map((m) => ({ value: m, text: `${m.text} ${nameOf.get(m.categoryId) ?? ''}` })),
    signals,
    LIMITS.messages,
  );
  const rankedTracks = rank(
    tracks.map((t) => ({ value: t, text: `${t.name} ${t.name} ${t.description}` })),
    signals,
    LIMITS.tracks,
  );
  const rankedPrograms = rank(
    programRows.map((p) => ({
      value: p,
      text: [
        p.title,
        p.title,
        p.summary,
        ...(p.goals as GoalId[]).map((goal) => GOAL_TEXT[goal]),
        ...days.filter((d) => d.programId === p.id).map((d) => d.title),
      ].join(' '),
    })),
    signals,
    LIMITS.programs,
  );

  // Words that match nothing in the library (another language, a name) are nothing to go on either.
  if (rankedCategories.length + rankedMessages.length + rankedTracks.length + rankedPrograms.length === 0)
    return startHere(categories, tracks, programRows, basedOn);

  return {
    categories: rankedCategories.map(({ value, reason }) => ({ id: value.id, name: value.name, reason })),
    messages: rankedMessages.map(({ value, reason }) => ({
      id: value.id,
      message_text: value.text,
      category_id: value.categoryId,
      category_name: nameOf.get(value.categoryId) ?? '',
      reason,
    })),
    tracks: rankedTracks.map(({ value, reason }) => ({ id: value.id, kind: value.kind, name: value.name, reason })),
    programs: rankedPrograms.map(({ value, reason }) => ({ slug: value.slug, title: value.title, reason })),
    ranked: true,
    based_on: basedOn,
  };
}
