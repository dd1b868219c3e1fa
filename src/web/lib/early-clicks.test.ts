import { afterEach, describe, expect, it } from 'vitest';
import { EARLY_CLICKS_GLOBAL, EARLY_CLICKS_RECORDER, replayEarlyClicks, takeEarlyClicks } from './early-clicks';

// The recorder runs as the pre-rendered page's inline script does, before any module.
const runRecorder = () => new Function(EARLY_CLICKS_RECORDER)() as void;

describe('clicks before the page starts', () => {
  afterEach(() => {
    takeEarlyClicks();
    Reflect.deleteProperty(window, EARLY_CLICKS_GLOBAL);
    document.body.innerHTML = '';
  });

  it('keeps the buttons that do nothing by themselves, in order, until taken', () => {
    document.body.innerHTML = `
      <button id="toggle"><svg><path id="icon"></path></svg></button>
      <button id="card" type="button"></button>
      <form><button id="submit">Log in</button><button id="in-form" type="button"></button></form>
      <button id="disabled" type="button" disabled></button>
      <a id="link" href="#terms">Terms</a>`;
    runRecorder();
    const byId = (id: string) => document.getElementById(id)!;
    // jsdom does not send forms.
    document.querySelector('form')!.addEventListener('submit', (event) => event.preventDefault());
    // A tap on the toggle's icon is a tap on the toggle.
    byId('icon').dispatchEvent(new MouseEvent('click', { bubbles: true }));
    for (const id of ['card', 'submit', 'in-form', 'disabled', 'link']) byId(id).click();

    expect(takeEarlyClicks().map((button) => button.id)).toEqual(['toggle', 'card', 'in-form']);
    byId('card').click();
    expect(takeEarlyClicks().map((button) => button.id)).toEqual(['toggle', 'card', 'in-form']);
  });

  it('clicks again only the buttons still in the page and enabled, once', () => {
    document.body.innerHTML = '<button id="kept" type="button"></button><button id="gone" type="button"></button>';
    const clicked: string[] = [];
    document.addEventListener('click', (event) => clicked.push((event.target as HTMLElement).id));
    const kept = document.getElementById('kept') as HTMLButtonElement;
    const gone = document.getElementById('gone') as HTMLButtonElement;
    const disabledLater = document.createElement('button');
    document.body.append(disabledLater);
    const buttons = [kept, gone, disabledLater];
    gone.remove();
    disabledLater.disabled = true;

    replayEarlyClicks(buttons);
    replayEarlyClicks(buttons);
    expect(clicked).toEqual(['kept']);
  });

  it('has nothing to give on a page without the recorder', () => {
    expect(takeEarlyClicks()).toEqual([]);
  });
});
