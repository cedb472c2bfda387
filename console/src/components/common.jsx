import { useRef } from 'preact/hooks';
import { href, objectPath } from '../lib/router.js';
import { formatMoment } from '../lib/time.js';

/** A link that keeps the moment being viewed. */
export function Link({ to, params, children, ...rest }) {
  return <a href={href(to, params)} {...rest}>{children}</a>;
}

export function ObjectLink({ kind, namespace, name, children }) {
  if (!kind || !name) return <span>{children || name || ''}</span>;
  return <Link to={objectPath(kind, namespace, name)} class="objlink">{children || name}</Link>;
}

const TONES = {
  Running: 'good', Ready: 'good', True: 'good', Complete: 'good', Succeeded: 'good', Completed: 'good',
  Normal: 'muted', accepted: 'good', Scheduled: 'muted',
  Pending: 'warn', ContainerCreating: 'warn', Progressing: 'warn', Terminating: 'warn', Paused: 'warn',
  Suspended: 'muted', Unknown: 'warn', SchedulingDisabled: 'warn',
  Failed: 'bad', Warning: 'bad', False: 'bad', NotReady: 'bad', CrashLoopBackOff: 'bad', Error: 'bad',
  rejected: 'bad', Evicted: 'bad', OOMKilled: 'bad',
};

export function tone(status) {
  return TONES[status] || (/Err|BackOff|Fail|Invalid/.test(status || '') ? 'bad' : 'muted');
}

export function Badge({ value, id }) {
  return <span class={`badge ${tone(value)}`} id={id}>{value}</span>;
}

/** Counts as clickable chips: { value: count }; the selected one is highlighted, a second click clears it. */
export function Chips({ counts, selected, onSelect, all = 'All', id }) {
  const total = Object.values(counts || {}).reduce((a, b) => a + b, 0);
  return (
    <div class="chips" id={id}>
      <button type="button" class={!selected ? 'chip on' : 'chip'} onClick={() => onSelect(undefined)}>
        {all} <b>{total.toLocaleString()}</b>
      </button>
      {Object.entries(counts || {}).map(([k, n]) => (
        <button type="button" key={k} class={`chip ${tone(k)}${selected === k ? ' on' : ''}`} data-value={k}
          onClick={() => onSelect(selected === k ? undefined : k)}>
          {k || '(none)'} <b>{n.toLocaleString()}</b>
        </button>
      ))}
    </div>
  );
}

/** How far a rollout is: updated of desired, with ready and available in the tooltip. */
export function Progress({ done, of, label }) {
  const pct = of > 0 ? Math.min(100, Math.round((100 * done) / of)) : done > 0 ? 100 : 0;
  return (
    <div class="progress" title={label}>
      <div class="bar" style={{ width: `${pct}%` }} />
      <span>{done}/{of}</span>
    </div>
  );
}

/** Where the data on screen comes from: the live cluster or a moment in the past, and its position in the log. */
export function StateLine({ data, loading, error, children }) {
  return (
    <div class="stateline">
      {data && (data.live
        ? <span class="live-dot" title="kept up to date by the change feed">live</span>
        : <span class="past-dot">as of {formatMoment(data.time)}</span>)}
      {data && <span class="rv">resourceVersion {data.resourceVersion}</span>}
      {loading && <span class="spinner" aria-label="loading" />}
      {error && <span class="error">{error.message}</span>}
      {children}
    </div>
  );
}

export function Field({ label, children }) {
  return <label class="field"><span>{label}</span>{children}</label>;
}

/** A text input that reports its value after typing pauses (filters reload the server's list). */
export function FilterInput({ value, onChange, placeholder, id, width }) {
  const timer = useRef(null);
  return (
    <input id={id} value={value || ''} placeholder={placeholder} style={width ? { width } : undefined}
      onInput={(e) => {
        const v = e.currentTarget.value;
        clearTimeout(timer.current);
        timer.current = setTimeout(() => onChange(v), 350);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          clearTimeout(timer.current);
          onChange(e.currentTarget.value);
        }
      }} />
  );
}
