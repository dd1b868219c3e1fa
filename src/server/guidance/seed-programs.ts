import type { AdminProgramWrite, ProgramLayerWrite } from '@shared/contract';

// The starting programs, written for Innerwave (docs/product/guidance.md#programs). House rules as
// for the affirmations: calm, first person, present tense, no promises about health or results.
// Seeded by slug at start like the library (a program staff deleted comes back; one they edited
// keeps their edits).

const brown = (gain = 0.35): ProgramLayerWrite => ({ kind: 'noise', colour: 'brown', gain });
const pink = (gain = 0.3): ProgramLayerWrite => ({ kind: 'noise', colour: 'pink', gain });
const binaural = (beatHz: number, gain = 0.25): ProgramLayerWrite => ({
  kind: 'binaural',
  left_hz: 200,
  right_hz: 200 + beatHz,
  gain,
});
const track = (audio_kind: 'selfeggio' | 'bonus' | 'custom', name: string, gain = 0.5): ProgramLayerWrite => ({
  kind: 'track',
  audio_kind,
  name,
  gain,
});

export const SEED_PROGRAMS: readonly AdminProgramWrite[] = [
  {
    slug: 'seven-nights-of-rest',
    title: 'Seven Nights of Rest',
    summary:
      'A short evening practice for seven nights: slowing down, letting the day go and settling into bed. Quiet sound, few words.',
    goals: ['sleep', 'calm'],
    days: [
      {
        title: 'Arriving in the evening',
        intro:
          'Tonight is only about noticing that the day is ending. Dim the lights if you can, sit or lie comfortably, and let the messages pass without trying to hold on to them.',
        minutes: 10,
        messages: [
          'The day is done, and I can put it down.',
          'I let the evening slow me down.',
          'My breath is long and easy.',
          'There is nothing I need to solve tonight.',
        ],
        layers: [brown()],
      },
      {
        title: 'Softening the body',
        intro:
          'Move your attention slowly from your forehead to your feet, softening each part a little. If your mind wanders, that is fine: come back to wherever you were.',
        minutes: 10,
        messages: [
          'My forehead is smooth and soft.',
          'My shoulders drop away from my ears.',
          'My hands are heavy and warm.',
          'I let the bed hold my weight.',
        ],
        layers: [brown(), track('selfeggio', '174 Hz · Foundation', 0.3)],
      },
      {
        title: 'Letting thoughts pass',
        intro:
          'Thoughts will come. Tonight, picture each one as a cloud crossing the sky: you see it, and you let it drift on.',
        minutes: 15,
        messages: [
          'I notice a thought and let it drift by.',
          'I do not have to follow every thought.',
          'My mind is slowing like a river at dusk.',
          'I can think about it tomorrow.',
        ],
        layers: [pink(), binaural(6)],
      },
      {
        title: 'A steady rhythm',
        intro:
          'Breathe in for four counts and out for six, a few times, then let the breath find its own pace. A longer out-breath is a simple signal to slow down.',
        minutes: 15,
        messages: [
          'I breathe out a little longer than I breathe in.',
          'Each breath out lets go of the day.',
          'I am safe to rest now.',
          'My body knows how to rest.',
        ],
        layers: [brown(0.3), binaural(4)],
      },
      {
        title: 'Kindness before sleep',
        intro:
          'Recall one small thing from today that went well, or one kind moment, however small. Let it be the last thing you hold before sleep.',
        minutes: 15,
        messages: [
          'I did enough today.',
          'I thank myself for the care I gave.',
          'I end the day gently.',
          'I let tomorrow wait until morning.',
        ],
        layers: [track('bonus', 'Soft Pink Rain', 0.45), binaural(4, 0.2)],
      },
      {
        title: 'A bedtime routine of your own',
        intro:
          'Tonight, notice what helps you wind down: a warm drink, a book, a window opened for a minute. Choose one thing to repeat each evening.',
        minutes: 20,
        messages: [
          'My evenings have a gentle rhythm.',
          'I give my screen a rest before bed.',
          'The same calm steps lead me toward sleep.',
          'Rest is part of my day, not a reward.',
        ],
        layers: [brown(0.3), track('selfeggio', '285 Hz · Restoration', 0.3)],
      },
      {
        title: 'Resting without effort',
        intro:
          'The last night of the program. There is nothing to get right. Listen for as long as you like, and let the sound fade when you are ready.',
        minutes: 20,
        messages: [
          'I let go of trying.',
          'Rest comes to me in its own time.',
          'I am calm, warm and still.',
          'I welcome a quiet night.',
        ],
        layers: [track('bonus', 'Deep Brown Noise', 0.45), binaural(2, 0.2)],
      },
    ],
  },
  {
    slug: 'clear-intentions',
    title: 'Clear Intentions',
    summary:
      'Five days of naming what you want, noticing what you already have and taking one small step each day. Reflection and action, not wishful thinking.',
    goals: ['abundance', 'gratitude', 'confidence'],
    days: [
      {
        title: 'Naming what matters',
        intro:
          'Before the session, write one sentence about something you would like more of in your life. Keep it simple and in your own words.',
        minutes: 10,
        messages: [
          'I know what matters to me.',
          'I name what I want clearly.',
          'My intentions are honest and my own.',
          'I make room for what I value.',
        ],
        layers: [track('selfeggio', '528 Hz · Transformation', 0.35), pink(0.2)],
      },
      {
        title: 'Noticing enough',
        intro:
          'Today, list three things you already have and are glad of. Gratitude is not pretending everything is fine; it is seeing what is there.',
        minutes: 10,
        messages: [
          'I notice what I already have.',
          'I am grateful for small, good things.',
          'There is enough for today.',
          'I appreciate the people around me.',
        ],
        layers: [track('custom', 'Morning Light', 0.4)],
      },
      {
        title: 'One small step',
        intro:
          'Pick one action you can take in the next day toward your intention, small enough that you will really do it.',
        minutes: 10,
        messages: [
          'I take one small step today.',
          'Small steps add up.',
          'I act on what I want.',
          'I follow through, one thing at a time.',
        ],
        layers: [track('selfeggio', '417 Hz · Change', 0.35), binaural(10, 0.2)],
      },
      {
        title: 'Opening to opportunity',
        intro:
          'Look back over the last days: did anything unexpected come up? Today is about noticing openings and saying yes to the ones that fit.',
        minutes: 15,
        messages: [
          'I notice opportunities as they appear.',
          'I am open to new ways forward.',
          'I welcome help and good ideas.',
          'I say yes to what fits my path.',
        ],
        layers: [track('custom', 'Starfield', 0.4), pink(0.2)],
      },
      {
        title: 'Keeping the thread',
        intro:
          'Read your sentence from day 1 again. Change it if it no longer fits. Decide how you will keep it in view in the weeks ahead.',
        minutes: 15,
        messages: [
          'I keep my intentions in view.',
          'I am patient with my progress.',
          'I receive good things with gratitude.',
          'I trust the steps I am taking.',
        ],
        layers: [track('selfeggio', '528 Hz · Transformation', 0.35), binaural(8, 0.2)],
      },
    ],
  },
  {
    slug: 'mindful-moments',
    title: 'Mindful Moments',
    summary:
      'Seven short sessions for paying attention on purpose: the breath, the body, sounds and thoughts. A gentle introduction to mindfulness.',
    goals: ['mindfulness', 'calm'],
    days: [
      {
        title: 'The breath as an anchor',
        intro:
          'Sit comfortably and feel the breath where it is easiest to notice: the nose, the chest or the belly. When attention wanders, bring it back. That returning is the practice.',
        minutes: 5,
        messages: [
          'I feel the breath coming and going.',
          'I return to my breath whenever I need to.',
          'This breath is enough.',
          'I am here, now.',
        ],
        layers: [pink(0.25)],
      },
      {
        title: 'Feeling the body',
        intro:
          'Notice where your body touches the chair or the floor. Notice warmth, coolness, tension, ease, without changing anything.',
        minutes: 10,
        messages: [
          'I notice my body without judging it.',
          'I feel my feet on the ground.',
          'I soften where I can.',
          'I am grounded, here and now.',
        ],
        layers: [track('selfeggio', '174 Hz · Foundation', 0.3)],
      },
      {
        title: 'Listening',
        intro:
          'Let sounds come to you: near, far, loud, quiet. You do not need to name them or like them. Just hear them arrive and fade.',
        minutes: 10,
        messages: [
          'I listen with open attention.',
          'Sounds come and go on their own.',
          'I let the world be as it is for a moment.',
          'Stillness is always available to me.',
        ],
        layers: [track('bonus', 'Ocean Drift', 0.4)],
      },
      {
        title: 'Watching thoughts',
        intro:
          'Today, notice thoughts as events in the mind. You might quietly label them: planning, remembering, worrying. Then return to the breath.',
        minutes: 10,
        messages: [
          'I notice thoughts without following them.',
          'A thought is only a thought.',
          'I let my thoughts pass like clouds.',
          'I come back to this moment.',
        ],
        layers: [binaural(10, 0.2), pink(0.2)],
      },
      {
        title: 'Kindness',
        intro:
          'Bring to mind someone you care about and wish them well in simple words. Then offer the same wish to yourself.',
        minutes: 10,
        messages: [
          'May I be at ease.',
          'May the people I love be at ease.',
          'I meet myself with kindness.',
          'I offer patience to myself and others.',
        ],
        layers: [track('selfeggio', '639 Hz · Connection', 0.35)],
      },
      {
        title: 'Mindful in daily life',
        intro:
          'Choose one ordinary activity for today, like washing your hands or drinking tea, and do it with full attention.',
        minutes: 10,
        messages: [
          'I do one thing at a time.',
          'I bring attention to ordinary moments.',
          'I slow down enough to notice.',
          'Each moment is a fresh start.',
        ],
        layers: [track('custom', 'Morning Light', 0.35)],
      },
      {
        title: 'Open awareness',
        intro:
          'For the last session, let attention rest on everything at once: breath, body, sound and thought, without choosing. Stay as long as you like.',
        minutes: 15,
        messages: [
          'I rest in awareness.',
          'I allow this moment to be as it is.',
          'I carry this calm into my day.',
          'Mindfulness is always one breath away.',
        ],
        layers: [track('bonus', 'Ocean Drift', 0.35), binaural(8, 0.2)],
      },
    ],
  },
  {
    slug: 'steady-focus',
    title: 'Steady Focus',
    summary:
      'Five working sessions for starting, staying with a task and trusting your own judgement. Sound to work with, and a few words to keep you steady.',
    goals: ['focus', 'confidence'],
    days: [
      {
        title: 'Starting',
        intro:
          'Choose one task and write down the first small action. Put your phone out of reach, start the session and begin that action.',
        minutes: 20,
        messages: [
          'I start now, and that is enough.',
          'I give my full attention to this task.',
          'One step, then the next.',
          'I work steadily and without rushing.',
        ],
        layers: [pink(0.3), binaural(14, 0.2)],
      },
      {
        title: 'Staying with it',
        intro:
          'When you notice the urge to switch, pause, breathe out and return to the task. Count how often you come back; each return counts.',
        minutes: 30,
        messages: [
          'I notice distraction and return.',
          'My attention comes back easily.',
          'I stay with what I am doing.',
          'Deep work feels calm to me.',
        ],
        layers: [track('bonus', 'Deep Brown Noise', 0.35), binaural(16, 0.2)],
      },
      {
        title: 'Trusting your judgement',
        intro:
          'Today, make the small decisions of your work quickly and move on. You can revise later; momentum matters more than perfection.',
        minutes: 30,
        messages: [
          'I trust my own judgement.',
          'I make decisions and stand by them.',
          'Good is good enough to move forward.',
          'I know my strengths and I use them.',
        ],
        layers: [track('selfeggio', '741 Hz · Expression', 0.3), pink(0.2)],
      },
      {
        title: 'Rest between efforts',
        intro:
          'Work in a block, then take a real break: stand up, look into the distance, drink some water. Focus returns better after rest.',
        minutes: 20,
        messages: [
          'I rest so that I can focus again.',
          'Breaks are part of good work.',
          'I return refreshed and clear.',
          'I pace myself for the whole day.',
        ],
        layers: [track('custom', 'Morning Light', 0.35)],
      },
      {
        title: 'Finishing',
        intro:
          'Pick something nearly done and finish it. Then note what helped you focus this week, so you can use it again.',
        minutes: 30,
        messages: [
          'I finish what I begin.',
          'I am proud of steady progress.',
          'I speak clearly about my work.',
          'I carry this focus forward.',
        ],
        layers: [pink(0.25), binaural(14, 0.2)],
      },
    ],
  },
];
