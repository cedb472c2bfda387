// Live updates. The lists listen to one shared stream of the console's change feed (which kinds changed, at most
// four times a second) and reload what they show; an object's page watches the object itself through the Kubernetes
// watch API. One shared stream, and none while the tab is hidden or being left, because a browser keeps at most six
// HTTP/1.1 connections to a server across all its tabs: streams held by background tabs (or by a page kept in the
// back/forward cache) would make every other request wait.
import { useEffect, useState } from 'preact/hooks';
import { streamLines } from './api.js';

const listeners = new Set();
const statusListeners = new Set();
let controller = null;
let status = 'idle';
let closeTimer = null;

function setStatus(s) {
  status = s;
  statusListeners.forEach((l) => l(s));
}

async function run(signal) {
  let backoff = 500;
  while (!signal.aborted) {
    try {
      setStatus('connecting');
      await streamLines('/ui/api/changes', (msg) => {
        if (msg.type === 'READY') {
          setStatus('live');
          backoff = 500;
          // Changes may have happened while the stream was down: everyone reloads once.
          listeners.forEach((l) => l.fn(msg));
        } else if (msg.type === 'CHANGED') {
          const kinds = Object.keys(msg.kinds || {});
          listeners.forEach((l) => {
            if (l.kinds.some((k) => kinds.includes(k))) l.fn(msg);
          });
        }
      }, signal);
    } catch (e) {
      if (signal.aborted) return;
    }
    setStatus('reconnecting');
    await new Promise((r) => setTimeout(r, backoff));
    backoff = Math.min(backoff * 2, 10_000);
  }
}

/** Whether the page may hold streams now: visible and not being left. */
let pageActive = typeof document === 'undefined' || document.visibilityState !== 'hidden';
const activityListeners = new Set();

function setPageActive(active) {
  if (active === pageActive) return;
  pageActive = active;
  activityListeners.forEach((l) => l(active));
  if (!active && controller) {
    controller.abort();
    controller = null;
    setStatus('paused');
  } else if (active && listeners.size > 0) {
    open();
  }
}

if (typeof window !== 'undefined') {
  document.addEventListener('visibilitychange', () => setPageActive(document.visibilityState !== 'hidden'));
  window.addEventListener('pagehide', () => setPageActive(false));
  window.addEventListener('pageshow', () => setPageActive(document.visibilityState !== 'hidden'));
}

/** Calls fn(active) when the page becomes hidden (streams must close) or visible again. */
export function onPageActivity(fn) {
  activityListeners.add(fn);
  return () => activityListeners.delete(fn);
}

export function isPageActive() {
  return pageActive;
}

function open() {
  if (!controller && pageActive) {
    controller = new AbortController();
    run(controller.signal);
  }
}

/** Calls fn whenever one of kinds changes; returns the unsubscribe function. */
export function onChanges(kinds, fn) {
  const entry = { kinds, fn };
  listeners.add(entry);
  clearTimeout(closeTimer);
  open();
  return () => {
    listeners.delete(entry);
    if (listeners.size === 0) {
      // Keep the stream a moment: the next view usually subscribes right away.
      closeTimer = setTimeout(() => {
        if (listeners.size === 0 && controller) {
          controller.abort();
          controller = null;
          setStatus('idle');
        }
      }, 5000);
    }
  };
}

export function useFeedStatus() {
  const [s, setS] = useState(status);
  useEffect(() => {
    statusListeners.add(setS);
    return () => statusListeners.delete(setS);
  }, []);
  return s;
}
