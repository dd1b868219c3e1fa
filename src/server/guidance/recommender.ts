import type { GoalId } from '@shared/contract';

// The recommender (docs/decisions/017-guidance-programs-and-a-recommender-of-our-own.md): plain
// TF-IDF cosine similarity between what a person told us (goals, their words, their own messages,
// what they listened to) and each item's text, after a small hand-written lexicon expands everyday
// words into the library's vocabulary ("insomnia" → sleep, rest). No model, no outside service:
// the same input gives the same ranking, and every score can be traced to a source for its reason.

const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can do does for from get got have i im i'm in into is it its just " +
    'me more my myself of on or so some than that the their them then there this to too up very want ' +
    'wanna was we what when which who will with would you your yours like feel really much lot lots ' +
    'need help better less make making made keep able start stop way day things thing even'
  ).split(' '),
);

/** A crude suffix stemmer: the same on both sides, which is all cosine similarity needs. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 5 && w.endsWith('ness')) w = w.slice(0, -4);
  else if (w.length > 5 && w.endsWith('ful')) w = w.slice(0, -3);
  else if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 4 && w.endsWith('ly')) w = w.slice(0, -2);
  if (w.length > 3 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

export function tokens(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .match(/[a-z]+(?:'[a-z]+)?/g) ?? []
  )
    .filter((word) => !STOPWORDS.has(word) && word.length > 1)
    .map(stem);
}

/**
 * Everyday words → the library's words. Keys and values are plain words (stemmed on use). Written
 * from the library's categories and common ways people describe a wish; kept small and readable.
 */
const LEXICON: Record<string, string> = {
  // sleep
  insomnia: 'sleep rest night bed',
  asleep: 'sleep rest night',
  awake: 'sleep night rest',
  tired: 'sleep rest',
  exhausted: 'sleep rest',
  bedtime: 'sleep bed night',
  night: 'sleep rest',
  nights: 'sleep rest',
  nap: 'sleep rest',
  dream: 'sleep dream night',
  drift: 'sleep rest',
  wind: 'sleep rest calm evening',
  snooze: 'sleep',
  // calm
  anxious: 'calm stress breathe peace',
  anxiety: 'calm stress breathe peace',
  worry: 'calm stress peace',
  worried: 'calm stress peace',
  overwhelmed: 'calm stress breathe',
  stressed: 'calm stress relief',
  tense: 'calm tension relax',
  relax: 'calm ease peace',
  panic: 'calm breathe safe',
  nervous: 'calm breathe confidence',
  peaceful: 'calm peace stillness',
  chill: 'calm ease',
  slow: 'calm slow pace',
  busy: 'calm pace slow',
  racing: 'calm settle stillness thoughts',
  // focus
  concentrate: 'focus attention task',
  concentration: 'focus attention task',
  distracted: 'focus attention',
  distraction: 'focus attention',
  procrastinate: 'focus start task finish',
  procrastination: 'focus start task finish',
  productive: 'focus productivity work',
  study: 'focus attention learn task',
  studying: 'focus attention learn',
  exam: 'focus learn attention',
  exams: 'focus learn attention',
  deadline: 'focus work finish',
  work: 'focus work task',
  job: 'work focus',
  career: 'work confidence opportunity',
  done: 'finish task',
  // confidence
  shy: 'confidence speak seen voice',
  insecure: 'confidence worth trust',
  doubt: 'confidence trust believe',
  speaking: 'confidence speak voice',
  speak: 'confidence voice',
  presentation: 'confidence speak voice',
  interview: 'confidence speak decision',
  assertive: 'confidence voice decision',
  believe: 'confidence believe',
  // abundance & gratitude
  money: 'abundance prosperity receive',
  wealth: 'abundance prosperity',
  rich: 'abundance prosperity',
  finances: 'abundance prosperity',
  financial: 'abundance prosperity',
  prosperous: 'abundance prosperity',
  manifest: 'abundance receive intention welcome',
  manifesting: 'abundance receive intention welcome',
  manifestation: 'abundance receive intention welcome',
  attract: 'abundance receive welcome',
  thankful: 'gratitude grateful thank',
  appreciate: 'gratitude grateful thank',
  appreciation: 'gratitude grateful thank',
  blessings: 'gratitude grateful',
  lack: 'abundance enough',
  scarcity: 'abundance enough',
  // self-love
  worthless: 'worth love myself kind',
  esteem: 'worth love myself',
  critic: 'kind myself worth',
  critical: 'kind myself worth',
  mirror: 'myself body love',
  accept: 'accept myself love',
  compassion: 'kind myself gentle',
  enough: 'enough worth',
  hate: 'love kind myself',
  // healthy habits
  exercise: 'healthy habits body move',
  workout: 'healthy habits body move',
  gym: 'healthy habits body move',
  fitness: 'healthy habits body move',
  eat: 'healthy habits nourish',
  eating: 'healthy habits nourish',
  diet: 'healthy habits nourish',
  food: 'healthy habits nourish',
  water: 'healthy habits water',
  drink: 'healthy habits water',
  smoking: 'healthy habits',
  routine: 'habits routine',
  walk: 'healthy habits move',
  run: 'healthy habits move',
  running: 'healthy habits move',
  body: 'body healthy',
  // relationships
  partner: 'relationships love connect listen',
  marriage: 'relationships love connect',
  friend: 'relationships friends connect kindness',
  friends: 'relationships friends connect kindness',
  family: 'relationships family kindness',
  kids: 'relationships family patience',
  children: 'relationships family patience',
  parent: 'relationships family patience',
  lonely: 'relationships connect friends',
  argue: 'relationships listen kindness patience',
  arguing: 'relationships listen kindness patience',
  people: 'relationships connect',
  colleagues: 'relationships kindness work',
  empathy: 'kindness listen relationships',
  // creativity
  write: 'creativity create ideas',
  writing: 'creativity create ideas',
  writer: 'creativity create ideas',
  paint: 'creativity create art',
  painting: 'creativity create art',
  draw: 'creativity create art',
  music: 'creativity create',
  art: 'creativity create art',
  artist: 'creativity create art',
  block: 'creativity ideas flow',
  inspiration: 'creativity ideas inspire',
  inspired: 'creativity ideas inspire',
  imagination: 'creativity imagine ideas',
  ideas: 'creativity ideas',
  design: 'creativity create ideas',
  // courage
  afraid: 'courage fear brave',
  scared: 'courage fear brave',
  fear: 'courage fear brave',
  fears: 'courage fear brave',
  brave: 'courage brave',
  risk: 'courage brave step',
  risks: 'courage brave step',
  bold: 'courage bold',
  leap: 'courage brave step',
  comfort: 'courage step zone',
  change: 'courage change step',
  // mindfulness
  present: 'present moment breath notice',
  mindful: 'mindful present moment notice',
  meditate: 'breath present stillness calm',
  meditation: 'breath present stillness calm',
  aware: 'notice present moment',
  grounded: 'grounded present breath',
};

/** The lexicon by stem, so "procrastinating" finds "procrastinate". */
const EXPANSIONS = new Map(Object.entries(LEXICON).map(([word, words]) => [stem(word), tokens(words)]));

/** What each goal means in the library's words. */
export const GOAL_TEXT: Record<GoalId, string> = {
  sleep: 'sleep rest night bed evening',
  calm: 'calm stress relief breathe peace ease',
  focus: 'focus productivity attention task work',
  confidence: 'confidence trust voice strength believe',
  mindfulness: 'mindful present moment breath notice stillness',
  abundance: 'abundance prosperity receive opportunity enough',
  gratitude: 'gratitude grateful thank appreciate',
  'health-habits': 'healthy habits body move nourish water',
  'self-love': 'self love worth kind myself accept',
  relationships: 'relationships kindness connect listen friends family',
  creativity: 'creativity create ideas imagine art',
  courage: 'courage brave fear step bold',
};

export type Vector = Map<string, number>;

/** Term counts of a text, with the lexicon's expansions added at a lower weight. */
export function termCounts(text: string, expand = true): Vector {
  const counts: Vector = new Map();
  const add = (term: string, weight: number) => counts.set(term, (counts.get(term) ?? 0) + weight);
  for (const term of tokens(text)) {
    add(term, 1);
    const expansion = expand ? EXPANSIONS.get(term) : undefined;
    if (expansion) for (const extra of expansion) add(extra, 0.7);
  }
  return counts;
}

export interface Corpus {
  idf(term: string): number;
}

/** Inverse document frequency over the items' texts (smoothed, so a term no item has still counts 1). */
export function corpusOf(documents: Vector[]): Corpus {
  const df = new Map<string, number>();
  for (const doc of documents) for (const term of doc.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const n = documents.length;
  return { idf: (term) => Math.log((1 + n) / (1 + (df.get(term) ?? 0))) + 1 };
}

export function weigh(counts: Vector, corpus: Corpus): Vector {
  const vector: Vector = new Map();
  let norm = 0;
  for (const [term, tf] of counts) {
    const w = (1 + Math.log(tf > 0 ? tf : 1)) * corpus.idf(term) * (tf < 1 ? tf : 1);
    vector.set(term, w);
    norm += w * w;
  }
  norm = Math.sqrt(norm) || 1;
  for (const [term, w] of vector) vector.set(term, w / norm);
  return vector;
}

export function cosine(a: Vector, b: Vector): number {
  const [small, large] = a.size < b.size ? [a, b] : [b, a];
  let sum = 0;
  for (const [term, w] of small) sum += w * (large.get(term) ?? 0);
  return sum;
}

/** One thing the person told us, with how much it counts and the reason it gives. */
export interface Signal {
  text: string;
  weight: number;
  reason: string;
}

export interface Item<T> {
  value: T;
  /** The item's words; a name counts more than a long description, so it is usually repeated. */
  text: string;
}

export interface Ranked<T> {
  value: T;
  score: number;
  reason: string;
}

/**
 * Below this share of a signal's closest match in the list, its match with an item is a word in passing ("rest" in
 * a self-love affirmation), not what the signal is about: it neither
 * ranks the item nor gives its reason (docs/decisions/124-what-a-screen-says-of-a-plan-and-why-it-recommends.md).
 * Sleep's words in passing come to 8–13 % of its match with Restful Sleep; at 15 % the labelled statements keep their
 * precision@3 (0.926), at 20 % and more real second matches (Courage for shyness) go too.
 */
const PASSING_SHARE = 0.15;

/**
 * Ranks items by Σ weight × cosine(signal, item) over the signals each matches more than in passing, each item taking
 * the reason of the signal that contributed most. Items no signal matches so are left out.
 */
export function rank<T>(items: Item<T>[], signals: Signal[], limit: number): Ranked<T>[] {
  const docs = items.map((item) => termCounts(item.text, false));
  const corpus = corpusOf(docs);
  const itemVectors = docs.map((doc) => weigh(doc, corpus));
  const signalVectors = signals.map((signal) => weigh(termCounts(signal.text), corpus));
  const parts = signals.map((signal, s) => itemVectors.map((item) => signal.weight * cosine(signalVectors[s]!, item)));
  const floors = parts.map((ofSignal) => PASSING_SHARE * Math.max(0, ...ofSignal));
  const ranked: Ranked<T>[] = [];
  items.forEach((item, index) => {
    let score = 0;
    let best = 0;
    let reason = '';
    signals.forEach((signal, s) => {
      const part = parts[s]![index]!;
      if (part <= 0 || part < floors[s]!) return;
      score += part;
      if (part > best) {
        best = part;
        reason = signal.reason;
      }
    });
    if (score > 0) ranked.push({ value: item.value, score, reason });
  });
  return ranked.sort((a, b) => b.score - a.score).slice(0, limit);
}

/** A library category as a document: its name weighs like several messages. */
export const categoryText = (name: string, messages: readonly string[]) =>
  `${name} ${name} ${name} ${messages.join(' ')}`;
