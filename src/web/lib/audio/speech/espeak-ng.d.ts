// The parts of the espeak-ng package (eSpeak NG compiled by Emscripten) the speech worker uses.
declare module 'espeak-ng' {
  interface ESpeakModule {
    FS: { readFile(path: string): Uint8Array; writeFile(path: string, data: string): void };
  }
  interface ESpeakOptions {
    arguments: string[];
    print?: (text: string) => void;
    printErr?: (text: string) => void;
    preRun?: Array<(module: ESpeakModule) => void>;
    instantiateWasm?: (
      imports: WebAssembly.Imports,
      done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
    ) => object;
  }
  export default function ESpeakNg(options: ESpeakOptions): Promise<ESpeakModule>;
}
