// Request generation for the fuzz test: values that fit an operation's OpenAPI schema, then
// mutations of every layer a client controls (path, query, headers, content type, body bytes).

export type Rng = () => number;

export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
const chance = (rng: Rng, p: number) => rng() < p;

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  format?: string;
  anyOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
}

/** Strings that have broken servers: NUL, lone surrogates, RTL marks, huge, path tricks, SQL, HTML. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202e\u0000\uffff',
  '😀'.repeat(300),
  'x'.repeat(100_000),
  '../../etc/passwd',
  '%00',
  "'; drop table users; --",
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  '1e400',
  '-0',
  'NaN',
  '9'.repeat(40),
  '\r\nX-Injected: 1',
];

export const HOSTILE_NUMBERS: readonly unknown[] = [
  0,
  -1,
  1.5,
  2147483647,
  2147483648,
  -2147483649,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  '1',
  null,
  true,
];

/** A value that satisfies the schema, as a well-behaved client would send it. */
export function validValue(schema: JsonSchema | undefined, rng: Rng, name = ''): unknown {
  if (!schema) return null;
  if (schema.enum?.length) return pick(rng, schema.enum);
  if (schema.anyOf?.length) return validValue(pick(rng, schema.anyOf), rng, name);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(schema.properties ?? {})) value[key] = validValue(inner, rng, key);
      return value;
    }
    case 'array':
      return Array.from({ length: 1 + Math.floor(rng() * 3) }, () => validValue(schema.items, rng, name));
    case 'integer':
    case 'number':
      return 1 + Math.floor(rng() * 5);
    case 'boolean':
      return chance(rng, 0.5);
    case 'string':
      if (schema.format === 'email' || /email/.test(name)) return `fuzz-${Math.floor(rng() * 1e6)}@example.com`;
      if (/password/.test(name)) return 'Calm-River-Morning-42';
      return `value ${Math.floor(rng() * 1e6)}`;
    default:
      return null;
  }
}

/** A wrong value for a field: another type, an edge number, a hostile string, a deep structure. */
export function hostileValue(rng: Rng): unknown {
  switch (Math.floor(rng() * 6)) {
    case 0:
      return pick(rng, HOSTILE_STRINGS);
    case 1:
      return pick(rng, HOSTILE_NUMBERS);
    case 2:
      return [pick(rng, HOSTILE_STRINGS), pick(rng, HOSTILE_NUMBERS)];
    case 3:
      return { nested: pick(rng, HOSTILE_STRINGS) };
    case 4: {
      let deep: unknown = 'bottom';
      for (let i = 0; i < 2000; i++) deep = [deep];
      return deep;
    }
    default:
      return null;
  }
}

/** A JSON body: valid, or valid with one field wrong, missing, added or poisoned. */
export function jsonBody(schema: JsonSchema | undefined, rng: Rng): unknown {
  const valid = validValue(schema ?? { type: 'object' }, rng);
  if (!valid || typeof valid !== 'object' || Array.isArray(valid) || chance(rng, 0.1))
    return chance(rng, 0.5) ? valid : hostileValue(rng);
  const body = valid as Record<string, unknown>;
  const keys = Object.keys(body);
  const mutation = Math.floor(rng() * 5);
  if (mutation === 0 && keys.length) body[pick(rng, keys)] = hostileValue(rng);
  if (mutation === 1 && keys.length) delete body[pick(rng, keys)];
  if (mutation === 2) body[pick(rng, ['extra', 'is_staff', 'id', 'subscription_plan'])] = hostileValue(rng);
  if (mutation === 3) for (const key of keys) body[key] = hostileValue(rng);
  return body;
}

/** Raw body bytes: JSON text with its own mutations (truncated, poisoned keys, invalid UTF-8). */
export function jsonBytes(value: unknown, rng: Rng): Buffer {
  const text = JSON.stringify(value) ?? 'null';
  switch (Math.floor(rng() * 8)) {
    case 0:
      return Buffer.from(text.slice(0, Math.floor(rng() * text.length)));
    case 1:
      return Buffer.from(text.replace(/^\{/, '{"__proto__":{"isStaff":true},'));
    case 2:
      return Buffer.from(text.replace(/^\{/, '{"constructor":{"prototype":{"x":1}},'));
    case 3:
      return Buffer.concat([Buffer.from(text.slice(0, -1)), Buffer.from([0xc0, 0xae, 0xff, 0xfe]), Buffer.from('"}')]);
    case 4:
      return Buffer.from(text.replace(/"([^"]*)"/, '"$1\\u0000"'));
    default:
      return Buffer.from(text);
  }
}

/** A multipart/form-data body from field names, with structural breakage some of the time. */
export function multipartBytes(fields: readonly string[], rng: Rng): { body: Buffer; contentType: string } {
  const boundary = `fuzz${Math.floor(rng() * 1e9)}`;
  const parts: Buffer[] = [];
  for (const name of fields) {
    if (chance(rng, 0.2)) continue;
    const asFile = chance(rng, 0.4);
    const head = asFile
      ? `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${pick(rng, ['a.mp3', 'b.png', 'c.exe', '', '../x', 'é\u0000.txt'])}"\r\nContent-Type: ${pick(rng, ['audio/mpeg', 'image/png', 'application/octet-stream', 'text/plain'])}\r\n\r\n`
      : `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`;
    const content = asFile
      ? Buffer.from(Array.from({ length: Math.floor(rng() * 2048) }, () => Math.floor(rng() * 256)))
      : Buffer.from(String(chance(rng, 0.5) ? pick(rng, HOSTILE_STRINGS) : `v${name}`));
    parts.push(Buffer.from(head), content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  let body = Buffer.concat(parts);
  let contentType = `multipart/form-data; boundary=${boundary}`;
  switch (Math.floor(rng() * 8)) {
    case 0:
      body = body.subarray(0, Math.floor(rng() * body.length));
      break;
    case 1:
      contentType = 'multipart/form-data';
      break;
    case 2:
      contentType = `multipart/form-data; boundary=other${boundary}`;
      break;
    case 3:
      body = Buffer.from(body.toString('latin1').replace('Content-Disposition', 'Content-Dispositio'), 'latin1');
      break;
    case 4:
      body = Buffer.concat([
        body,
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\nx\r\n--${boundary}--\r\n`,
        ),
      ]);
      break;
  }
  return { body, contentType };
}

/** Path parameter values: ones that exist, and everything else a URL can hold. */
export const PATH_PARAMS: readonly string[] = [
  '1',
  '2',
  '3',
  '0',
  '-1',
  '2147483648',
  '99999999999999999999',
  '1e400',
  '1.5',
  'NaN',
  'abc',
  '%00',
  '%c0%ae',
  '..%2f..',
  '%ff',
  'x'.repeat(3000),
  'selfeggio',
  'bonus',
  'custom',
  '%F0%9F%98%80',
];

export const CONTENT_TYPES: readonly string[] = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data',
  'application/json, text/plain',
  ';;;',
  '',
];
