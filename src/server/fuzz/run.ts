import { Agent, request as httpRequest } from 'node:http';
import { mulberry32 } from '@shared/random';
import { connect } from 'node:net';
import {
  CONTENT_TYPES,
  jsonBody,
  jsonBytes,
  multipartBytes,
  PATH_PARAMS,
  pick,
  validValue,
  type JsonSchema,
  type Rng,
} from './generate';

// Sends mutated requests, built from the server's own OpenAPI description, to a listening server and
// records every answer of 500 or more. What counts as failure: a 5xx, a request left without an answer,
// or the server no longer answering.

export interface FuzzOptions {
  baseUrl: string;
  requests: number;
  seed: number;
  /** Bearer tokens of a live user and a live staff user; asked again after `refreshEvery` requests. */
  tokens(): Promise<{ user: string; staff: string }>;
  refreshEvery?: number;
  concurrency?: number;
}

export interface ServerFailure {
  method: string;
  path: string;
  status: number;
  body: string;
}

export interface FuzzResult {
  sent: number;
  statuses: Record<number, number>;
  failures: ServerFailure[];
}

const NO_ANSWER = -1;

interface Operation {
  method: string;
  path: string;
  body: JsonSchema | undefined;
  query: string[];
}

/** Field names of the upload routes, which take multipart bodies the OpenAPI description does not spell out. */
const UPLOAD_FIELDS = [
  'name',
  'description',
  'audio_file',
  'cover_image',
  'application_version',
  'application_file',
  'first_name',
  'last_name',
  'profile_image',
];

/** Paths outside the API that a client can ask for all the same. */
const EXTRA_OPERATIONS: Operation[] = [
  '/',
  '/login',
  '/media/x.mp3',
  '/media/../secret-key',
  '/api/docs/',
  '/api/nothing/',
].map((path) => ({ method: 'GET', path, body: undefined, query: [] }));

function operationsOf(spec: {
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        parameters?: Array<{ name: string; in: string }>;
      }
    >
  >;
}): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      operations.push({
        method: method.toUpperCase(),
        path,
        body: operation.requestBody?.content?.['application/json']?.schema,
        query: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      });
    }
  }
  return [...operations, ...EXTRA_OPERATIONS];
}

interface PlannedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

function plan(operation: Operation, rng: Rng, tokens: { user: string; staff: string }): PlannedRequest {
  let path = operation.path.replace(/\{[^}]+\}/g, () => pick(rng, PATH_PARAMS));
  const query = operation.query.map(
    (name) => `${name}=${encodeURIComponent(String(validValue({ type: 'string' }, rng)))}`,
  );
  if (rng() < 0.3)
    query.push(
      pick(rng, [
        'search=%00',
        'search=%ff%fe',
        'token=abc',
        'a[b]=1&a[c]=2',
        '__proto__[x]=1',
        `q=${'x'.repeat(5000)}`,
        'search',
      ]),
    );
  if (query.length) path += `?${query.join('&')}`;

  const headers: Record<string, string> = {};
  const auth = pick(rng, ['user', 'user', 'staff', 'staff', 'none', 'garbage', 'long']);
  if (auth === 'user') headers.authorization = `Bearer ${tokens.user}`;
  if (auth === 'staff') headers.authorization = `Bearer ${tokens.staff}`;
  if (auth === 'garbage')
    headers.authorization = pick(rng, [
      'Bearer',
      'Bearer a.b.c',
      'Basic Zm9vOmJhcg==',
      `Bearer ${tokens.user.slice(0, -3)}abc`,
      'Bearer \u00ff',
    ]);
  if (auth === 'long') headers.authorization = `Bearer ${'a'.repeat(8000)}`;
  if (rng() < 0.1) headers['if-none-match'] = pick(rng, ['*', '"x"', 'W/"1"']);
  if (rng() < 0.1)
    headers.range = pick(rng, [
      'bytes=0-0',
      'bytes=99999999-',
      'bytes=-1',
      'bytes=5-1',
      'bytes=0-1,2-3,4-5',
      'items=1-2',
    ]);
  if (rng() < 0.05) headers['accept-encoding'] = pick(rng, ['br', 'gzip;q=0', '*', 'identity;q=0, *;q=0']);

  let body: Buffer | undefined;
  if (operation.method !== 'GET' && operation.method !== 'DELETE' && rng() < 0.9) {
    if (!operation.body || rng() < 0.2) {
      const multipart = multipartBytes(
        UPLOAD_FIELDS.filter(() => rng() < 0.5),
        rng,
      );
      body = multipart.body;
      headers['content-type'] = multipart.contentType;
    } else {
      body = jsonBytes(jsonBody(operation.body, rng), rng);
      headers['content-type'] = rng() < 0.8 ? 'application/json' : pick(rng, CONTENT_TYPES);
    }
  } else if (rng() < 0.05) {
    body = Buffer.from('{"unexpected": "body"}');
    headers['content-type'] = 'application/json';
  }
  // HEAD with a body is left to the raw requests: Node's client cannot read the answer to it.
  const method =
    rng() < 0.02 ? pick(rng, ['OPTIONS', 'TRACE', 'PROPFIND', ...(body ? [] : ['HEAD'])]) : operation.method;
  return { method, path, headers, body };
}

function send(baseUrl: string, agent: Agent, planned: PlannedRequest): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(baseUrl);
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: planned.method,
        path: planned.path,
        headers: planned.headers,
        agent,
        timeout: 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.length < 64 && chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8').slice(0, 500) }),
        );
        res.on('error', reject);
      },
    );
    // A request left hanging is a failure like a 5xx (recorded as status -1).
    req.on('timeout', () => {
      req.destroy();
      resolve({ status: NO_ANSWER, body: 'no answer in 10 s' });
    });
    // A server may answer and close before reading a body it refuses; that is a fine answer.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') resolve({ status: 0, body: '' });
      else
        reject(
          new Error(
            `${planned.method} ${planned.path.slice(0, 200)} ${JSON.stringify(planned.headers).slice(0, 300)}: ${error.message}`,
          ),
        );
    });
    req.end(planned.body);
  });
}

/** Requests no HTTP client would send: broken request lines, framing and headers, over a raw socket. */
export const RAW_REQUESTS: readonly string[] = [
  'GET / HTTP/1.1\r\n\r\n',
  'GET /api/health HTTP/1.0\r\n\r\n',
  'GARBAGE\r\n\r\n',
  'GET /api/health HTTP/9.9\r\nHost: x\r\n\r\n',
  'POST /api/jwt/create/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n{"a":1}',
  'POST /api/jwt/create/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n',
  'POST /api/jwt/create/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
  'GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header Without Colon\r\n\r\n',
  `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Long: ${'a'.repeat(20_000)}\r\n\r\n`,
  'GET http://evil.example/api/health HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /api/%c0%ae%c0%ae/ HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /media/%2e%2e/secret-key HTTP/1.1\r\nHost: x\r\n\r\n',
  'POST /api/users/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":',
  'POST /api/users/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n{}',
  'get /api/health HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\nGET /api/health HTTP/1.1\r\nHost: x\r\n\r\n',
  'HEAD /api/nothing/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{"is_staff":1}GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n',
];

/** Sends one raw request; resolves with the status of each answer found in what comes back. */
export function sendRaw(baseUrl: string, raw: string, ms = 3000): Promise<number[]> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let text = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve([...text.matchAll(/HTTP\/1\.[01] (\d{3})/g)].map((m) => Number(m[1])));
    };
    const timer = setTimeout(done, ms);
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('close', done);
    socket.on('error', done);
    socket.on('connect', () => socket.end(raw));
  });
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzResult> {
  const specResponse = await fetch(new URL('/api/openapi.json', options.baseUrl));
  const operations = operationsOf(await specResponse.json());
  const rng = mulberry32(options.seed);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency ?? 8 });
  const result: FuzzResult = { sent: 0, statuses: {}, failures: [] };
  const record = (method: string, path: string, status: number, body: string) => {
    result.statuses[status] = (result.statuses[status] ?? 0) + 1;
    if (status >= 500 || status === NO_ANSWER) result.failures.push({ method, path: path.slice(0, 300), status, body });
  };

  for (const raw of RAW_REQUESTS) {
    for (const status of await sendRaw(options.baseUrl, raw)) record('RAW', raw.split('\r\n')[0] ?? '', status, '');
    result.sent++;
  }

  let tokens = await options.tokens();
  const batch = options.concurrency ?? 8;
  try {
    while (result.sent < options.requests) {
      if (result.sent % (options.refreshEvery ?? 200) < batch) tokens = await options.tokens();
      const planned = Array.from({ length: Math.min(batch, options.requests - result.sent) }, () =>
        plan(pick(rng, operations), rng, tokens),
      );
      const answers = await Promise.all(planned.map((p) => send(options.baseUrl, agent, p)));
      answers.forEach((answer, i) => record(planned[i]!.method, planned[i]!.path, answer.status, answer.body));
      result.sent += planned.length;
    }
  } finally {
    agent.destroy();
  }
  // The server still answers after everything it was sent.
  const health = await fetch(new URL('/api/health', options.baseUrl));
  record('GET', '/api/health (after the run)', health.status, await health.text());
  return result;
}
