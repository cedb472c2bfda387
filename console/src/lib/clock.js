// The server's clock and the start of the log: the time slider's range. Read once from the overview; the client's
// clock then keeps time (no polling).
import { useEffect, useState } from 'preact/hooks';
import { consoleUrl, getJSON } from './api.js';

let offset = 0;
let logStart = null;
let loaded = null;
const listeners = new Set();

export function serverNow() {
  return Date.now() + offset;
}

export function logStartMillis() {
  return logStart;
}

/** Takes the server's time and log start from an overview answer (any view may pass one along). */
export function noteOverview(overview) {
  if (overview && overview.now && overview.live) offset = Date.parse(overview.now) - Date.now();
  if (overview && overview.logStart) logStart = Date.parse(overview.logStart);
  listeners.forEach((l) => l());
}

export function loadClock() {
  if (!loaded) {
    loaded = getJSON(consoleUrl('overview')).then(noteOverview).catch(() => {
      loaded = null;
    });
  }
  return loaded;
}

/** Re-renders every `everyMs` and when the clock's facts change. */
export function useClock(everyMs = 1000) {
  const [, set] = useState(0);
  useEffect(() => {
    const l = () => set((x) => x + 1);
    listeners.add(l);
    const t = setInterval(l, everyMs);
    loadClock();
    return () => {
      listeners.delete(l);
      clearInterval(t);
    };
  }, [everyMs]);
  return { now: serverNow(), logStart };
}
