/** The list of origins allowed to call the API from a browser (CORS_ALLOW_ORIGINS, `-c corsAllowOrigins`). */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { AllowedOrigins } from '../../shared/http/cors-policy';

const parse = (value: string) => v.safeParse(AllowedOrigins, value);
const origins = (value: string) => {
  const parsed = parse(value);
  if (!parsed.success) throw new Error(parsed.issues[0].message);
  return parsed.output;
};
const refusal = (value: string) => {
  const parsed = parse(value);
  return parsed.success ? undefined : parsed.issues[0].message;
};

describe('CORS_ALLOW_ORIGINS', () => {
  it('reads a comma-separated list of exact origins, spaces and empty entries ignored', () => {
    expect(origins(' https://app.example, https://admin.example:8443 ,,')).toEqual(['https://app.example', 'https://admin.example:8443']);
  });

  it('allows http for a developer machine', () => {
    expect(origins('http://localhost:5173,http://127.0.0.1:5173')).toEqual(['http://localhost:5173', 'http://127.0.0.1:5173']);
  });

  it('is empty (CORS off) for an empty value', () => {
    expect(origins('')).toEqual([]);
  });

  it('writes each origin as a browser sends it: lower-case host, punycode, no default port, once', () => {
    expect(origins('https://App.Example:443,https://bücher.example,https://app.example')).toEqual(['https://app.example', 'https://xn--bcher-kva.example']);
  });

  it('refuses the wildcard, naming it', () => {
    expect(refusal('*')).toBe('"*" is not an origin: give scheme, host and optional port (https://app.example), no path and no *');
  });

  it('refuses a wildcard inside a host', () => {
    expect(refusal('https://*.example')).toMatch(/^"https:\/\/\*\.example" is not an origin/);
  });

  it('refuses an origin with a path, even a lone slash', () => {
    expect(refusal('https://app.example/')).toMatch(/is not an origin/);
    expect(refusal('https://app.example/app')).toMatch(/is not an origin/);
  });

  it('refuses a host without its scheme', () => {
    expect(refusal('app.example')).toMatch(/^"app.example" is not an origin/);
  });

  it('refuses another scheme, a query, user info and a character no host has', () => {
    for (const value of ['ftp://app.example', 'https://app.example?x=1', 'https://user@app.example', 'https://app"x.example']) {
      expect(refusal(value), value).toMatch(/is not an origin/);
    }
  });
});
