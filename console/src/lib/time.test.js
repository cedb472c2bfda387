import { describe, expect, it } from 'vitest';
import { lineSplitter } from './api.js';
import { formatHash, parseHash } from './router.js';
import { age, isoSeconds, parseMoment } from './time.js';

describe('moments', () => {
  const now = Date.parse('2026-11-21T10:00:00Z');
  it('reads RFC 3339, a UTC date and time, and ages before now', () => {
    expect(isoSeconds(parseMoment('2026-11-21T09:00:00Z', now))).toBe('2026-11-21T09:00:00Z');
    expect(isoSeconds(parseMoment('2026-11-21 09:30', now))).toBe('2026-11-21T09:30:00Z');
    expect(isoSeconds(parseMoment('15m', now))).toBe('2026-11-21T09:45:00Z');
    expect(isoSeconds(parseMoment('2h', now))).toBe('2026-11-21T08:00:00Z');
    expect(parseMoment('yesterday', now)).toBeNull();
  });
  it('prints ages as kubectl does', () => {
    expect(age(now - 45e3, now)).toBe('45s');
    expect(age(now - 192e3, now)).toBe('3m12s');
    expect(age(now - 5 * 3600e3, now)).toBe('5h');
    expect(age(now - 3 * 86400e3, now)).toBe('3d');
  });
});

describe('routes', () => {
  it('round-trip path and params through the hash', () => {
    const hash = formatHash('/pods', { namespace: 'default', at: '2026-11-21T10:00:00Z', empty: '' });
    expect(hash).toBe('#/pods?namespace=default&at=2026-11-21T10%3A00%3A00Z');
    expect(parseHash(hash)).toEqual({ path: '/pods', params: { namespace: 'default', at: '2026-11-21T10:00:00Z' } });
  });
});

describe('streams of JSON lines', () => {
  it('split across chunks anywhere', () => {
    const got = [];
    const split = lineSplitter((v) => got.push(v));
    const bytes = new TextEncoder().encode('{"type":"ADDED","n":1}\n{"type":"MODIFIED","n":2}\n');
    split(bytes.slice(0, 10));
    split(bytes.slice(10, 30));
    split(bytes.slice(30), true);
    expect(got).toEqual([{ type: 'ADDED', n: 1 }, { type: 'MODIFIED', n: 2 }]);
  });
});
