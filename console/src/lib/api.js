// Every request the console makes: same origin, the user's bearer token when one is set (the API's own
// authentication applies to the console's calls as to kubectl's), and a count of requests in flight (playback waits
// for a moment's views to load before moving on).

const TOKEN_KEY = 'eventplane.token';
let inFlight = 0;
const idleWaiters = new Set();

export function token() {
  try {
    return sessionStorage.getItem(TOKEN_KEY) || '';
  } catch {
    return '';
  }
}

export function setToken(value) {
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
}

function headers(accept) {
  const h = { Accept: accept };
  const t = token();
  if (t) h.Authorization = `Bearer ${t}`;
  return h;
}

/** The console's own endpoints: /ui/api/<path>?params (empty values left out). */
export function consoleUrl(path, params = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const s = q.toString();
  return `/ui/api/${path}${s ? `?${s}` : ''}`;
}

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function failure(response) {
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    if (body && body.message) message = body.message;
  } catch {
    // not JSON: keep the status line
  }
  return new ApiError(response.status, message);
}

export async function getJSON(url, { signal } = {}) {
  inFlight++;
  try {
    const response = await fetch(url, { headers: headers('application/json'), credentials: 'same-origin', signal });
    if (!response.ok) throw await failure(response);
    return await response.json();
  } finally {
    inFlight--;
    if (inFlight === 0) idleWaiters.forEach((w) => w());
  }
}

/** Resolves when no request is in flight (at once if none is). */
export function whenIdle() {
  if (inFlight === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const w = () => {
      idleWaiters.delete(w);
      resolve();
    };
    idleWaiters.add(w);
  });
}

/** Splits a byte stream into lines of JSON; keeps an incomplete last line for the next chunk. */
export function lineSplitter(onValue) {
  const decoder = new TextDecoder();
  let buffer = '';
  return (chunk, done = false) => {
    buffer += decoder.decode(chunk, { stream: !done });
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line) onValue(JSON.parse(line));
    }
    if (done && buffer.trim()) {
      onValue(JSON.parse(buffer));
      buffer = '';
    }
  };
}

/**
 * Reads a stream of JSON lines (a Kubernetes watch, or the console's change feed) with fetch, calling onValue for
 * each; resolves when the server ends it, rejects on failure. Abort with the signal.
 */
export async function streamLines(url, onValue, signal) {
  const response = await fetch(url, { headers: headers('application/json'), credentials: 'same-origin', signal });
  if (!response.ok) throw await failure(response);
  const split = lineSplitter(onValue);
  const reader = response.body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      split(new Uint8Array(), true);
      return;
    }
    split(value);
  }
}
