import { useEffect, useRef, useState } from 'preact/hooks';
import { consoleUrl, getJSON } from './api.js';
import { onChanges } from './live.js';

/**
 * Reads /ui/api/<path> for the moment `at` (live when empty) and, when live, reloads it whenever one of `kinds`
 * changes. Reloads never overlap: changes that arrive during a load cause one more load after it, so a slow answer
 * under constant churn still lands; `throttle` spaces loads at least that many milliseconds apart. The previous answer
 * stays shown while the next one loads.
 */
export function useConsoleQuery(path, params, { at, kinds = [], throttle = 0 } = {}) {
  const url = path ? consoleUrl(path, { ...params, asOf: at }) : null;
  const [state, setState] = useState({ data: null, error: null, loading: !!url, url: null });
  const kindKey = kinds.join(',');
  useEffect(() => {
    if (!url) return undefined;
    let alive = true;
    let running = false;
    let again = false;
    const abort = new AbortController();
    const load = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      setState((s) => ({ ...s, loading: true }));
      do {
        again = false;
        const started = Date.now();
        try {
          const data = await getJSON(url, { signal: abort.signal });
          if (alive) setState({ data, error: null, loading: false, url });
        } catch (e) {
          if (alive && e.name !== 'AbortError') setState((s) => ({ ...s, error: e, loading: false }));
        }
        const wait = throttle - (Date.now() - started);
        if (again && wait > 0) await new Promise((r) => setTimeout(r, wait));
      } while (again && alive);
      running = false;
    };
    load();
    const stop = !at && kindKey ? onChanges(kindKey.split(','), load) : null;
    return () => {
      alive = false;
      abort.abort();
      if (stop) stop();
    };
  }, [url, kindKey, at]);
  return state;
}

/** Marks the first paint of a view with data (performance mark `ep:painted:<view>`), for the benchmark and tests. */
export function usePainted(view, ready) {
  const done = useRef(false);
  useEffect(() => {
    if (!ready || done.current) return;
    done.current = true;
    requestAnimationFrame(() => setTimeout(() => {
      const paints = (window.__epPaints = window.__epPaints || []);
      const sinceNavigation = performance.now() - (window.__epNavigatedAt || 0);
      performance.mark(`ep:painted:${view}`);
      paints.push({ view, sinceLoad: performance.now(), sinceNavigation });
      document.documentElement.dataset.painted = view;
    }, 0));
  }, [view, ready]);
}
