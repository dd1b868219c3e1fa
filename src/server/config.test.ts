import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'innerwave-config-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('has defaults that need nothing installed', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      env: 'development',
      databaseUrl: undefined,
      smtpUrl: undefined,
      supportEmail: 'support@innerwave.app',
    });
    expect(loadConfig({ DATA_DIR: dataDir, SUPPORT_EMAIL: 'help@example.org' }).supportEmail).toBe('help@example.org');
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
    expect(config.tokens.accessTtlSeconds).toBe(300);
    expect(config.tokens.refreshTtlSeconds).toBe(86_400);
  });

  it('names every wrong variable in one message', () => {
    const run = () =>
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        SMTP_URL: 'http://mail',
        PUBLIC_URL: 'nope',
        SUPPORT_EMAIL: 'support',
      });
    expect(run).toThrow(ConfigError);
    try {
      run();
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'SMTP_URL', 'PUBLIC_URL', 'SUPPORT_EMAIL'])
        expect(message).toContain(name);
    }
  });

  it('refuses to start in production without a secret key', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tempDir() })).toThrow(/SECRET_KEY/);
    expect(() => loadConfig({ NODE_ENV: 'production', SECRET_KEY: 'short', DATA_DIR: tempDir() })).toThrow(
      /SECRET_KEY/,
    );
  });

  it('generates a secret on first run and keeps it in the data folder', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir }).secretKey;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dataDir, 'secret-key'), 'utf8').trim()).toBe(first);
    expect(loadConfig({ DATA_DIR: dataDir }).secretKey).toBe(first);
  });

  it('treats empty variables as unset and trims a trailing slash off PUBLIC_URL', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), PORT: '', PUBLIC_URL: 'https://innerwave.example/' });
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('https://innerwave.example');
  });
});
