/// <reference lib="webworker" />
import ESpeakNg from 'espeak-ng';
import wasmUrl from 'espeak-ng/dist/espeak-ng.wasm?url';
import { readWav } from '../wav';
import type { SpeechRequest, SpeechResponse } from './speech';

// eSpeak NG (WebAssembly, with its voices inside) in a worker, so the page never waits on it
// (docs/decisions/019-spoken-affirmations-and-audio-export.md). The program runs once per message —
// the build exports no way to call it twice — so the compiled module is kept and only instantiated
// again. Requests run one at a time: each instance holds its own copy of the voice data.

let compiled: Promise<WebAssembly.Module> | null = null;
const compile = () =>
  (compiled ??= fetch(wasmUrl)
    .then((response) => {
      if (!response.ok) throw new Error(`speech engine: ${response.status}`);
      return response.arrayBuffer();
    })
    .then((bytes) => WebAssembly.compile(bytes)));

async function synthesise({ text, voice, rate }: SpeechRequest) {
  const module = await compile();
  const espeak = await ESpeakNg({
    arguments: ['-v', voice, '-s', String(rate), '-w', '/out.wav', '-f', '/in.txt'],
    print: () => {},
    printErr: () => {},
    // The text goes in as a file: a message starting with "-" is then never read as an option.
    preRun: [(instance) => instance.FS.writeFile('/in.txt', text)],
    instantiateWasm: (imports, done) => {
      void WebAssembly.instantiate(module, imports).then((instance) => done(instance, module));
      return {};
    },
  });
  const bytes = espeak.FS.readFile('/out.wav');
  return readWav(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
}

let queue: Promise<unknown> = Promise.resolve();
self.onmessage = (event: MessageEvent<SpeechRequest>) => {
  const request = event.data;
  queue = queue.then(async () => {
    try {
      const { samples, sampleRate } = await synthesise(request);
      const response: SpeechResponse = { id: request.id, samples, sampleRate };
      self.postMessage(response, [samples.buffer]);
    } catch (error) {
      const response: SpeechResponse = { id: request.id, error: String(error) };
      self.postMessage(response);
    }
  });
};
