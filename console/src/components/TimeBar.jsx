import { useEffect, useRef, useState } from 'preact/hooks';
import { whenIdle } from '../lib/api.js';
import { useClock } from '../lib/clock.js';
import { currentRoute, setParams } from '../lib/router.js';
import { formatMoment, isoSeconds, parseMoment } from '../lib/time.js';

const SPEEDS = [1, 10, 60, 600, 3600];

/**
 * Time travel: a slider over the whole log and a date box switch every view to the cluster as of that moment (the
 * route's `at`); playback moves the moment forward at a chosen speed, one step once the views have loaded the last.
 */
export function TimeBar({ at }) {
  const { now, logStart } = useClock(1000);
  const [preview, setPreview] = useState(null);
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(60);
  const [until, setUntil] = useState('');
  const debounce = useRef(null);
  const atMillis = at ? Date.parse(at) : null;
  const min = logStart ?? now - 3600e3;
  const max = Math.max(now, min + 1000);
  const value = preview ?? atMillis ?? max;

  useEffect(() => setText(at ? formatMoment(at) : ''), [at]);

  const go = (millis, replace = false) => {
    setPreview(null);
    setError('');
    if (millis === null || millis >= serverNowMinus(1000)) setParams({ at: undefined }, { replace });
    else setParams({ at: isoSeconds(Math.max(min, Math.round(millis / 1000) * 1000)) }, { replace });
  };
  const serverNowMinus = (ms) => now - ms;

  useEffect(() => {
    if (!playing) return undefined;
    let stopped = false;
    const end = until ? parseMoment(until, now) : null;
    (async () => {
      let last = performance.now();
      while (!stopped) {
        await new Promise((r) => setTimeout(r, 1000));
        await whenIdle();
        if (stopped) return;
        const t = performance.now();
        const routeAt = currentRoute().params.at;
        const from = routeAt ? Date.parse(routeAt) : min;
        const next = from + ((t - last) / 1000) * speed * 1000;
        last = t;
        const stop = end ? end.getTime() : Date.now() + 1e12;
        if (next >= stop || next >= now) {
          setPlaying(false);
          if (next >= now && !end) setParams({ at: undefined }, { replace: true });
          else setParams({ at: isoSeconds(Math.min(stop, now - 1000)) }, { replace: true });
          return;
        }
        setParams({ at: isoSeconds(next) }, { replace: true });
      }
    })();
    return () => {
      stopped = true;
    };
  }, [playing, speed, until]);

  const submit = (e) => {
    e.preventDefault();
    if (!text.trim() || text.trim().toLowerCase() === 'now') return go(null);
    const m = parseMoment(text, now);
    if (!m) return setError('a time such as 2026-11-21 10:00:00 (UTC) or 2026-11-21T10:00:00Z, or an age: 15m, 2h');
    if (m.getTime() > now) return setError('that moment is in the future');
    go(m.getTime());
  };

  const step = (seconds) => go(Math.min(max, (atMillis ?? max) + seconds * 1000));

  return (
    <div class={`timebar${at ? ' past' : ''}`} id="timebar">
      <span class={`mode ${at ? 'past' : 'live'}`} id="time-mode">{at ? 'PAST' : 'LIVE'}</span>
      <button type="button" title="1 minute earlier" onClick={() => step(-60)}>−1m</button>
      <button type="button" title="10 seconds earlier" onClick={() => step(-10)}>−10s</button>
      <input
        id="time-slider" type="range" min={min} max={max} step={1000} value={value}
        title={formatMoment(value)}
        onInput={(e) => {
          const v = Number(e.currentTarget.value);
          setPreview(v);
          clearTimeout(debounce.current);
          debounce.current = setTimeout(() => go(v, true), 500);
        }}
        onChange={(e) => {
          clearTimeout(debounce.current);
          go(Number(e.currentTarget.value));
        }}
      />
      <button type="button" title="10 seconds later" disabled={!at} onClick={() => step(10)}>+10s</button>
      <button type="button" title="1 minute later" disabled={!at} onClick={() => step(60)}>+1m</button>
      <form onSubmit={submit} class="datebox">
        <input id="time-input" value={text} placeholder={preview ? formatMoment(preview) : 'now — or 2026-11-21 10:00:00, 15m'}
          onInput={(e) => setText(e.currentTarget.value)} />
        <button type="submit" id="time-go">Go</button>
      </form>
      <span class="play">
        <button type="button" id="time-play" onClick={() => setPlaying(!playing)} title="Play the cluster's history forward">
          {playing ? '❚❚ Pause' : '▶ Play'}
        </button>
        <select value={speed} onChange={(e) => setSpeed(Number(e.currentTarget.value))} title="Playback speed">
          {SPEEDS.map((s) => <option value={s}>{s}×</option>)}
        </select>
        <input class="until" value={until} placeholder="until (now)" title="Stop playback at this moment"
          onInput={(e) => setUntil(e.currentTarget.value)} />
      </span>
      {at && <button type="button" class="back-live" id="back-to-live" onClick={() => { setPlaying(false); go(null); }}>Back to live</button>}
      {error && <span class="error">{error}</span>}
    </div>
  );
}

export function PastBanner({ at, resourceVersion }) {
  if (!at) return null;
  return (
    <div class="past-banner" id="past-banner">
      Viewing the past: the cluster as it was at <b>{formatMoment(at)}</b>
      {resourceVersion ? <> (resourceVersion {resourceVersion})</> : null}. Nothing here changes while you look.
      <button type="button" onClick={() => setParams({ at: undefined })}>Back to live</button>
    </div>
  );
}
