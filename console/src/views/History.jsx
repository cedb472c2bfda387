import { diffWordsWithSpace } from 'diff';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Badge } from '../components/common.jsx';
import { consoleUrl, getJSON } from '../lib/api.js';
import { collapse, sideBySide, stats } from '../lib/diff.js';
import { usePainted } from '../lib/query.js';
import { setParams } from '../lib/router.js';
import { formatMoment } from '../lib/time.js';
import { toYaml } from '../lib/yaml.js';

/** A changed line with the changed words marked. */
function Words({ text, other, side }) {
  if (text === undefined) return null;
  if (other === undefined) return text;
  const parts = diffWordsWithSpace(side === 'left' ? text : other, side === 'left' ? other : text);
  return parts.filter((p) => !(side === 'left' ? p.added : p.removed)).map((p, i) => (
    p.added || p.removed ? <mark key={i}>{p.value}</mark> : p.value
  ));
}

/** Two versions side by side: unchanged runs folded, changed lines paired, changed words marked. */
export function SideBySide({ left, right, leftTitle, rightTitle }) {
  const [expanded, setExpanded] = useState(false);
  const rows = useMemo(() => sideBySide(left, right), [left, right]);
  const shown = expanded ? rows : collapse(rows, 3);
  const s = stats(rows);
  return (
    <div class="diff" id="diff">
      <div class="diff-head">
        <span>{leftTitle}</span><span>{rightTitle}</span>
        <span class="diff-stats"><b class="good">+{s.added}</b> <b class="bad">−{s.removed}</b></span>
      </div>
      {s.added + s.removed === 0 && <p class="muted">The two versions are identical.</p>}
      <table>
        <colgroup><col class="ln" /><col /><col class="ln" /><col /></colgroup>
        <tbody>
          {shown.map((r, i) => (r.type === 'skip' ? (
            <tr class="skip" key={i}><td colSpan={4}><a href="#" onClick={(e) => { e.preventDefault(); setExpanded(true); }}>⋯ {r.count} unchanged lines</a></td></tr>
          ) : (
            <tr class={r.type} key={i}>
              <td class="ln">{r.leftNo ?? ''}</td>
              <td class="l">{r.type === 'changed' ? <Words text={r.left} other={r.right} side="left" /> : r.left}</td>
              <td class="ln">{r.rightNo ?? ''}</td>
              <td class="r">{r.type === 'changed' ? <Words text={r.right} other={r.left} side="right" /> : r.right}</td>
            </tr>
          )))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Every change of one object, oldest first: who asked, the verb, the outcome (rejected attempts too), and the object
 * after each accepted change. Pick any two versions for a side-by-side diff, or one to read it whole.
 */
export function History({ kind, namespace, name, params, at }) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const [reload, setReload] = useState(0);
  const [managed, setManaged] = useState(false);
  const [statusToo, setStatusToo] = useState(true);
  const selectedRow = useRef(null);
  useEffect(() => {
    let alive = true;
    setState((s) => ({ ...s, loading: true }));
    getJSON(consoleUrl(`history/${kind}/${namespace || '_'}/${name}`))
      .then((data) => alive && setState({ data, error: null, loading: false }))
      .catch((error) => alive && setState({ data: null, error, loading: false }));
    return () => {
      alive = false;
    };
  }, [kind, namespace, name, reload]);
  usePainted('history', state.data);
  const items = state.data?.items || [];
  const versions = items.filter((e) => e.object);
  const atMillis = at ? Date.parse(at) : null;
  const asOfMoment = atMillis ? [...versions].reverse().find((e) => Date.parse(e.time) <= atMillis) : null;
  const b = params.b || asOfMoment?.resourceVersion || versions[versions.length - 1]?.resourceVersion;
  const bIndex = versions.findIndex((e) => e.resourceVersion === b);
  const a = params.a || (bIndex > 0 ? versions[bIndex - 1].resourceVersion : b);
  const va = versions.find((e) => e.resourceVersion === a);
  const vb = versions.find((e) => e.resourceVersion === b);
  const mode = params.view || 'diff';
  const shown = statusToo ? items : items.filter((e) => e.change !== 'STATUS_UPDATED' || e.resourceVersion === a || e.resourceVersion === b);
  useEffect(() => {
    if (selectedRow.current) selectedRow.current.scrollIntoView({ block: 'nearest' });
  }, [state.data, b]);
  const text = (v) => (v ? toYaml(v.object, { managedFields: managed }) : '');
  return (
    <div class="history">
      <div class="history-head">
        {state.loading && <span class="spinner" />}
        {state.error && <span class="error">{state.error.message}</span>}
        {state.data && <span>{versions.length} versions, {items.length - versions.length} rejected attempts, read from the event log</span>}
        <label class="toggle"><input type="checkbox" checked={statusToo} onChange={(e) => setStatusToo(e.currentTarget.checked)} /> status updates</label>
        <button type="button" onClick={() => setReload((r) => r + 1)}>Reload</button>
      </div>
      <div class="timeline-box">
      <table class="plain timeline" id="timeline">
        <thead><tr><th title="left side of the diff">A</th><th title="right side of the diff">B</th><th>Time</th><th>Actor</th><th>Verb</th><th>Outcome</th><th>Change</th><th>resourceVersion</th><th>Detail</th></tr></thead>
        <tbody>
          {shown.map((e, i) => {
            const future = atMillis && Date.parse(e.time) > atMillis;
            return (
              <tr key={i} ref={e.resourceVersion === b ? selectedRow : undefined} class={`${e.outcome}${future ? ' future' : ''}${e.resourceVersion === b ? ' selected' : ''}`}>
                <td>{e.object && <input type="radio" name="a" checked={e.resourceVersion === a} onChange={() => setParams({ a: e.resourceVersion, view: 'diff' })} />}</td>
                <td>{e.object && <input type="radio" name="b" checked={e.resourceVersion === b} onChange={() => setParams({ b: e.resourceVersion })} />}</td>
                <td class="nowrap">{formatMoment(e.time)}</td>
                <td>{e.actor}</td>
                <td>{e.verb}</td>
                <td><Badge value={e.outcome} /></td>
                <td>{e.change || (e.code ? `${e.code} ${e.reason}` : '')}</td>
                <td>{e.resourceVersion ? <a href="#" class="version-link" onClick={(ev) => { ev.preventDefault(); setParams({ b: e.resourceVersion, view: 'version' }); }}>{e.resourceVersion}</a> : ''}</td>
                <td class="message">{e.message || ''}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      </div>
      {versions.length > 0 && (
        <div>
          <nav class="tabs small">
            <a href="#" id="show-diff" class={mode === 'diff' ? 'on' : ''} onClick={(e) => { e.preventDefault(); setParams({ view: 'diff' }); }}>Diff A → B</a>
            <a href="#" id="show-version" class={mode === 'version' ? 'on' : ''} onClick={(e) => { e.preventDefault(); setParams({ view: 'version' }); }}>Version B</a>
            <label class="toggle"><input type="checkbox" checked={managed} onChange={(e) => setManaged(e.currentTarget.checked)} /> managedFields</label>
          </nav>
          {mode === 'diff' ? (
            <SideBySide left={text(va)} right={text(vb)}
              leftTitle={va ? `A: resourceVersion ${va.resourceVersion}, ${va.change} by ${va.actor} at ${formatMoment(va.time)}` : ''}
              rightTitle={vb ? `B: resourceVersion ${vb.resourceVersion}, ${vb.change} by ${vb.actor} at ${formatMoment(vb.time)}` : ''} />
          ) : (
            <div>
              <p class="muted">resourceVersion {vb?.resourceVersion}: {vb?.change} by {vb?.actor} at {formatMoment(vb?.time)}</p>
              <pre class="yaml" id="version-yaml">{text(vb)}</pre>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
