// Moments and ages. Times are shown in UTC, as the log and the CLI show them.

/** A moment typed by a person: RFC 3339, "2026-11-21 10:00:00" (UTC), or an age before now ("15m", "2h", "90s"). */
export function parseMoment(text, now = Date.now()) {
  const t = String(text).trim();
  const age = /^(\d+)\s*([smhd])$/.exec(t);
  if (age) {
    const unit = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3 }[age[2]];
    return new Date(now - Number(age[1]) * unit);
  }
  let iso = t.replace(' ', 'T');
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(iso)) iso += 'Z';
  if (!/^\d{4}-\d\d-\d\dT/.test(iso)) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** RFC 3339 in UTC with second precision unless the moment has milliseconds. */
export function isoSeconds(date) {
  const s = new Date(date).toISOString();
  return s.endsWith('.000Z') ? `${s.slice(0, -5)}Z` : s;
}

export function formatMoment(date) {
  if (!date) return '';
  return isoSeconds(date).replace('T', ' ').replace('Z', ' UTC');
}

/** kubectl's AGE: 45s, 3m12s, 5h, 3d, 2y. */
export function age(fromMillis, nowMillis) {
  if (!fromMillis) return '';
  let s = Math.max(0, Math.floor((nowMillis - fromMillis) / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return `${m}m${s % 60 ? `${s % 60}s` : ''}`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return `${h}h${m % 60 ? `${m % 60}m` : ''}`;
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (d < 730) return `${d}d`;
  return `${Math.floor(d / 365)}y`;
}

export function bytes(n) {
  if (!n) return '0';
  const units = ['B', 'Ki', 'Mi', 'Gi', 'Ti'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 100 || i === 0 ? Math.round(v) : v.toFixed(1)}${units[i]}`;
}

export function cores(milli) {
  if (!milli) return '0';
  return milli % 1000 === 0 ? String(milli / 1000) : milli >= 10000 ? `${Math.round(milli / 1000)}` : `${milli}m`;
}

export function percent(part, whole) {
  return whole > 0 ? Math.round((100 * part) / whole) : 0;
}
