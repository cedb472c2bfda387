// Hash routes (#/pods?namespace=default&at=2026-11-21T10:00:00Z): shareable links, nothing for the gateway to route.
// `at` is the moment every view shows; without it, the live cluster.
import { useEffect, useState } from 'preact/hooks';

export function parseHash(hash) {
  const h = hash.replace(/^#/, '') || '/';
  const q = h.indexOf('?');
  const path = q < 0 ? h : h.slice(0, q);
  const params = Object.fromEntries(new URLSearchParams(q < 0 ? '' : h.slice(q + 1)));
  return { path: path.startsWith('/') ? path : `/${path}`, params };
}

export function formatHash(path, params = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const s = q.toString();
  return `#${path}${s ? `?${s}` : ''}`;
}

export function currentRoute() {
  return parseHash(window.location.hash);
}

/** Goes to path with params; `at` is carried over unless params set it (null removes it). */
export function navigate(path, params = {}, { replace = false, keepAt = true } = {}) {
  const current = currentRoute();
  const next = { ...params };
  if (keepAt && !('at' in params) && current.params.at) next.at = current.params.at;
  const hash = formatHash(path, next);
  if (hash === window.location.hash) return;
  if (replace) {
    history.replaceState(null, '', hash);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    window.location.hash = hash;
  }
}

/** Changes some params of the current route (undefined or '' removes one). */
export function setParams(changes, options = {}) {
  const { path, params } = currentRoute();
  navigate(path, { ...params, ...changes }, { keepAt: false, ...options });
}

/** A link to path that keeps the moment being viewed. */
export function href(path, params = {}) {
  const at = currentRoute().params.at;
  return formatHash(path, at && !('at' in params) ? { ...params, at } : params);
}

export function objectPath(kind, namespace, name) {
  return `/object/${kind}/${namespace || '_'}/${name}`;
}

export function useRoute() {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const on = () => setRoute(currentRoute());
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}
